// SPDX-License-Identifier: Apache-2.0
// The pooling kernels shared by MaxPool, AveragePool, LpPool and their Global forms.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "ops/onnx/nn_common.h"
#include "ops/onnx/nn_reference.h"
#include "ops/op.h"

namespace onnxtool::ops::nn {

// The window and its per-axis tables for one input shape (pool_common.cpp).
struct PoolPlan;

// The attributes of MaxPool, AveragePool and LpPool, decoded once per node (checked at run,
// against the input's rank).
struct PoolState {
  WindowAttrs window;
  std::optional<std::vector<int64_t>> kernel_shape;
  bool ceil_mode = false, count_include_pad = false;
  bool column_major = false;  // MaxPool's storage_order for Indices
  double p = 2;               // LpPool's order
  // Made at planning where X's shape is known then; a run on that shape uses it instead of
  // building the tables again (vectors per axis: 12 us of serial work a run on a 56x56 pool).
  std::shared_ptr<const PoolPlan> planned;
};
PoolState prepare_pool(PrepareContext& ctx);

// MaxPool (with its optional Indices output), AveragePool, LpPool: computes Y from the node's
// window. Spatial ranks 1 to 3 run a direct loop per plane in parallel; higher ranks run the
// reference loop.
void pool_kernel(KernelContext& ctx, const PoolState& s, PoolKind kind);

struct GlobalPoolState {
  double p = 2;  // GlobalLpPool's order
};
GlobalPoolState prepare_global_pool(PrepareContext& ctx);

// GlobalMaxPool, GlobalAveragePool, GlobalLpPool: one value per [N, C] plane, kept as
// [N, C, 1, ..., 1].
void global_pool_kernel(KernelContext& ctx, const GlobalPoolState& s, PoolKind kind);

}  // namespace onnxtool::ops::nn
