// SPDX-License-Identifier: Apache-2.0
// What the ai.onnx.preview.training optimizers (Adagrad, Adam, Momentum) share: the inputs are
// R (learning rate), T (update count) and then `groups` lists of n tensors each (X..., G...,
// and the optimizer's state); the outputs are the new X... and the new state lists.
#pragma once

#include <functional>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::training {

// Output k * n + i takes the type of input 2 + (k + 1 for k > 0, since G has no output) ...:
// outputs are X_new (like X), then one list per state tensor (like that state).
void infer_optimizer(InferContext& ctx, int groups);

// One element's update: in[g] is the element of group g (X, G, state...); writes the new X and
// state values to out (X first). r is the learning rate, t the update count.
using Update = std::function<void(double r, int64_t t, const double* in, double* out)>;

// Runs `update` over every element of every one of the n tensors; `groups` counts X, G and the
// state lists.
void run_optimizer(KernelContext& ctx, int groups, const Update& update);

}  // namespace onnxtool::ops::training
