// SPDX-License-Identifier: Apache-2.0
// What QuantizeLinear and DequantizeLinear share: where each element of x finds its scale and
// zero point for per-tensor, per-axis and blocked quantization, and the inference of the scale's
// shape against x's.
#pragma once

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::quant {

// Maps a flat index of x to the flat index of its scale (and zero point).
class ScaleIndex {
 public:
  // Checks the scale's shape against x's: a scalar (or one element) is per tensor; a 1-D scale
  // of x's axis length is per axis; a scale of x's rank with the axis dim ceil(D/block_size) is
  // blocked. Fails the node otherwise.
  ScaleIndex(const KernelContext& ctx, const Shape& x, const Shape& scale, int64_t axis,
             int64_t block_size);
  int64_t operator()(int64_t i) const {
    if (mode_ == Mode::tensor) return 0;
    const int64_t outer = i / (axis_dim_ * inner_), a = (i / inner_) % axis_dim_, in = i % inner_;
    if (mode_ == Mode::axis) return a;
    return (outer * scale_axis_ + a / block_) * inner_ + in;
  }

 private:
  enum class Mode { tensor, axis, blocked };
  Mode mode_ = Mode::tensor;
  int64_t axis_dim_ = 1, inner_ = 1, block_ = 1, scale_axis_ = 1;
};

// The zero point must match the scale's shape; a one-element zero point beside a scalar scale
// (and the reverse) is the same per-tensor quantization, written that way by the backend suite's
// own float8 and 4-bit tests, so it is accepted.
bool zero_point_fits_scale(const Shape& zero, const Shape& scale);

// Checks what inference can of the scale's and zero point's shapes (fails on a contradiction).
void infer_scale_shape(InferContext& ctx, std::size_t scale_input, std::size_t zero_input);

}  // namespace onnxtool::ops::quant
