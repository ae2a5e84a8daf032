// SPDX-License-Identifier: Apache-2.0
// SoftmaxCrossEntropyLoss: the ai.onnx operator. The log-softmax of the scores over the class
// axis (1), then the negative log likelihood loss of it against the labels (see
// NegativeLogLikelihoodLoss); output 1, when asked for, is the log-softmax itself.
#include <cmath>

#include "ops/onnx/loss_common.h"

namespace onnxtool::ops {

namespace {

void infer_sce(InferContext& ctx) {
  misc::infer_loss(ctx);
  if (ctx.num_outputs() > 1 && ctx.has_output(1)) propagate_shape(ctx, 0, 1);
}

// log_softmax over axis 1 of a (N, C, inner) layout, in place.
template <class C>
void log_softmax_classes(std::vector<C>& x, const Shape& shape) {
  const int64_t n = shape[0], classes = shape[1], inner = misc::shape_size(shape, 2);
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t d = 0; d < inner; ++d) {
      C* base = x.data() + b * classes * inner + d;
      C max = base[0];
      for (int64_t c = 1; c < classes; ++c) max = std::max(max, base[c * inner]);
      C sum = 0;
      for (int64_t c = 0; c < classes; ++c) sum += std::exp(base[c * inner] - max);
      const C log_sum = std::log(sum) + max;
      for (int64_t c = 0; c < classes; ++c) base[c * inner] -= log_sum;
    }
  }
}

template <class C>
void sce_kernel_as(KernelContext& ctx) {
  const Tensor& scores = ctx.input(0);
  const Tensor& labels = ctx.input(1);
  const Tensor* weight = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  misc::check_loss_shapes(ctx, scores, labels, weight);
  std::vector<C> log_prob = misc::values_as<C>(ctx, scores, "scores");
  if (scores.numel() > 0) log_softmax_classes(log_prob, scores.shape());
  const std::vector<int64_t> t = misc::values_as<int64_t>(ctx, labels, "labels");
  const std::vector<C> w = weight ? misc::values_as<C>(ctx, *weight, "weights") : std::vector<C>{};
  const misc::LossOptions options = misc::loss_options(ctx);
  const std::vector<C> loss = misc::nll_loss<C>(ctx, log_prob, scores.shape(), t, w, options);
  const Shape shape = options.reduction == "none" ? labels.shape() : Shape{};
  misc::write_output<C>(ctx, 0, scores.dtype(), shape, loss);
  if (ctx.num_outputs() > 1 && ctx.has_output(1))
    misc::write_output<C>(ctx, 1, scores.dtype(), scores.shape(), log_prob);
}

void sce_kernel(KernelContext& ctx) {
  misc::require_float(ctx, ctx.input(0), "scores");
  misc::visit_compute(ctx.input(0).dtype(), [&](auto c) { sce_kernel_as<decltype(c)>(ctx); });
}

}  // namespace

void define_SoftmaxCrossEntropyLoss(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("scores", "T")
      .input("labels", "Tind")
      .input_optional("weights", "T")
      .output("output", "T")
      .output_optional("log_prob", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(13)
      .is_function({13})
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("scores", "T", D::differentiable)
      .input("labels", "Tind", D::non_differentiable)
      .input_optional("weights", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output_optional("log_prob", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.at(13).function_note(
      "ignore_index is an optional attribute with no default and any integer value, and a fixed "
      "body cannot both tell whether it is given and read it; at opset 13 a body also cannot "
      "test the optional weights input (OptionalHasElement is opset 15) or compare the "
      "reduction string (Equal takes strings from opset 19), so the spec builds the body per "
      "call site");
  op.all().infer(infer_sce).kernel(sce_kernel);
}

}  // namespace onnxtool::ops
