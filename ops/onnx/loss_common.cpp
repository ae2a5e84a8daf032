// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/loss_common.h"

namespace onnxtool::ops::misc {

LossOptions loss_options(const KernelContext& ctx) {
  LossOptions o;
  o.ignore_index = ctx.attrs().opt_int("ignore_index");
  o.reduction = ctx.attrs().get_string("reduction", "mean");
  if (o.reduction != "none" && o.reduction != "sum" && o.reduction != "mean")
    ctx.fail("reduction must be none, sum or mean, got \"" + o.reduction + "\"");
  return o;
}

template <class C>
std::vector<C> nll_loss(const KernelContext& ctx, std::span<const C> log_prob, const Shape& shape,
                        std::span<const int64_t> target, std::span<const C> weight,
                        const LossOptions& options) {
  const int64_t n = shape[0], classes = shape[1], inner = shape_size(shape, 2);
  std::vector<C> loss(static_cast<std::size_t>(n * inner));
  // Accumulated in double: a mean over many elements in float drifts from the reference.
  double total = 0, weight_sum = 0;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t d = 0; d < inner; ++d) {
      const int64_t i = b * inner + d;
      const int64_t t = target[static_cast<std::size_t>(i)];
      if (options.ignore_index && t == *options.ignore_index) continue;
      if (t < 0 || t >= classes)
        ctx.fail("target value " + std::to_string(t) + " is out of range [0, " +
                 std::to_string(classes) + ")");
      const double w =
          weight.empty() ? 1.0 : static_cast<double>(weight[static_cast<std::size_t>(t)]);
      const double l = -w * static_cast<double>(
                                log_prob[static_cast<std::size_t>((b * classes + t) * inner + d)]);
      loss[static_cast<std::size_t>(i)] = static_cast<C>(l);
      total += l;
      weight_sum += w;
    }
  }
  if (options.reduction == "none") return loss;
  if (options.reduction == "sum") return {static_cast<C>(total)};
  return {static_cast<C>(total / weight_sum)};
}

template std::vector<float> nll_loss<float>(const KernelContext&, std::span<const float>,
                                            const Shape&, std::span<const int64_t>,
                                            std::span<const float>, const LossOptions&);
template std::vector<double> nll_loss<double>(const KernelContext&, std::span<const double>,
                                              const Shape&, std::span<const int64_t>,
                                              std::span<const double>, const LossOptions&);

void check_loss_shapes(const KernelContext& ctx, const Tensor& input, const Tensor& target,
                       const Tensor* weight) {
  if (input.rank() < 2)
    ctx.fail("input must have shape (N, C) or (N, C, d1, ..., dk), got " +
             shape_to_string(input.shape()));
  Shape expected = input.shape();
  expected.erase(expected.begin() + 1);
  if (target.shape() != expected)
    ctx.fail("target has shape " + shape_to_string(target.shape()) + ", expected " +
             shape_to_string(expected) + " for input " + shape_to_string(input.shape()));
  if (target.dtype() != DataType::int64 && target.dtype() != DataType::int32)
    ctx.fail("target must be int32 or int64");
  if (weight && (weight->rank() != 1 || weight->shape()[0] != input.shape()[1]))
    ctx.fail("weight has shape " + shape_to_string(weight->shape()) + ", expected [" +
             std::to_string(input.shape()[1]) + "]");
}

void infer_loss(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* input = input_dims(ctx, 0);
  const Dims* target = input_dims(ctx, 1);
  if (input && input->size() < 2) infer_fail("input must have rank >= 2");
  std::optional<Dims> loss_shape = target ? std::optional<Dims>(*target) : std::nullopt;
  if (input) {
    Dims expected = *input;
    expected.erase(expected.begin() + 1);
    if (target) {
      if (target->size() != expected.size())
        infer_fail("target has rank " + std::to_string(target->size()) + ", expected " +
                   std::to_string(expected.size()));
      for (std::size_t i = 0; i < expected.size(); ++i)
        expected[i] = ctx.unify_dims(expected[i], (*target)[i], "target dim " + std::to_string(i));
    }
    loss_shape = expected;
    if (const Dims* w = input_dims(ctx, 2)) {
      if (w->size() != 1) infer_fail("weight must be 1-D");
      ctx.unify_dims((*input)[1], (*w)[0], "the number of classes");
    }
  }
  const std::string reduction = ctx.attrs().get_string("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    infer_fail("reduction must be none, sum or mean, got \"" + reduction + "\"");
  set_output_tensor(ctx, 0, elem, reduction == "none" ? loss_shape : std::optional<Dims>(Dims{}));
}

}  // namespace onnxtool::ops::misc
