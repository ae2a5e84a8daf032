// SPDX-License-Identifier: Apache-2.0
// Trilu: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

void infer_trilu(InferContext& ctx) {
  const Dims* in = input_shape(ctx, 0);
  if (in && in->size() < 2) infer_fail("the input must have rank at least 2");
  ctx.set_output_type(0, ctx.input_type(0));
}

// Each row of each matrix keeps one contiguous run (j - i >= k above, <= k below); the rest
// stays zero (empty for strings).
void trilu_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2)
    ctx.fail("the input must have rank at least 2, got " + shape_to_string(x.shape()));
  const int64_t k =
      ctx.num_inputs() > 1 && ctx.has_input(1) ? read_scalar_int(ctx, ctx.input(1), "k") : 0;
  const bool upper = ctx.attrs().get_int("upper", 1) != 0;
  const auto r = static_cast<std::size_t>(x.rank());
  const int64_t rows = x.shape()[r - 2], cols = x.shape()[r - 1];
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  const int64_t lines = x.numel() == 0 ? 0 : x.numel() / cols;
  const auto clamp = [cols](int64_t v) { return std::clamp<int64_t>(v, 0, cols); };
  for (int64_t line = 0; line < lines; ++line) {
    const int64_t i = line % rows;
    // Computed in a way that cannot overflow for k near the int64 limits.
    const int64_t edge = k > 0 ? (k > cols ? cols + 1 : i + k) : (k < -rows ? -1 : i + k);
    const int64_t begin = upper ? clamp(edge) : 0;
    const int64_t end = upper ? cols : clamp(edge + 1);
    copy_elements(x, line * cols + begin, y, line * cols + begin, end - begin);
  }
}

}  // namespace

void define_Trilu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(14)
      .attr("upper", AttrType::i, int64_t{1})
      .input("input", "T", D::differentiable)
      .input_optional("k", "tensor(int64)", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_trilu).kernel(trilu_kernel);
}

}  // namespace onnxtool::ops
