// SPDX-License-Identifier: Apache-2.0
// Split: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Where the split sizes come from by version: the `split` attribute (2-11; version 1 also
// takes an optional second input), the `split` input (13+), else equal parts: as many as
// the node has outputs, or num_outputs (18+) where the last part may be smaller.
enum class SplitKind { sizes, equal, num_outputs };

struct SplitArg {
  SplitKind kind = SplitKind::equal;
  std::optional<std::vector<int64_t>> sizes;  // kind sizes: nullopt when not known
  int64_t parts = 0;
};

template <class Ctx>
SplitArg split_arg(const Ctx& ctx,
                   const std::function<std::optional<std::vector<int64_t>>()>& input) {
  SplitArg a;
  a.parts = static_cast<int64_t>(ctx.num_outputs());
  const int version = since(ctx);
  const bool has_input = ctx.num_inputs() > 1 && ctx.has_input(1);
  if (version < 13 && ctx.attrs().has("split")) {
    a.kind = SplitKind::sizes;
    a.sizes = ctx.attrs().get_ints("split");
  } else if ((version == 1 || version >= 13) && has_input) {
    a.kind = SplitKind::sizes;
    a.sizes = input();
  } else if (version >= 18 && ctx.attrs().has("num_outputs")) {
    a.kind = SplitKind::num_outputs;
    a.parts = ctx.attrs().get_int("num_outputs");
  }
  return a;
}

// The concrete sizes of the parts of a dim of length `dim`, or the reason they do not fit.
std::vector<int64_t> part_sizes(const SplitArg& a, int64_t dim, std::size_t outputs,
                                std::string& error) {
  if (a.kind == SplitKind::sizes) {
    const std::vector<int64_t>& s = *a.sizes;
    int64_t sum = 0;
    for (int64_t v : s) sum += v;
    if (s.size() != outputs)
      error = "split has " + std::to_string(s.size()) + " entries but the node has " +
              std::to_string(outputs) + " outputs";
    else if (std::any_of(s.begin(), s.end(), [](int64_t v) { return v < 0; }))
      error = "split holds a negative size";
    else if (sum != dim)
      error = "split sizes add up to " + std::to_string(sum) + " but the axis has " +
              std::to_string(dim) + " elements";
    return s;
  }
  if (a.parts <= 0 || static_cast<std::size_t>(a.parts) != outputs) {
    error = "num_outputs is " + std::to_string(a.parts) + " but the node has " +
            std::to_string(outputs) + " outputs";
    return {};
  }
  if (a.kind == SplitKind::equal) {
    if (dim % a.parts != 0)
      error = "the axis has " + std::to_string(dim) + " elements, which cannot be split into " +
              std::to_string(a.parts) + " equal parts";
    return std::vector<int64_t>(outputs, dim / a.parts);
  }
  const int64_t chunk = (dim + a.parts - 1) / a.parts;
  std::vector<int64_t> s(outputs, chunk);
  s.back() = dim - chunk * (a.parts - 1);
  if (s.back() < 0)
    error = "the axis has " + std::to_string(dim) + " elements: too few for " +
            std::to_string(a.parts) + " parts of " + std::to_string(chunk);
  return s;
}

// The parts' dims when the axis dim is symbolic: equal parts divide it exactly when they can.
Dims symbolic_parts(const SplitArg& a, const Dim& dim, std::size_t outputs) {
  Dims out(outputs);
  if (a.kind == SplitKind::sizes) {
    if (a.sizes)
      for (std::size_t i = 0; i < outputs && i < a.sizes->size(); ++i)
        out[i] = Dim::value((*a.sizes)[i]);
    return out;
  }
  const Dim n = Dim::value(a.parts);
  if (a.kind == SplitKind::equal) {
    if (auto q = exact_div(dim, n)) std::fill(out.begin(), out.end(), *q);
    return out;
  }
  const Dim chunk = ceil_div(dim, n);
  std::fill(out.begin(), out.end(), chunk);
  out.back() = dim - chunk * Dim::value(a.parts - 1);
  return out;
}

void split_values(InferContext& ctx, const std::vector<int64_t>& sizes) {
  const auto v = input_dims_values(ctx, 0);
  if (!v || ctx.input_type(0).rank() != 1) return;
  std::size_t at = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto n = static_cast<std::size_t>(sizes[i]);
    set_values(ctx, i,
               Dims(v->begin() + static_cast<std::ptrdiff_t>(at),
                    v->begin() + static_cast<std::ptrdiff_t>(at + n)),
               false);
    at += n;
  }
}

