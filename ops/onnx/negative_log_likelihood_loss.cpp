// SPDX-License-Identifier: Apache-2.0
// NegativeLogLikelihoodLoss: the ai.onnx operator. loss[n, d] = -input[n, target[n, d], d] *
// weight[target[n, d]], zero where the target is ignore_index; reduced by none, sum, or mean
// (divided by the sum of the applied weights).
#include "ops/onnx/loss_common.h"

namespace onnxtool::ops {

namespace {

template <class C>
void nll_kernel_as(KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  const Tensor& target = ctx.input(1);
  const Tensor* weight = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  misc::check_loss_shapes(ctx, input, target, weight);
  const std::vector<C> x = misc::values_as<C>(ctx, input, "input");
  const std::vector<int64_t> t = misc::values_as<int64_t>(ctx, target, "target");
  const std::vector<C> w = weight ? misc::values_as<C>(ctx, *weight, "weight") : std::vector<C>{};
  const misc::LossOptions options = misc::loss_options(ctx);
  const std::vector<C> loss = misc::nll_loss<C>(ctx, x, input.shape(), t, w, options);
  const Shape shape = options.reduction == "none" ? target.shape() : Shape{};
  misc::write_output<C>(ctx, 0, input.dtype(), shape, loss);
}

void nll_kernel(KernelContext& ctx) {
  misc::require_float(ctx, ctx.input(0), "input");
  misc::visit_compute(ctx.input(0).dtype(), [&](auto c) { nll_kernel_as<decltype(c)>(ctx); });
}

}  // namespace

void define_NegativeLogLikelihoodLoss(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("input", "T")
      .input("target", "Tind")
      .input_optional("weight", "T")
      .output("loss", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(13)
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("input", "T", D::differentiable)
      .input("target", "Tind", D::non_differentiable)
      .input_optional("weight", "T", D::non_differentiable)
      .output("loss", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(22)
      .is_function({22})
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("input", "T", D::differentiable)
      .input("target", "Tind", D::non_differentiable)
      .input_optional("weight", "T", D::non_differentiable)
      .output("loss", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function_note(
      "ignore_index is an optional attribute with no default, and any integer (0 and negatives "
      "included); when given, targets equal to it get weight 0. A fixed body cannot both tell "
      "whether it is given and read its value (Constant needs the attribute to be present, a "
      "reference to an absent one being dropped), so the spec builds the body per call site "
      "(also per reduction and weight)");
  op.all().infer(misc::infer_loss).kernel(nll_kernel);
}

}  // namespace onnxtool::ops
