// SPDX-License-Identifier: Apache-2.0
// Einsum: the ai.onnx operator, numpy.einsum's semantics: explicit ("ij,jk->ik") or implicit
// output (the ellipsis dims, then the labels used once, in ASCII order), repeated labels within a
// term (diagonals), "..." broadcast across the operands, and sums over every label the output
// lacks. The kernel is one loop over all labels: every output element sums the product of the
// operands over the summed labels; a repeated label steps through the sum of its dims' strides.
// Floats accumulate in double, integers in 64 bits (wrapping as the type does).
#include <algorithm>
#include <array>
#include <string>

#include "ops/onnx/misc_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

// A parsed equation. Labels are ASCII letters; kEllipsis marks "..." in a term.
constexpr int kEllipsis = -1;
struct Equation {
  std::vector<std::vector<int>> terms;
  bool explicit_output = false;
  std::vector<int> output;  // explicit output only
  bool ellipsis = false;    // some input term has "..."
};

// Parses `text`; returns the error (empty on success).
std::string parse_equation(const std::string& text, Equation& eq) {
  std::string s;
  for (char c : text)
    if (c != ' ') s += c;
  const std::size_t arrow = s.find("->");
  const std::string lhs = s.substr(0, arrow);
  eq.explicit_output = arrow != std::string::npos;
  auto parse_term = [](const std::string& t, std::vector<int>& out) -> std::string {
    bool seen = false;
    for (std::size_t i = 0; i < t.size();) {
      if (t.compare(i, 3, "...") == 0) {
        if (seen) return "term '" + t + "' has more than one ellipsis";
        seen = true;
        out.push_back(kEllipsis);
        i += 3;
      } else if ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z')) {
        out.push_back(t[i++]);
      } else {
        return "term '" + t + "' has '" + t[i] + "', which is not a letter or '...'";
      }
    }
    return "";
  };
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = lhs.find(',', start);
    eq.terms.emplace_back();
    if (auto err = parse_term(lhs.substr(start, comma - start), eq.terms.back()); !err.empty())
      return err;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::array<int, 128> count{};
  for (const auto& t : eq.terms)
    for (int l : t) {
      if (l == kEllipsis)
        eq.ellipsis = true;
      else
        ++count[static_cast<std::size_t>(l)];
    }
  if (eq.explicit_output) {
    if (auto err = parse_term(s.substr(arrow + 2), eq.output); !err.empty()) return err;
    std::array<int, 128> used{};
    for (int l : eq.output) {
      if (l == kEllipsis) continue;
      if (count[static_cast<std::size_t>(l)] == 0)
        return std::string("output label '") + static_cast<char>(l) + "' is in no input";
      if (used[static_cast<std::size_t>(l)]++ > 0)
        return std::string("output label '") + static_cast<char>(l) + "' is repeated";
    }
  } else {
    if (eq.ellipsis) eq.output.push_back(kEllipsis);
    for (int l = 0; l < 128; ++l)
      if (count[static_cast<std::size_t>(l)] == 1) eq.output.push_back(l);
  }
  return "";
}

// The number of dims each term's "..." stands for (-1 when the rank does not fit), and the
// broadcast ellipsis rank.
int64_t ellipsis_rank(const std::vector<int>& term, int64_t rank) {
  const auto letters =
      static_cast<int64_t>(std::count_if(term.begin(), term.end(), [](int l) { return l >= 0; }));
  const bool has = letters != static_cast<int64_t>(term.size());
  if (has ? rank < letters : rank != letters) return -1;
  return rank - letters;
}

// Labels of term's dims in order, "..." expanded to pseudo labels 128 + j (j: the position among
// `ell` broadcast ellipsis dims, right-aligned).
std::vector<int> expand(const std::vector<int>& term, int64_t term_ell, int64_t ell) {
  std::vector<int> out;
  for (int l : term) {
    if (l != kEllipsis) {
      out.push_back(l);
      continue;
    }
    for (int64_t t = 0; t < term_ell; ++t)
      out.push_back(static_cast<int>(128 + ell - term_ell + t));
  }
  return out;
}

