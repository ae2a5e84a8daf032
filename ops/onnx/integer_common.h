// SPDX-License-Identifier: Apache-2.0
// What the integer and quantized linear-algebra operators share (MatMulInteger, QLinearMatMul,
// ConvInteger, QLinearConv): operands shifted by their zero points into int32, numpy.matmul's
// batch broadcasting over int32 operands, an int32 convolution, the requantization of int32
// sums to int8/uint8 (round half to even, saturate), and their inference.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/infer/helpers.h"
#include "core/kernels/igemm.h"
#include "ops/onnx/nn_reference.h"
#include "ops/op.h"

namespace onnxtool::ops::integer {

// Input i when the node lists and names it, else nullptr (an omitted optional input, or a fused
// one left empty).
const Tensor* optional_input(const KernelContext& ctx, std::size_t i);

// ---- zero points and scales --------------------------------------------------------------------

// Where a quantization parameter (zero point or scale) sits against its operand.
enum class ParamAxis {
  rows,     // a matrix's rows: a scalar, [M], or [..., M, 1]
  columns,  // a matrix's columns: a scalar, [N], or [..., 1, N]
  channel,  // a convolution's output channel (dim 0 of W): a scalar or [M]
};

// Maps flat indices of a target shape to flat indices of a parameter broadcast onto it.
class ParamIndex {
 public:
  // `target` is the operand's shape (matrices promoted to rank >= 2; the conv weight as is).
  // Fails the node when the parameter does not fit.
  ParamIndex(const NodeInfo& ctx, const Shape& target, const Shape& param, ParamAxis axis,
             const char* what);
  int64_t operator()(int64_t i) const;
  bool scalar() const { return scalar_; }

 private:
  bool scalar_ = true;
  std::vector<int64_t> target_, strides_;  // strides_: the parameter's, 0 where broadcast
};

// A scale's values as double, each rounded to the scale's own type.
std::vector<double> scale_values(const KernelContext& ctx, const Tensor& s, const char* what);
// a * b / c computed in `type` (float, float16 or bfloat16) as the reference does: each
// operation rounded to that type.
double scale_product(double a, double b, double c, DataType type);

// Writes round_half_even(acc[i] * multiplier(i)) + zero(i), saturated to y's type (int8 or
// uint8; float8 types take the value rounded to nearest, saturating).
template <class Multiplier, class Zero>
void requantize(const KernelContext& ctx, const std::vector<int32_t>& acc, Multiplier&& multiplier,
                Zero&& zero, Tensor& y);

// ---- matrix products -------------------------------------------------------------------------

// numpy.matmul's plan: operands promoted to matrices, batch dims broadcast.
struct MatmulPlan {
  int64_t m = 0, n = 0, k = 0;
  Shape a, b;  // the promoted operand shapes
  Shape full;  // [batch..., M, N]: the product before the promotion is undone
  Shape out;   // the output's shape
  std::vector<int64_t> a_offset, b_offset;  // per batch item
};
MatmulPlan plan_matmul(const KernelContext& ctx, const Shape& a, const Shape& b);
// The int32 product (wrapping on overflow) of A and B less their zero points (null: 0), laid out
// as plan.full, into y. Zero points per tensor, per row of A or per column of B.
void matmul_int32(const KernelContext& ctx, const MatmulPlan& plan, const Tensor& a,
                  const Tensor* a_zero, const Tensor& b, const Tensor* b_zero, int32_t* y);

// ---- convolution -----------------------------------------------------------------------------

// X [N, C, spatial...] and W [M, C/group, kernel...] checked against the node's attributes.
nn::ConvGeometry conv_geometry(const KernelContext& ctx, const Shape& x, const Shape& w);
Shape conv_output_shape(const nn::ConvGeometry& g);
// A conv weight packed for the integer products, one matrix per group (empty: not packed).
struct PackedConvWeights {
  std::vector<kernels::PackedInt8A> groups;
};
// The prepare step of ConvInteger and QLinearConv: W (input W) packed at planning when it and its
// zero point (input Z; absent: 0) are constants of a fitting shape; else empty, and the kernel
// packs, and reports what does not fit, at run time.
PackedConvWeights pack_conv_weights(const PrepareContext& ctx, std::size_t w_index,
                                    std::size_t zero_index);
template <std::size_t W, std::size_t Z>
PackedConvWeights prepare_conv_weights(PrepareContext& ctx) {
  return pack_conv_weights(ctx, W, Z);
}

// The int32 convolution (wrapping) of x and w less their zero points (null: 0; the padding
// reads x's zero point), into y [N, M, out...]. x_zero is per tensor; w_zero per tensor or per
// output channel. `packed` is w as the prepare step packed it (used when it fits).
// `finish`, when given, is called on the thread that made them, right after each block of sums:
// image n, group grp, the group's channels [r0, r1) at output positions [p0, p1) (still in
// cache).
using ConvBlockFinish =
    std::function<void(int64_t n, int64_t grp, int64_t r0, int64_t r1, int64_t p0, int64_t p1)>;
void conv_int32(const KernelContext& ctx, const nn::ConvGeometry& g, const Tensor& x,
                const Tensor* x_zero, const Tensor& w, const Tensor* w_zero, int32_t* y,
                const PackedConvWeights& packed, const ConvBlockFinish& finish = {});

// The convolution's int32 sums turned into floats as each block is made (kernels::
// dequantize_sums, in place in y's bytes): sum * scales[channel] + bias[channel] (bias null:
// none), + residual (laid out as y; null: none), then the epilogue.
struct FloatOutput {
  const float* scales = nullptr;  // one per output channel
  const float* bias = nullptr;
  const float* residual = nullptr;
  kernels::Epilogue epilogue;
};
void conv_int32_to_float(const KernelContext& ctx, const nn::ConvGeometry& g, const Tensor& x,
                         const Tensor* x_zero, const Tensor& w, const Tensor* w_zero,
                         const PackedConvWeights& packed, const FloatOutput& out, float* y);

// ---- inference -------------------------------------------------------------------------------

// matmul_shape of inputs a and b, or nullopt when a rank is unknown.
std::optional<Dims> infer_matmul_shape(InferContext& ctx, std::size_t a, std::size_t b);
// A convolution's output shape from X (input x) and W (input w) and the node's attributes.
std::optional<Dims> infer_conv_shape(InferContext& ctx, std::size_t x, std::size_t w);

// ---- template definitions --------------------------------------------------------------------

// Saturates to an integer output type's range; false for other types.
bool integer_range(DataType t, double& lo, double& hi);
// Stores requantized values into y (integers already rounded and saturated).
void store_q(const KernelContext& ctx, const std::vector<double>& q, Tensor& y);

template <class Multiplier, class Zero>
void requantize(const KernelContext& ctx, const std::vector<int32_t>& acc, Multiplier&& multiplier,
                Zero&& zero, Tensor& y) {
  double lo = 0, hi = 0;
  const bool integer = integer_range(y.dtype(), lo, hi);
  std::vector<double> q(acc.size());
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const auto at = static_cast<int64_t>(i);
    const double v = static_cast<double>(acc[i]) * multiplier(at);
    q[i] = integer ? std::clamp(std::nearbyint(v) + zero(at), lo, hi) : v + zero(at);
  }
  store_q(ctx, q, y);
}

}  // namespace onnxtool::ops::integer
