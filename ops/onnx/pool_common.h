// SPDX-License-Identifier: Apache-2.0
// The pooling kernels shared by MaxPool, AveragePool, LpPool and their Global forms.
#pragma once

#include "ops/onnx/nn_reference.h"
#include "ops/op.h"

namespace onnxtool::ops::nn {

// MaxPool (with its optional Indices output), AveragePool, LpPool: reads the node's window
// attributes, computes Y. Spatial ranks 1 to 3 run a direct loop per plane in parallel; higher
// ranks run the reference loop.
void pool_kernel(KernelContext& ctx, PoolKind kind);

// GlobalMaxPool, GlobalAveragePool, GlobalLpPool: one value per [N, C] plane, kept as
// [N, C, 1, ..., 1].
void global_pool_kernel(KernelContext& ctx, PoolKind kind);

}  // namespace onnxtool::ops::nn