void infer_einsum(InferContext& ctx) {
  const int32_t elem = unify_all_input_elem_types(ctx);
  Equation eq;
  if (auto err = parse_equation(ctx.attrs().get_string("equation"), eq); !err.empty())
    infer_fail("equation: " + err);
  if (eq.terms.size() != ctx.num_inputs())
    infer_fail("the equation has " + std::to_string(eq.terms.size()) + " terms but the node " +
               std::to_string(ctx.num_inputs()) + " inputs");
  std::vector<std::optional<Dims>> shapes;
  bool all_known = true;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    shapes.push_back(ctx.input_type(i).shape);
    all_known = all_known && shapes.back().has_value();
  }
  if (!all_known) {
    const bool ellipsis_out =
        std::find(eq.output.begin(), eq.output.end(), kEllipsis) != eq.output.end();
    return set_output_tensor(
        ctx, 0, elem, ellipsis_out ? std::nullopt : std::optional<Dims>(Dims(eq.output.size())));
  }
  std::vector<int64_t> term_ell(eq.terms.size());
  int64_t ell = 0;
  for (std::size_t i = 0; i < eq.terms.size(); ++i) {
    term_ell[i] = ellipsis_rank(eq.terms[i], static_cast<int64_t>(shapes[i]->size()));
    if (term_ell[i] < 0)
      infer_fail("input " + std::to_string(i) + " has rank " + std::to_string(shapes[i]->size()) +
                 ", which its term does not fit");
    ell = std::max(ell, term_ell[i]);
  }
  // Each label's dim: the broadcast of its dims in every term.
  std::vector<std::optional<Dim>> dim(128 + static_cast<std::size_t>(ell));
  for (std::size_t i = 0; i < eq.terms.size(); ++i) {
    const std::vector<int> labels = expand(eq.terms[i], term_ell[i], ell);
    for (std::size_t d = 0; d < labels.size(); ++d) {
      auto& slot = dim[static_cast<std::size_t>(labels[d])];
      slot = slot ? broadcast_dim(*slot, (*shapes[i])[d]) : (*shapes[i])[d];
    }
  }
  Dims out;
  for (int l : expand(eq.output, ell, ell)) out.push_back(dim[static_cast<std::size_t>(l)].value());
  set_output_tensor(ctx, 0, elem, out);
}

// Sums the products of the operands over every label, outputs first then the summed ones, the
// last label fastest: each run of `sum_size` steps makes one output element.
template <class C>
void einsum_loop(const std::vector<std::vector<C>>& in, const std::vector<std::vector<int64_t>>& st,
                 const std::vector<int64_t>& size, int64_t sum_size, std::vector<C>& out) {
  const std::size_t nlab = size.size(), n = in.size();
  std::vector<int64_t> idx(nlab, 0), off(n, 0);
  for (C& y : out) {
    C acc = 0;
    for (int64_t s = 0; s < sum_size; ++s) {
      C prod = 1;
      for (std::size_t i = 0; i < n; ++i) prod *= in[i][static_cast<std::size_t>(off[i])];
      acc += prod;
      for (std::size_t d = nlab; d-- > 0;) {
        for (std::size_t i = 0; i < n; ++i) off[i] += st[i][d];
        if (++idx[d] < size[d]) break;
        for (std::size_t i = 0; i < n; ++i) off[i] -= st[i][d] * size[d];
        idx[d] = 0;
      }
    }
    y = acc;
  }
}

template <class C>
void einsum_compute(KernelContext& ctx, const std::vector<std::vector<int64_t>>& st,
                    const std::vector<int64_t>& size, int64_t sum_size, DataType type,
                    const Shape& shape) {
  // Integers as uint64: wrapping arithmetic, read back into int64 modulo 2^64.
  using V = std::conditional_t<std::is_same_v<C, double>, double, int64_t>;
  std::vector<std::vector<C>> in;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const std::vector<V> v = misc::values_as<V>(ctx, ctx.input(i), "Inputs");
    in.emplace_back(v.begin(), v.end());
  }
  std::vector<C> out(static_cast<std::size_t>(misc::shape_size(shape)), C(0));
  if (sum_size > 0) einsum_loop<C>(in, st, size, sum_size, out);
  const std::vector<V> values(out.begin(), out.end());
  misc::write_output<V>(ctx, 0, type, shape, values);
}

