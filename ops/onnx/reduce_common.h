// SPDX-License-Identifier: Apache-2.0
// The ten Reduce* operators share one inference and one kernel, parameterised by what they
// compute. Axes come from the `axes` attribute (ReduceSum before 13, the others before 18) or
// the optional `axes` input (later); no axes means every axis, unless noop_with_empty_axes,
// which leaves the shape alone and applies only the element-wise part (ReduceSumSquare squares,
// ReduceL1 takes |x|, ReduceLogSum the log). Reducing an empty set gives the reduction's
// identity: 0 for sums, 1 for products, -inf and +inf for max and min, -inf for the log-sums.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op.h"

namespace onnxtool::ops::nn {

enum class ReduceKind { sum, mean, max, min, prod, l1, l2, log_sum, log_sum_exp, sum_square };

void infer_reduce(InferContext& ctx);
// The version adapters every Reduce* shares: negative axes (from 11), and axes as an input
// (from `axes_input_version`: 13 for ReduceSum, 18 for the others).
void add_reduce_adapters(OpDef& op, int axes_input_version);
void reduce_kernel(KernelContext& ctx, ReduceKind kind);

// ArgMax and ArgMin (int64 indices along `axis`, select_last_index from 12).
void infer_arg_reduce(InferContext& ctx);
void arg_reduce_kernel(KernelContext& ctx, bool is_max);

// Reduces x over the given (normalized, distinct) axes, keeping them as 1s. Any element type a
// Reduce* operator allows; the result has x's element type. Used by MeanVarianceNormalization.
Tensor reduce_axes(const KernelContext& ctx, const Tensor& x, std::vector<int64_t> axes,
                   ReduceKind kind);

// The plain reference: for every output element, every input element that maps to it, in
// double. x and y are float64 tensors; y has the keepdims shape.
void reduce_reference(const Tensor& x, const std::vector<int64_t>& axes, ReduceKind kind,
                      Tensor& y);

}  // namespace onnxtool::ops::nn
