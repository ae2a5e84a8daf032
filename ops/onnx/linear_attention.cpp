// SPDX-License-Identifier: Apache-2.0
// LinearAttention: the ai.onnx operator. The recurrent linear attention of packed (B, T, H*D)
// inputs, token by token, with a (B, H_kv, d_k, d_v) state S per key/value head:
//   linear:      S = S + k v^T
//   gated:       S = exp(g) S + k v^T
//   delta:       S = S + beta k (v - S^T k)^T
//   gated_delta: S = exp(g) S + beta k (v - (exp(g) S)^T k)^T
// and o = scale S^T q; decay g is per key dim (H_kv * d_k) or per head (H_kv); beta per head
// (H_kv) or shared (1). Query head h reads the state of kv head h / (H_q / H_kv).
#include <cmath>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_linear_attention(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const int64_t hq = ctx.attrs().get_int("q_num_heads"), hkv = ctx.attrs().get_int("kv_num_heads");
  if (hq <= 0 || hkv <= 0 || hq % hkv != 0)
    infer_fail("q_num_heads must be a positive multiple of kv_num_heads");
  const Dims* q = misc::input_dims(ctx, 0);
  const Dims* k = misc::input_dims(ctx, 1);
  const Dims* v = misc::input_dims(ctx, 2);
  for (const Dims* d : {q, k, v})
    if (d && d->size() != 3) infer_fail("query, key and value must be 3-D (B, T, H*D)");
  const Dim b = ctx.unify_dims(misc::dim_at(q, 0), misc::dim_at(v, 0), "batch size");
  const Dim t = ctx.unify_dims(misc::dim_at(q, 1), misc::dim_at(v, 1), "sequence length");
  const std::optional<Dim> dk = exact_div(misc::dim_at(k, 2), Dim::value(hkv));
  const std::optional<Dim> dv = exact_div(misc::dim_at(v, 2), Dim::value(hkv));
  const Dim dv_dim = dv ? *dv : Dim();
  set_output_tensor(ctx, 0, elem, Dims{b, t, dv_dim * Dim::value(hq)});
  int32_t state_elem = elem;
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) state_elem = ctx.input_elem_type(3);
  set_output_tensor(ctx, 1, state_elem, Dims{b, Dim::value(hkv), dk ? *dk : Dim(), dv_dim});
}

struct Shapes {
  int64_t b = 0, t = 0, hq = 0, hkv = 0, dk = 0, dv = 0;
};

Shapes linear_shapes(const KernelContext& ctx) {
  const Tensor& q = ctx.input(0);
  const Tensor& k = ctx.input(1);
  const Tensor& v = ctx.input(2);
  Shapes s;
  s.hq = ctx.attrs().get_int("q_num_heads");
  s.hkv = ctx.attrs().get_int("kv_num_heads");
  if (s.hq <= 0 || s.hkv <= 0 || s.hq % s.hkv)
    ctx.fail("q_num_heads must be a positive multiple of kv_num_heads");
  if (q.rank() != 3 || k.rank() != 3 || v.rank() != 3) ctx.fail("query, key and value must be 3-D");
  s.b = q.shape()[0], s.t = q.shape()[1];
  if (k.shape()[2] % s.hkv || v.shape()[2] % s.hkv || q.shape()[2] % s.hq)
    ctx.fail("hidden sizes do not split into heads");
  s.dk = k.shape()[2] / s.hkv, s.dv = v.shape()[2] / s.hkv;
  if (q.shape()[2] / s.hq != s.dk) ctx.fail("query and key head sizes differ");
  for (const Tensor* x : {&k, &v})
    if (x->shape()[0] != s.b || x->shape()[1] != s.t)
      ctx.fail("query, key and value disagree on (B, T)");
  return s;
}

