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

// The function body: the past (zeros when not given) is put in front of the input, and the
// depthwise causal convolution is a sum over the k taps, one Loop iteration each (Conv would
// need group = channels, an attribute the body cannot take from the weight's shape). The new
// state is the last k - 1 positions of that sequence, i.e. everything after its first `length`.
constexpr const char kCausalConvWithStateBody[] = R"onnx(
<domain: "", opset_import: ["" : 27]>
CausalConvWithState <activation> (input, weight, bias, past_state) => (output, present_state) {
  zero_1d = Constant <value_ints = [0]> ()
  one_1d = Constant <value_ints = [1]> ()
  two_1d = Constant <value_ints = [2]> ()
  last_1d = Constant <value_ints = [9223372036854775807]> ()
  x_shape = Shape (input)
  batch_channels = Shape <end = 2> (input)
  len_1d = Shape <start = 2> (input)
  k_1d = Shape <start = 2> (weight)
  k_less_1 = Sub (k_1d, one_1d)
  state_shape = Concat <axis = 0> (batch_channels, k_less_1)
  has_past = OptionalHasElement (past_state)
  past = If (has_past) <
    then_branch = given_past () => (past_given) {
      past_given = Identity (past_state)
    },
    else_branch = zero_past () => (past_zero) {
      zeros = ConstantOfShape (state_shape)
      past_zero = CastLike (zeros, input)
    }
  >
  seq = Concat <axis = 2> (past, input)
  acc_zeros = ConstantOfShape (x_shape)
  acc_init = CastLike (acc_zeros, input)
  k = Squeeze (k_1d)
  per_channel = Constant <value_ints = [1, -1, 1]> ()
  acc = Loop (k, "", acc_init) <
    body = tap (int64 j, bool cond_in, acc_in) => (cond_out, acc_out) {
      cond_out = Identity (cond_in)
      j_1d = Unsqueeze (j, zero_1d)
      j_end = Add (j_1d, len_1d)
      window = Slice (seq, j_1d, j_end, two_1d)
      j_next = Add (j_1d, one_1d)
      w_j = Slice (weight, j_1d, j_next, two_1d)
      w_col = Reshape (w_j, per_channel)
      term = Mul (window, w_col)
      acc_out = Add (acc_in, term)
    }
  >
  has_bias = OptionalHasElement (bias)
  biased = If (has_bias) <
    then_branch = add_bias () => (with_bias) {
      bias_col = Reshape (bias, per_channel)
      with_bias = Add (acc, bias_col)
    },
    else_branch = no_bias () => (without_bias) {
      without_bias = Identity (acc)
    }
  >
  act = Constant <value_string: string = @activation> ()
  none = Constant <value_string = "none"> ()
  is_none = Equal (act, none)
  output = If (is_none) <
    then_branch = linear () => (linear_out) {
      linear_out = Identity (biased)
    },
    else_branch = silu () => (silu_out) {
      gate = Sigmoid (biased)
      silu_out = Mul (biased, gate)
    }
  >
  present_state = Slice (seq, len_1d, last_1d, two_1d)
}
)onnx";

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
  op.at(27).function(kCausalConvWithStateBody, 27);
  op.all().infer(infer_causal_conv_with_state).kernel(causal_conv_kernel);
}

}  // namespace onnxtool::ops
