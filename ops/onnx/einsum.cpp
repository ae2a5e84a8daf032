// SPDX-License-Identifier: Apache-2.0
// Einsum: the ai.onnx operator, numpy.einsum's semantics: explicit ("ij,jk->ik") or implicit
// output (the ellipsis dims, then the labels used once, in ASCII order), repeated labels within a
// term (diagonals), "..." broadcast across the operands, and sums over every label the output
// lacks. The kernel is one loop over all labels: every output element sums the product of the
// operands over the summed labels; a repeated label steps through the sum of its dims' strides.
// Floats accumulate in double, integers in 64 bits (wrapping as the type does). Two float32
// operands whose labels each appear once (attention's 'bhid,bhjd->bhij', a matmul's 'ij,jk')
// go through matrix products instead (einsum_as_products), with float sums.
#include <algorithm>
#include <array>
#include <string>

#include "ops/onnx/misc_common.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/tensor_common.h"
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

// ---- two float32 operands as matrix products ------------------------------------------------

// Where a term's labels sit: the dim holding each label (-1 where none).
std::vector<int64_t> dims_of_labels(const std::vector<int>& term, std::size_t labels) {
  std::vector<int64_t> at(labels, -1);
  for (std::size_t d = 0; d < term.size(); ++d)
    at[static_cast<std::size_t>(term[d])] = static_cast<int64_t>(d);
  return at;
}

// An operand's values with its dims in `order` (labels), as a contiguous tensor: the operand
// itself where they already are, else a permuted copy.
Tensor in_label_order(const KernelContext& ctx, const Tensor& t, const std::vector<int>& term,
                      const std::vector<int>& order, std::size_t labels) {
  if (term == order) return t;
  const std::vector<int64_t> at = dims_of_labels(term, labels);
  const std::vector<int64_t> strides = contiguous_strides(t.shape());
  Layout from{0, {}};
  Shape shape;
  for (int l : order) {
    const int64_t d = at[static_cast<std::size_t>(l)];
    shape.push_back(t.shape()[static_cast<std::size_t>(d)]);
    from.strides.push_back(strides[static_cast<std::size_t>(d)]);
  }
  Tensor out(DataType::float32, shape);
  strided_copy(t, from, out, Layout{0, contiguous_strides(shape)}, shape, &ctx);
  return out;
}

int64_t labels_size(const std::vector<int>& group, const std::vector<int64_t>& size) {
  int64_t n = 1;
  for (int l : group) n *= size[static_cast<std::size_t>(l)];
  return n;
}