// An optional (B, T, width) input with width one of `allowed` (per head, per key dim, shared).
std::vector<double> gate_input(const KernelContext& ctx, std::size_t i, const Shapes& s,
                               std::vector<int64_t> allowed, int64_t& width, const char* what) {
  if (ctx.num_inputs() <= i || !ctx.has_input(i)) return {};
  const Tensor& g = ctx.input(i);
  if (g.rank() != 3 || g.shape()[0] != s.b || g.shape()[1] != s.t ||
      std::find(allowed.begin(), allowed.end(), g.shape()[2]) == allowed.end())
    ctx.fail(std::string(what) + " has shape " + shape_to_string(g.shape()) +
             ", its last dim must be one of " + misc::ints_text(allowed));
  width = g.shape()[2];
  return misc::values_as<double>(ctx, g, what);
}

void linear_attention_kernel(KernelContext& ctx) {
  const Shapes s = linear_shapes(ctx);
  misc::require_float(ctx, ctx.input(0), "query");
  const std::string rule = ctx.attrs().get_string("update_rule", "gated_delta");
  const bool gated = rule == "gated" || rule == "gated_delta",
             delta = rule == "delta" || rule == "gated_delta";
  if (!gated && !delta && rule != "linear")
    ctx.fail("update_rule must be linear, gated, delta or gated_delta");
  double scale = ctx.attrs().get_float("scale", 0.0f);
  if (scale == 0) scale = 1.0 / std::sqrt(static_cast<double>(s.dk));
  const std::vector<double> q = misc::values_as<double>(ctx, ctx.input(0), "query");
  const std::vector<double> k = misc::values_as<double>(ctx, ctx.input(1), "key");
  const std::vector<double> v = misc::values_as<double>(ctx, ctx.input(2), "value");
  std::vector<double> state(static_cast<std::size_t>(s.b * s.hkv * s.dk * s.dv), 0.0);
  DataType state_type = ctx.input(0).dtype();
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    const Tensor& p = ctx.input(3);
    if (p.shape() != Shape{s.b, s.hkv, s.dk, s.dv})
      ctx.fail("past_state must have shape " + shape_to_string(Shape{s.b, s.hkv, s.dk, s.dv}));
    state = misc::values_as<double>(ctx, p, "past_state");
    state_type = p.dtype();
  }
  int64_t gw = 0, bw = 0;
  const std::vector<double> decay = gate_input(ctx, 4, s, {s.hkv * s.dk, s.hkv}, gw, "decay");
  const std::vector<double> beta = gate_input(ctx, 5, s, {s.hkv, 1}, bw, "beta");
  if (gated && decay.empty()) ctx.fail("update_rule " + rule + " needs the decay input");
  if (delta && beta.empty()) ctx.fail("update_rule " + rule + " needs the beta input");
  std::vector<double> out(static_cast<std::size_t>(s.b * s.t * s.hq * s.dv));
  std::vector<double> sk(static_cast<std::size_t>(s.dv));
  for (int64_t b = 0; b < s.b; ++b)
    for (int64_t t = 0; t < s.t; ++t) {
      for (int64_t h = 0; h < s.hkv; ++h) {
        double* st = state.data() + (b * s.hkv + h) * s.dk * s.dv;
        const double* kt = k.data() + (b * s.t + t) * s.hkv * s.dk + h * s.dk;
        const double* vt = v.data() + (b * s.t + t) * s.hkv * s.dv + h * s.dv;
        if (gated)
          for (int64_t i = 0; i < s.dk; ++i) {
            const double g = decay[static_cast<std::size_t>((b * s.t + t) * gw +
                                                            (gw == s.hkv ? h : h * s.dk + i))];
            for (int64_t j = 0; j < s.dv; ++j) st[i * s.dv + j] *= std::exp(g);
          }
        double bt = 1;
        if (delta) {
          bt = beta[static_cast<std::size_t>((b * s.t + t) * bw + (bw == 1 ? 0 : h))];
          for (int64_t j = 0; j < s.dv; ++j) {
            sk[static_cast<std::size_t>(j)] = 0;
            for (int64_t i = 0; i < s.dk; ++i)
              sk[static_cast<std::size_t>(j)] += st[i * s.dv + j] * kt[i];
          }
        }
        for (int64_t i = 0; i < s.dk; ++i)
          for (int64_t j = 0; j < s.dv; ++j)
            st[i * s.dv + j] +=
                bt * kt[i] * (delta ? vt[j] - sk[static_cast<std::size_t>(j)] : vt[j]);
      }
      for (int64_t h = 0; h < s.hq; ++h) {
        const double* st = state.data() + (b * s.hkv + h / (s.hq / s.hkv)) * s.dk * s.dv;
        const double* qt = q.data() + (b * s.t + t) * s.hq * s.dk + h * s.dk;
        double* o = out.data() + (b * s.t + t) * s.hq * s.dv + h * s.dv;
        for (int64_t j = 0; j < s.dv; ++j) {
          double acc = 0;
          for (int64_t i = 0; i < s.dk; ++i) acc += st[i * s.dv + j] * qt[i];
          o[j] = scale * acc;
        }
      }
    }
  misc::write_output<double>(ctx, 0, ctx.input(0).dtype(), {s.b, s.t, s.hq * s.dv}, out);
  if (ctx.num_outputs() > 1 && ctx.has_output(1))
    misc::write_output<double>(ctx, 1, state_type, {s.b, s.hkv, s.dk, s.dv}, state);
}

