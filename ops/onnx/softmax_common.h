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

}  // namespace onnxtool::ops::nn
