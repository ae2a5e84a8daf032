// SPDX-License-Identifier: Apache-2.0
// CausalConvWithState: the ai.onnx operator. A causal depthwise 1-D convolution of
// (batch, channels, length) input with (channels, 1, k) weights over the input preceded by the
// k - 1 carried positions (past_state, zeros when omitted); adds the bias, optionally applies
// SiLU; present_state is the last k - 1 positions of that extended sequence.
#include <cmath>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_causal_conv_with_state(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* x = misc::input_dims(ctx, 0);
  const Dims* w = misc::input_dims(ctx, 1);
  if (x && x->size() != 3) infer_fail("input must be 3-D (batch, channels, length)");
  if (w && w->size() != 3) infer_fail("weight must be 3-D (channels, 1, k)");
  if (x && w) ctx.unify_dims((*x)[1], (*w)[0], "channels");
  if (w) ctx.unify_dims((*w)[1], Dim::value(1), "weight dim 1");
  set_output_tensor(ctx, 0, elem, x ? std::optional<Dims>(*x) : std::nullopt);
  const Dim k = misc::dim_at(w, 2);
  set_output_tensor(ctx, 1, elem,
                    Dims{misc::dim_at(x, 0), w ? (*w)[0] : misc::dim_at(x, 1), k - Dim::value(1)});
}

void causal_conv_kernel(KernelContext& ctx) {
  const Tensor& xt = ctx.input(0);
  const Tensor& wt = ctx.input(1);
  misc::require_float(ctx, xt, "input");
  if (xt.rank() != 3 || wt.rank() != 3 || wt.shape()[0] != xt.shape()[1] || wt.shape()[1] != 1 ||
      wt.shape()[2] < 1)
    ctx.fail("input " + shape_to_string(xt.shape()) + " and weight " + shape_to_string(wt.shape()) +
             " must be (batch, channels, length) and (channels, 1, k)");
  const int64_t n = xt.shape()[0], c = xt.shape()[1], len = xt.shape()[2], k = wt.shape()[2];
  const std::string act = ctx.attrs().get_string("activation", "none");
  if (act != "none" && act != "silu" && act != "swish")
    ctx.fail("activation must be none, silu or swish");
  const std::vector<double> x = misc::values_as<double>(ctx, xt, "input");
  const std::vector<double> w = misc::values_as<double>(ctx, wt, "weight");
  std::vector<double> bias(static_cast<std::size_t>(c), 0.0),
      past(static_cast<std::size_t>(n * c * (k - 1)), 0.0);
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    if (ctx.input(2).shape() != Shape{c})
      ctx.fail("bias must have shape [" + std::to_string(c) + "]");
    bias = misc::values_as<double>(ctx, ctx.input(2), "bias");
  }
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    if (ctx.input(3).shape() != Shape{n, c, k - 1})
      ctx.fail("past_state must have shape " + shape_to_string(Shape{n, c, k - 1}));
    past = misc::values_as<double>(ctx, ctx.input(3), "past_state");
  }
  std::vector<double> y(x.size()), state(past.size());
  std::vector<double> seq(static_cast<std::size_t>(len + k - 1));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch) {
      const int64_t row = b * c + ch;
      std::copy_n(past.begin() + row * (k - 1), k - 1, seq.begin());
      std::copy_n(x.begin() + row * len, len, seq.begin() + (k - 1));
      for (int64_t t = 0; t < len; ++t) {
        double v = bias[static_cast<std::size_t>(ch)];
        for (int64_t j = 0; j < k; ++j)
          v += w[static_cast<std::size_t>(ch * k + j)] * seq[static_cast<std::size_t>(t + j)];
        if (act != "none") v = v / (1 + std::exp(-v));
        y[static_cast<std::size_t>(row * len + t)] = v;
      }
      std::copy_n(seq.end() - (k - 1), k - 1, state.begin() + row * (k - 1));
    }
  misc::write_output<double>(ctx, 0, xt.dtype(), xt.shape(), y);
  if (ctx.num_outputs() > 1 && ctx.has_output(1))
    misc::write_output<double>(ctx, 1, xt.dtype(), {n, c, k - 1}, state);
}

}  // namespace

void define_CausalConvWithState(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(27)
      .is_function({27})
      .attr("activation", AttrType::s, "none")
      .input("input", "T", D::differentiable)
      .input("weight", "T", D::differentiable)
      .input_optional("bias", "T", D::differentiable)
      .input_optional("past_state", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output("present_state", "T", D::non_differentiable)
      .constraint("T", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_causal_conv_with_state).kernel(causal_conv_kernel);
}

}  // namespace onnxtool::ops