// Two float32 operands whose labels each appear once in a term, with one size wherever they
// appear, and are either in both (kept by the output: a batch; not kept: summed over) or in one
// and the output: for each batch item one matrix product (nn::gemm, float sums; the loop below
// sums in double), the operands and the result permuted where their labels are not in the
// product's order. ('bhid,bhjd->bhij', attention's scores, took 52 ms on 12 x 128 x 128 x 64;
// ORT 0.9.) False, nothing written, where the equation is not such.
bool einsum_as_products(KernelContext& ctx, const std::vector<std::vector<int>>& terms,
                        const std::vector<int>& out_labels, const std::vector<int64_t>& size) {
  if (terms.size() != 2 || ctx.input(0).dtype() != DataType::float32) return false;
  const std::size_t labels = size.size();
  std::vector<int> count_a(labels, 0), count_b(labels, 0), in_out(labels, 0);
  for (int l : terms[0]) ++count_a[static_cast<std::size_t>(l)];
  for (int l : terms[1]) ++count_b[static_cast<std::size_t>(l)];
  for (int l : out_labels) ++in_out[static_cast<std::size_t>(l)];
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t d = 0; d < terms[i].size(); ++d)
      if (ctx.input(i).shape()[d] != size[static_cast<std::size_t>(terms[i][d])]) return false;
  std::vector<int> batch, left, right, summed;
  for (int l : out_labels) {
    const auto u = static_cast<std::size_t>(l);
    if (count_a[u] > 1 || count_b[u] > 1 || in_out[u] > 1) return false;
    if (count_a[u] && count_b[u])
      batch.push_back(l);
    else if (count_a[u])
      left.push_back(l);
    else if (count_b[u])
      right.push_back(l);
    else
      return false;
  }
  for (int l : terms[0]) {
    const auto u = static_cast<std::size_t>(l);
    if (count_a[u] > 1) return false;
    if (!in_out[u] && !count_b[u]) return false;  // summed within A alone
    if (!in_out[u]) summed.push_back(l);
  }
  for (int l : terms[1]) {
    const auto u = static_cast<std::size_t>(l);
    if (count_b[u] > 1 || (!in_out[u] && !count_a[u])) return false;
  }
  auto joined = [](std::initializer_list<const std::vector<int>*> parts) {
    std::vector<int> v;
    for (const auto* p : parts) v.insert(v.end(), p->begin(), p->end());
    return v;
  };
  const int64_t items = labels_size(batch, size), m = labels_size(left, size);
  const int64_t n = labels_size(right, size), k = labels_size(summed, size);
  // A as [batch, left, summed], or [batch, summed, left] read transposed; B as [batch, summed,
  // right], or [batch, right, summed] read transposed; copies only where neither fits.
  const bool ta = terms[0] == joined({&batch, &summed, &left});
  const bool tb = terms[1] == joined({&batch, &right, &summed});
  const Tensor a = in_label_order(ctx, ctx.input(0), terms[0],
                                  ta ? terms[0] : joined({&batch, &left, &summed}), labels);
  const Tensor b = in_label_order(ctx, ctx.input(1), terms[1],
                                  tb ? terms[1] : joined({&batch, &summed, &right}), labels);
  Shape out_shape;
  for (int l : out_labels) out_shape.push_back(size[static_cast<std::size_t>(l)]);
  Tensor& y = ctx.output(0, DataType::float32, out_shape);
  if (y.numel() == 0) return true;
  if (k == 0) {  // sums of nothing
    std::fill(y.mutable_data<float>(), y.mutable_data<float>() + y.numel(), 0.0f);
    return true;
  }
  const std::vector<int> product_order = joined({&batch, &left, &right});
  const bool direct = out_labels == product_order;
  Tensor product = direct ? Tensor() : Tensor(DataType::float32, {items, m, n});
  float* c = direct ? y.mutable_data<float>() : product.mutable_data<float>();
  const float* ap = a.data<float>();
  const float* bp = b.data<float>();
  auto one = [&](int64_t i, bool parallel) {
    const float* ai = ap + i * m * k;
    const float* bi = bp + i * k * n;
    float* ci = c + i * m * n;
    const int64_t lda = ta ? m : k, ldb = tb ? k : n;
    if (parallel)
      nn::matmul<float>(ctx, ta, tb, m, n, k, 1.0f, ai, lda, bi, ldb, 0.0f, ci, n);
    else
      nn::gemm<float>(ta, tb, m, n, k, 1.0f, ai, lda, bi, ldb, 0.0f, ci, n);
  };
  nn::for_each_product(ctx, items, nn::grain_for(m * n * k), one);
  if (!direct) {
    // The product's dims are [batch, left, right]: each output dim reads its label's there.
    const std::vector<int64_t> at = dims_of_labels(product_order, labels);
    Shape full;
    for (int l : product_order) full.push_back(size[static_cast<std::size_t>(l)]);
    const std::vector<int64_t> strides = contiguous_strides(full);
    Layout from{0, {}};
    for (int l : out_labels)
      from.strides.push_back(strides[static_cast<std::size_t>(at[static_cast<std::size_t>(l)])]);
    const Tensor flat = product.reshaped(full);
    strided_copy(flat, from, y, Layout{0, contiguous_strides(out_shape)}, out_shape, &ctx);
  }
  return true;
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
  if (einsum_as_products(ctx, expanded, expand(eq.output, ell, ell), size)) return;
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
