// SPDX-License-Identifier: Apache-2.0
// What NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss share: the loss of log-probabilities
// against integer targets with optional class weights, an ignored target value and a reduction,
// and the shape inference of the loss.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::misc {

struct LossOptions {
  std::optional<int64_t> ignore_index;
  std::string reduction = "mean";  // none, sum or mean
};

LossOptions loss_options(const KernelContext& ctx);

// log_prob has shape (N, C, d1..dk) (flattened here), target (N, d1..dk). Returns the loss:
// per element for reduction "none", else one value. weight: C class weights, or empty.
template <class C>
std::vector<C> nll_loss(const KernelContext& ctx, std::span<const C> log_prob, const Shape& shape,
                        std::span<const int64_t> target, std::span<const C> weight,
                        const LossOptions& options);

// Checks the target's shape against the input's (N, C, d1..dk): fails naming the problem.
void check_loss_shapes(const KernelContext& ctx, const Tensor& input, const Tensor& target,
                       const Tensor* weight);

// Output 0: input 0's element type; the target's shape for reduction "none", else a scalar.
// Checks the ranks and dims the inputs share: input (N, C, d1..dk), target (N, d1..dk), weight
// (C).
void infer_loss(InferContext& ctx);

}  // namespace onnxtool::ops::misc