void infer_split(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const SplitArg a = split_arg(ctx, [&] { return input_ints(ctx, 1); });
  if (!in) {
    for (std::size_t i = 0; i < ctx.num_outputs(); ++i) set_output_tensor(ctx, i, elem);
    return;
  }
  const int64_t attr_axis = ctx.attrs().get_int("axis", 0);
  // Split-2 does not allow a negative axis, but old PyTorch exports use one (the backend suite's
  // test_GLU among them) and every runtime accepts it, so it counts from the end here too.
  const auto axis =
      static_cast<std::size_t>(normalize_axis(attr_axis, static_cast<int64_t>(in->size())));
  const Dim& d = (*in)[axis];
  Dims parts;
  std::vector<int64_t> known;
  if (d.is_known() && (a.kind != SplitKind::sizes || a.sizes)) {
    std::string error;
    known = part_sizes(a, d.value(), ctx.num_outputs(), error);
    if (!error.empty()) infer_fail(error);
    parts = dims_of(known);
  } else {
    parts = symbolic_parts(a, d, ctx.num_outputs());
  }
  for (std::size_t i = 0; i < ctx.num_outputs(); ++i) {
    Dims s = *in;
    s[axis] = parts[i];
    set_output_tensor(ctx, i, elem, s);
  }
  if (!known.empty() && in->size() == 1) split_values(ctx, known);
}

std::optional<std::vector<int64_t>> kernel_split_input(const KernelContext& ctx) {
  const Tensor& s = ctx.input(1);
  if (since(ctx) >= 13) return read_ints(ctx, s, "split");
  // Split-1 takes the sizes as a tensor of the data's (float) type.
  std::vector<int64_t> out;
  for (int64_t i = 0; i < s.numel(); ++i)
    out.push_back(static_cast<int64_t>(element_as_double(s, i)));
  return out;
}

// Each output is one strided copy out of its place in the input.
void split_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("cannot split a scalar");
  const int64_t attr_axis = ctx.attrs().get_int("axis", 0);
  // A negative axis before Split-11: accepted, as in inference above.
  const auto axis = static_cast<std::size_t>(kernel_axis(ctx, attr_axis, x.rank()));
  const SplitArg a = split_arg(ctx, [&] { return kernel_split_input(ctx); });
  std::string error;
  const auto sizes = part_sizes(a, x.shape()[axis], ctx.num_outputs(), error);
  if (!error.empty()) ctx.fail(error);
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(x.shape(), axis + 1);
  const int64_t row = x.shape()[axis] * inner;
  int64_t at = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    Shape s = x.shape();
    s[axis] = sizes[i];
    const int64_t block = sizes[i] * inner;
    if (ctx.has_output(i)) {
      Tensor& y = ctx.output(i, x.dtype(), s);
      strided_copy(x, Layout{at, {row, 1}}, y, Layout{0, {block, 1}}, {outer, block}, &ctx);
    }
    at += block;
  }
}

}  // namespace

void define_Split(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr_optional("split", AttrType::ints)
      .input("input", "T")
      .input_optional("split", "T")
      .output_variadic("outputs...", "T", 1)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(2)
      .attr("axis", AttrType::i, int64_t{0})
      .attr_optional("split", AttrType::ints)
      .input("input", "T")
      .output_variadic("outputs", "T", 1)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{0})
      .attr_optional("split", AttrType::ints)
      .input("input", "T")
      .output_variadic("outputs", "T", 1)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{0})
      .input("input", "T", D::differentiable)
      .input_optional("split", "tensor(int64)", D::non_differentiable)
      .output_variadic("outputs", "T", 1, true, D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(18)
      .attr("axis", AttrType::i, int64_t{0})
      .attr_optional("num_outputs", AttrType::i)
      .input("input", "T", D::differentiable)
      .input_optional("split", "tensor(int64)", D::non_differentiable)
      .output_variadic("outputs", "T", 1, true, D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_split).kernel(split_kernel);
  // Split-1 could also take the sizes as a second input; 11 counts a negative axis from the
  // end; 13 takes the sizes as an input again.
  op.at(2).upgrade(convert::input_to_attribute("split", 1)).downgrade(convert::unchanged(""));
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
  op.at(13)
      .upgrade(convert::attribute_to_input("split", 1))
      .downgrade(convert::input_to_attribute("split", 1));
}

}  // namespace onnxtool::ops
