// SPDX-License-Identifier: Apache-2.0
// CenterCropPad: the ai.onnx operator.
#include <numeric>

#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The listed axes (all when absent) take the target sizes; the others stay.
void infer_center_crop_pad(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto rank = static_cast<int64_t>(in->size());
  std::vector<int64_t> axes(in->size());
  std::iota(axes.begin(), axes.end(), 0);
  if (ctx.attrs().has("axes")) axes = infer_axes(ctx.attrs().get_ints("axes"), rank);
  const auto target = input_dims_values(ctx, 1);
  Dims out = *in;
  for (std::size_t i = 0; i < axes.size(); ++i) out[static_cast<std::size_t>(axes[i])] = Dim();
  if (target) {
    if (target->size() != axes.size())
      infer_fail("shape has " + std::to_string(target->size()) + " entries for " +
                 std::to_string(axes.size()) + " axes");
    const Dims t = dims_from_values(*target);
    for (std::size_t i = 0; i < axes.size(); ++i) out[static_cast<std::size_t>(axes[i])] = t[i];
  }
  set_output_tensor(ctx, 0, elem, out);
}

// The overlap of input and output, centred in both (start rounded down; an odd padding puts
// the extra element at the end), is one strided copy; the rest of the output is zero.
void center_crop_pad_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  std::vector<int64_t> axes(static_cast<std::size_t>(x.rank()));
  std::iota(axes.begin(), axes.end(), 0);
  if (ctx.attrs().has("axes")) axes = kernel_axes(ctx, ctx.attrs().get_ints("axes"), x.rank());
  const std::vector<int64_t> target = read_ints(ctx, ctx.input(1), "shape");
  if (target.size() != axes.size())
    ctx.fail("shape has " + std::to_string(target.size()) + " entries for " +
             std::to_string(axes.size()) + " axes");
  Shape out = x.shape();
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (target[i] < 0) ctx.fail(indexed("shape", i) + " is negative");
    out[static_cast<std::size_t>(axes[i])] = target[i];
  }
  Tensor& y = ctx.output(0, x.dtype(), out);
  const auto in_strides = contiguous_strides(x.shape()), out_strides = contiguous_strides(out);
  Layout from{0, in_strides}, to{0, out_strides};
  Shape overlap(out.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    const int64_t d = x.shape()[k], s = out[k];
    overlap[k] = std::min(d, s);
    from.offset += (d > s ? (d - s) / 2 : 0) * in_strides[k];
    to.offset += (s > d ? (s - d) / 2 : 0) * out_strides[k];
  }
  strided_copy(x, from, y, to, overlap, &ctx);
}

// The function body. Which axes `axes` lists, and in which order, is read off a probe: a
// one-element tensor of the input's rank resized to sizes 2, 3, ..., k+1 along those axes (all
// axes when the attribute is absent, as for CenterCropPad) keeps 1 elsewhere, so its shape holds
// j+2 at the axis of the j-th target size. That gives the full target shape with a fixed body;
// the probe has at most (k+1)! elements. The input is then padded (begin rounded down) and cropped
// (start rounded down) as the kernel does.
constexpr const char kCenterCropPadBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
CenterCropPad <axes> (input_data, shape) => (output_data) {
  x_shape = Shape (input_data)
  rank = Size (x_shape)
  zero_1d = Constant <value_ints = [0]> ()
  rank_1d = Unsqueeze (rank, zero_1d)
  unit_shape = ConstantOfShape <value = int64[1] {1}> (rank_1d)
  unit = ConstantOfShape <value = float[1] {0}> (unit_shape)
  n_listed = Size (shape)
  zero = Constant <value_int = 0> ()
  one = Constant <value_int = 1> ()
  two = Constant <value_int = 2> ()
  past_last = Add (n_listed, two)
  marks = Range (two, past_last, one)
  probe = Resize <axes: ints = @axes> (unit, "", "", marks)
  probe_shape = Shape (probe)
  listed = Greater (probe_shape, one)
  slot_raw = Sub (probe_shape, two)
  slot = Max (slot_raw, zero)
  wanted = Cast <to = 7> (shape)
  picked = Gather (wanted, slot)
  target = Where (listed, picked, x_shape)
  grown = Max (target, x_shape)
  pad_total = Sub (grown, x_shape)
  pad_begin = Div (pad_total, two)
  pad_end = Sub (pad_total, pad_begin)
  pads = Concat <axis = 0> (pad_begin, pad_end)
  padded = Pad (input_data, pads)
  padded_shape = Shape (padded)
  excess = Sub (padded_shape, target)
  starts = Div (excess, two)
  ends = Add (starts, target)
  output_data = Slice (padded, starts, ends)
}
)onnx";

}  // namespace

void define_CenterCropPad(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .is_function({18})
      .attr_optional("axes", AttrType::ints)
      .input("input_data", "T", D::differentiable)
      .input("shape", "Tind", D::non_differentiable)
      .output("output_data", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.at(18).function(kCenterCropPadBody, 18);
  op.all().infer(infer_center_crop_pad).kernel(center_crop_pad_kernel);
}

}  // namespace onnxtool::ops
