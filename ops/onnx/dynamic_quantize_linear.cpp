// SPDX-License-Identifier: Apache-2.0
// DynamicQuantizeLinear: the ai.onnx operator. Quantizes float x to uint8 with a scale and zero
// point computed from x's range (extended to include 0): scale = (max - min) / 255,
// zero_point = saturate(round(-min / scale)), y = saturate(round(x / scale) + zero_point), all
// roundings half to even.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kernels/quantize.h"
#include "ops/onnx/misc_common.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

void infer_dynamic_quantize_linear(InferContext& ctx) {
  const auto u8 = static_cast<int32_t>(DataType::uint8);
  propagate_shape(ctx, 0, 0, u8);
  set_output_tensor(ctx, 1, static_cast<int32_t>(DataType::float32), Dims{});
  set_output_tensor(ctx, 2, u8, Dims{});
}

// x's range, folded from 0 (the range always holds 0) over blocks on the pool's threads; min and
// max do not depend on the order, so the split changes nothing.
void range_with_zero(const KernelContext& ctx, std::span<const float> xs, float& lo, float& hi) {
  const auto n = static_cast<int64_t>(xs.size());
  const int64_t blocks = std::clamp<int64_t>(n / nn::kGrainElements, 1, 64);
  std::vector<float> los(static_cast<std::size_t>(blocks), 0.0f), his = los;
  ctx.parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t i0 = n * b / blocks, i1 = n * (b + 1) / blocks;
      kernels::float_range(xs.data() + i0, i1 - i0, los[static_cast<std::size_t>(b)],
                           his[static_cast<std::size_t>(b)]);
    }
  });
  lo = hi = 0.0f;
  kernels::float_range(los.data(), blocks, lo, hi);
  kernels::float_range(his.data(), blocks, lo, hi);
}

void dynamic_quantize_linear_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DataType::float32) ctx.fail("x must be float");
  const std::span<const float> xs = x.span<float>();
  float lo = 0, hi = 0;
  range_with_zero(ctx, xs, lo, hi);
  const float scale = (hi - lo) / 255.0f;
  // All zeros: any scale works; 0 keeps the outputs finite (0 / 0 would be NaN). An infinite
  // low end makes -lo / scale infinity over infinity: that NaN becomes 0, as quantize_u8 makes
  // a NaN (converting it to uint8 is undefined).
  const float steps = scale == 0 ? 0.0f : (0.0f - lo) / scale;
  const float zero = std::isnan(steps) ? 0.0f : std::clamp(std::nearbyint(steps), 0.0f, 255.0f);
  Tensor& y = ctx.output_uninitialized(0, DataType::uint8, x.shape());
  uint8_t* out = y.mutable_data<uint8_t>();
  const auto n = static_cast<int64_t>(xs.size());
  if (scale == 0) {
    std::fill(out, out + n, static_cast<uint8_t>(zero));
  } else {
    ctx.parallel_for(n, nn::kGrainElements, [&](int64_t i0, int64_t i1) {
      kernels::quantize_u8(xs.data() + i0, i1 - i0, scale, zero, out + i0);
    });
  }
  ctx.set_output(1, Tensor::scalar<float>(scale));
  ctx.set_output(2, Tensor::scalar<uint8_t>(static_cast<uint8_t>(zero)));
}

}  // namespace

namespace {
// DynamicQuantizeLinear-11 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kDynamicQuantizeLinearBody[] = R"onnx(
<domain: "", opset_import: ["" : 11]>
DynamicQuantizeLinear (x) => (y, y_scale, y_zero_point) {
  qmin = Constant <value = float {0.0}> ()
  qmax = Constant <value = float {255.0}> ()
  lowest = ReduceMin <keepdims = 0> (x)
  lo = Min (lowest, qmin)
  highest = ReduceMax <keepdims = 0> (x)
  hi = Max (highest, qmin)
  span = Sub (hi, lo)
  scale = Div (span, qmax)
  lo_steps = Div (lo, scale)
  zp_exact = Sub (qmin, lo_steps)
  zp_clipped = Clip (zp_exact, qmin, qmax)
  zp_rounded = Round (zp_clipped)
  zero_point = Cast <to = 2> (zp_rounded)
  y_scale = Identity (scale)
  y_zero_point = Identity (zero_point)
  y = QuantizeLinear (x, scale, zero_point)
}
)onnx";
}  // namespace

void define_DynamicQuantizeLinear(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .is_function({11})
      .input("x", "T1")
      .output("y", "T2")
      .output("y_scale", "tensor(float)")
      .output("y_zero_point", "T2")
      .constraint("T1", {"tensor(float)"})
      .constraint("T2", {"tensor(uint8)"});
  // END SIGNATURES
  // clang-format on
  op.at(11).function(kDynamicQuantizeLinearBody, 11);
  op.all().infer(infer_dynamic_quantize_linear).kernel(dynamic_quantize_linear_kernel);
}

}  // namespace onnxtool::ops