// The function body: the recurrence run token by token in a Loop (chunk_size is only a hint
// for chunked implementations). The rule's two switches become data: the decay factor exp(g)
// is 1 unless the rule is gated, and delta scales the state's prediction S^T k by 1 or 0, with
// beta 1 when the rule is not a delta rule; so one step serves all four rules:
// S <- a S + beta k (v - delta (a S)^T k), o = scale q^T S (query heads grouped over KV heads).
constexpr const char kLinearAttentionBody[] = R"onnx(
<domain: "", opset_import: ["" : 27]>
LinearAttention <chunk_size, kv_num_heads, q_num_heads, scale, update_rule> (query, key, value, past_state, decay, beta) => (output, present_state) {
  zero = Constant <value_int = 0> ()
  one_1d = Constant <value_ints = [1]> ()
  minus_one_1d = Constant <value_ints = [-1]> ()
  q_heads_s = Constant <value_int: int = @q_num_heads> ()
  kv_heads_s = Constant <value_int: int = @kv_num_heads> ()
  q_heads = Reshape (q_heads_s, one_1d)
  kv_heads = Reshape (kv_heads_s, one_1d)
  bt = Shape <end = 2> (query)
  batch = Shape <end = 1> (query)
  q_split = Concat <axis = 0> (bt, q_heads, minus_one_1d)
  kv_split = Concat <axis = 0> (bt, kv_heads, minus_one_1d)
  q4 = Reshape (query, q_split)
  k4 = Reshape (key, kv_split)
  v4 = Reshape (value, kv_split)
  dk = Shape <start = 3> (k4)
  dv = Shape <start = 3> (v4)
  rule = Constant <value_string: string = @update_rule> ()
  gated_s = Constant <value_string = "gated"> ()
  delta_s = Constant <value_string = "delta"> ()
  gated_delta_s = Constant <value_string = "gated_delta"> ()
  is_gated_only = Equal (rule, gated_s)
  is_delta_only = Equal (rule, delta_s)
  is_both = Equal (rule, gated_delta_s)
  gated = Or (is_gated_only, is_both)
  delta = Or (is_delta_only, is_both)
  one_f = Constant <value_float = 1.0> ()
  zero_f = Constant <value_float = 0.0> ()
  one_t = CastLike (one_f, query)
  steps_1d = Shape <start = 1, end = 2> (query)
  per_step_shape = Concat <axis = 0> (one_1d, steps_1d, one_1d, one_1d)
  ones_4d = Expand (one_t, per_step_shape)
  factor = If (gated) <
    then_branch = decayed () => (factor_exp) {
      g4 = Reshape (decay, kv_split)
      factor_exp = Exp (g4)
    },
    else_branch = kept () => (factor_one) {
      factor_one = Identity (ones_4d)
    }
  >
  rate = If (delta) <
    then_branch = rated () => (rate_beta) {
      b3_shape = Concat <axis = 0> (bt, minus_one_1d)
      b3 = Reshape (beta, b3_shape)
      rate_beta = Unsqueeze (b3, minus_one_1d)
    },
    else_branch = unrated () => (rate_one) {
      rate_one = Identity (ones_4d)
    }
  >
  delta_t = CastLike (delta, query)
  state_shape = Concat <axis = 0> (batch, kv_heads, dk, dv)
  has_past = OptionalHasElement (past_state)
  state0 = If (has_past) <
    then_branch = from_past () => (state_past) {
      state_past = CastLike (past_state, query)
    },
    else_branch = from_zero () => (state_zero) {
      zeros = ConstantOfShape (state_shape)
      state_zero = CastLike (zeros, query)
    }
  >
  scale_f = Constant <value_float: float = @scale> ()
  scale_unset = Equal (scale_f, zero_f)
  dk_f = Cast <to = 1> (dk)
  root = Sqrt (dk_f)
  derived = Reciprocal (root)
  scale_1d = Where (scale_unset, derived, scale_f)
  scale_t = CastLike (scale_1d, query)
  group = Div (q_heads, kv_heads)
  q_grouped = Concat <axis = 0> (batch, kv_heads, group, dk)
  o_flat = Concat <axis = 0> (batch, minus_one_1d)
  steps = Squeeze (steps_1d)
  state_last, per_step = Loop (steps, "", state0) <
    body = step (int64 t, bool cond_in, s_prev) => (cond_out, s_next, o_t) {
      cond_out = Identity (cond_in)
      q_t = Gather <axis = 1> (q4, t)
      k_t = Gather <axis = 1> (k4, t)
      v_t = Gather <axis = 1> (v4, t)
      a_t3 = Gather <axis = 1> (factor, t)
      a_t = Unsqueeze (a_t3, minus_one_1d)
      beta_t3 = Gather <axis = 1> (rate, t)
      beta_t = Unsqueeze (beta_t3, minus_one_1d)
      s_decayed = Mul (s_prev, a_t)
      k_col = Unsqueeze (k_t, minus_one_1d)
      k_line = Transpose <perm = [0, 1, 3, 2]> (k_col)
      v_col = Unsqueeze (v_t, minus_one_1d)
      v_line = Transpose <perm = [0, 1, 3, 2]> (v_col)
      predicted = MatMul (k_line, s_decayed)
      correction = Mul (predicted, delta_t)
      residual = Sub (v_line, correction)
      update_line = Mul (residual, beta_t)
      outer = MatMul (k_col, update_line)
      s_next = Add (s_decayed, outer)
      q_g = Reshape (q_t, q_grouped)
      read = MatMul (q_g, s_next)
      scaled = Mul (read, scale_t)
      o_t = Reshape (scaled, o_flat)
    }
  >
  output = Transpose <perm = [1, 0, 2]> (per_step)
  present_state = If (has_past) <
    then_branch = as_past () => (state_as_past) {
      state_as_past = CastLike (state_last, past_state)
    },
    else_branch = as_query () => (state_as_query) {
      state_as_query = Identity (state_last)
    }
  >
}
)onnx";

}  // namespace

void define_LinearAttention(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(27)
      .is_function({27})
      .attr("chunk_size", AttrType::i, int64_t{64})
      .attr_required("kv_num_heads", AttrType::i)
      .attr_required("q_num_heads", AttrType::i)
      .attr("scale", AttrType::f, 0.0f)
      .attr("update_rule", AttrType::s, "gated_delta")
      .input("query", "T", D::differentiable)
      .input("key", "T", D::differentiable)
      .input("value", "T", D::differentiable)
      .input_optional("past_state", "S", D::non_differentiable)
      .input_optional("decay", "T", D::differentiable)
      .input_optional("beta", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .output("present_state", "S", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(bfloat16)", "tensor(float)"})
      .constraint("S", {"tensor(float16)", "tensor(bfloat16)", "tensor(float)"});
  // END SIGNATURES
  // clang-format on
  op.at(27).function(kLinearAttentionBody, 27);
  op.all().infer(infer_linear_attention).kernel(linear_attention_kernel);
}

}  // namespace onnxtool::ops
