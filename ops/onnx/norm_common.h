// SPDX-License-Identifier: Apache-2.0
// The row normalisation behind LayerNormalization, RMSNormalization, InstanceNormalization and
// GroupNormalization: X seen as [rows, cols]; each row is normalised by its own statistics
// (mean and variance, or the root mean square), then scaled and shifted.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op.h"

namespace onnxtool::ops::nn {

// The attributes LayerNormalization and RMSNormalization share, decoded once per node.
struct AxisEpsilon {
  int64_t axis = -1;
  float epsilon = 1e-5f;
};
AxisEpsilon prepare_axis_epsilon(PrepareContext& ctx);

struct RowNorm {
  int64_t rows = 0, cols = 0;
  double epsilon = 1e-5;
  bool center = true;  // subtract the mean (false: RMS normalisation)
  // The scale and bias of element (row, col) are scale[(row % row_period) * per_period +
  // col / segment]: segment 1 gives one value per column (LayerNormalization), segment = cols
  // one per row class (InstanceNormalization: row_period = C), anything between one per group
  // of columns (GroupNormalization).
  int64_t row_period = 1, per_period = 0, segment = 1;
};

// Normalises every row of x into y (element types X and Y may differ: RMSNormalization). bias
// may be empty. mean and inv_std, when not null, receive each row's statistics.
void normalize_rows(const KernelContext& ctx, const Tensor& x, Tensor& y, const RowNorm& spec,
                    const std::vector<double>& scale, const std::vector<double>& bias,
                    std::vector<double>* mean = nullptr, std::vector<double>* inv_std = nullptr);

// t's values broadcast (unidirectionally) to `shape`, in row-major order of `shape`; fails the
// node naming `what` when t does not broadcast.
std::vector<double> broadcast_values(const KernelContext& ctx, const Tensor& t, const Shape& shape,
                                     const char* what);

}  // namespace onnxtool::ops::nn
