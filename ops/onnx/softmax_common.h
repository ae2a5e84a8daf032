// SPDX-License-Identifier: Apache-2.0
// Softmax, LogSoftmax and Hardmax share their axis rule and kernel. Before opset 13 the input is
// coerced to 2-D, [prod(dims[:axis]), prod(dims[axis:])], and the operation runs over each row
// (default axis 1); from 13 it runs along the one axis (default -1).
#pragma once

#include "ops/op.h"

namespace onnxtool::ops::nn {

enum class SoftmaxKind { softmax, log_softmax, hardmax };

void infer_softmax(InferContext& ctx);
void softmax_kernel(KernelContext& ctx, SoftmaxKind kind);
// The version adapters the three share: negative axes (from 11) and the change from rows of a
// 2-D coercion to one axis (13).
void add_softmax_adapters(OpDef& op);

}  // namespace onnxtool::ops::nn