void einsum_kernel(KernelContext& ctx) {
  Equation eq;
  if (auto err = parse_equation(ctx.attrs().get_string("equation"), eq); !err.empty())
    ctx.fail("equation: " + err);
  const std::size_t n = ctx.num_inputs();
  if (eq.terms.size() != n)
    ctx.fail("the equation has " + std::to_string(eq.terms.size()) + " terms but the node " +
             std::to_string(n) + " inputs");
  const DataType type = ctx.input(0).dtype();
  std::vector<int64_t> term_ell(n);
  int64_t ell = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (ctx.input(i).dtype() != type) ctx.fail("all inputs must have the same element type");
    term_ell[i] = ellipsis_rank(eq.terms[i], ctx.input(i).rank());
    if (term_ell[i] < 0)
      ctx.fail("input " + std::to_string(i) + " has shape " +
               shape_to_string(ctx.input(i).shape()) + ", which its term does not fit");
    ell = std::max(ell, term_ell[i]);
  }
  // Each label's size: equal across its dims, or 1 broadcast.
  const std::size_t labels = 128 + static_cast<std::size_t>(ell);
  std::vector<int64_t> size(labels, -1);
  std::vector<std::vector<int>> expanded(n);
  for (std::size_t i = 0; i < n; ++i) {
    expanded[i] = expand(eq.terms[i], term_ell[i], ell);
    for (std::size_t d = 0; d < expanded[i].size(); ++d) {
      int64_t& s = size[static_cast<std::size_t>(expanded[i][d])];
      const int64_t got = ctx.input(i).shape()[d];
      if (s == -1 || s == 1)
        s = got;
      else if (got != s && got != 1)
        ctx.fail("input " + std::to_string(i) + " has " + std::to_string(got) +
                 " along a label (or ellipsis dim) that elsewhere has " + std::to_string(s));
    }
  }
  // The loop's labels: the output's, then the summed ones.
  std::vector<int> order = expand(eq.output, ell, ell);
  Shape shape;
  for (int l : order) shape.push_back(size[static_cast<std::size_t>(l)]);
  for (std::size_t l = 0; l < labels; ++l)
    if (size[l] != -1 && std::find(order.begin(), order.end(), static_cast<int>(l)) == order.end())
      order.push_back(static_cast<int>(l));
  int64_t sum_size = 1;
  std::vector<int64_t> loop_size;
  for (std::size_t d = 0; d < order.size(); ++d) {
    loop_size.push_back(size[static_cast<std::size_t>(order[d])]);
    if (d >= shape.size()) sum_size *= loop_size.back();
  }
  // Each input's stride per loop label: the sum of its dims' strides (a repeated label walks
  // the diagonal), 0 where the dim is 1 and broadcast.
  std::vector<std::vector<int64_t>> st(n, std::vector<int64_t>(order.size(), 0));
  for (std::size_t i = 0; i < n; ++i) {
    const Shape& s = ctx.input(i).shape();
    int64_t stride = 1;
    for (std::size_t d = s.size(); d-- > 0;) {
      const auto at = std::find(order.begin(), order.end(), expanded[i][d]) - order.begin();
      if (s[d] != 1) st[i][static_cast<std::size_t>(at)] += stride;
      stride *= s[d];
    }
  }
  if (misc::is_float_type(type))
    einsum_compute<double>(ctx, st, loop_size, sum_size, type, shape);
  else
    einsum_compute<uint64_t>(ctx, st, loop_size, sum_size, type, shape);
}

}  // namespace

void define_Einsum(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .attr_required("equation", AttrType::s)
      .input_variadic("Inputs", "T", 1, true, D::differentiable)
      .output("Output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_einsum).kernel(einsum_kernel);
}

}  // namespace onnxtool::ops
