// SPDX-License-Identifier: Apache-2.0
// FlexAttention: the ai.onnx.preview operator (experimental). Scaled dot-product attention over
// rank-4 Q, K, V with grouped-query heads, where the score_mod subgraph may rewrite the scores
// (B, Hq, L, S) before the softmax and prob_mod the probabilities after it. Scores are computed
// in softmax_precision (float, or double for double inputs).
#include <cmath>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_flex_attention(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* q = misc::input_dims(ctx, 0);
  const Dims* k = misc::input_dims(ctx, 1);
  const Dims* v = misc::input_dims(ctx, 2);
  for (const Dims* d : {q, k, v})
    if (d && d->size() != 4) infer_fail("Q, K and V must be rank-4");
  if (q && k) ctx.unify_dims((*q)[3], (*k)[3], "head size");
  if (k && v) {
    ctx.unify_dims((*k)[1], (*v)[1], "kv heads");
    ctx.unify_dims((*k)[2], (*v)[2], "kv sequence length");
  }
  const Dim b = ctx.unify_dims(misc::dim_at(q, 0), misc::dim_at(v, 0), "batch size");
  set_output_tensor(ctx, 0, elem,
                    Dims{b, misc::dim_at(q, 1), misc::dim_at(q, 2), misc::dim_at(v, 3)});
}

// Runs a modifier subgraph on the whole (B, Hq, L, S) tensor; its output must keep the shape.
template <class C>
void apply_mod(KernelContext& ctx, const char* name, std::vector<C>& x, const Shape& shape) {
  const onnx::GraphProto* g = ctx.attrs().graph(name);
  if (!g) return;
  const std::vector<Value> out = ctx.run_graph(*g, {Value(Tensor::from_vector<C>(shape, x))});
  if (out.size() != 1 || !out[0].is_tensor() || out[0].tensor().shape() != shape)
    ctx.fail(std::string(name) + " must give one tensor of shape " + shape_to_string(shape));
  x = misc::values_as<C>(ctx, out[0].tensor(), name);
}

template <class C>
void flex_as(KernelContext& ctx) {
  const Tensor& qt = ctx.input(0);
  const Tensor& kt = ctx.input(1);
  const Tensor& vt = ctx.input(2);
  if (qt.rank() != 4 || kt.rank() != 4 || vt.rank() != 4) ctx.fail("Q, K and V must be rank-4");
  const int64_t b = qt.shape()[0], hq = qt.shape()[1], l = qt.shape()[2], e = qt.shape()[3];
  const int64_t hkv = kt.shape()[1], s = kt.shape()[2], ev = vt.shape()[3];
  if (kt.shape()[0] != b || vt.shape()[0] != b || kt.shape()[3] != e || vt.shape()[1] != hkv ||
      vt.shape()[2] != s || hkv <= 0 || hq % hkv)
    ctx.fail("Q " + shape_to_string(qt.shape()) + ", K " + shape_to_string(kt.shape()) + " and V " +
             shape_to_string(vt.shape()) + " do not fit together");
  const auto scale_attr = ctx.attrs().opt_float("scale");
  const C scale = scale_attr ? static_cast<C>(*scale_attr)
                             : static_cast<C>(1.0 / std::sqrt(static_cast<double>(e)));
  const std::vector<C> q = misc::values_as<C>(ctx, qt, "Q"), k = misc::values_as<C>(ctx, kt, "K"),
                       v = misc::values_as<C>(ctx, vt, "V");
  const Shape score_shape{b, hq, l, s};
  std::vector<C> p(static_cast<std::size_t>(b * hq * l * s));
  for (int64_t bh = 0; bh < b * hq; ++bh) {
    const int64_t kvh = (bh / hq) * hkv + (bh % hq) / (hq / hkv);
    misc::gemm_serial(false, true, l, s, e, scale, q.data() + bh * l * e, e, k.data() + kvh * s * e,
                      e, C{0}, p.data() + bh * l * s, s);
  }
  apply_mod(ctx, "score_mod", p, score_shape);
  for (int64_t row = 0; row < b * hq * l; ++row) {
    C* r = p.data() + row * s;
    C m = -std::numeric_limits<C>::infinity();
    for (int64_t j = 0; j < s; ++j) m = std::max(m, r[j]);
    C sum = 0;
    for (int64_t j = 0; j < s; ++j)
      sum += (r[j] = std::isinf(m) && m < 0 ? C{0} : std::exp(r[j] - m));
    for (int64_t j = 0; j < s; ++j) r[j] = sum > 0 ? r[j] / sum : C{0};
  }
  apply_mod(ctx, "prob_mod", p, score_shape);
  std::vector<C> y(static_cast<std::size_t>(b * hq * l * ev));
  for (int64_t bh = 0; bh < b * hq; ++bh) {
    const int64_t kvh = (bh / hq) * hkv + (bh % hq) / (hq / hkv);
    misc::gemm_serial(false, false, l, ev, s, C{1}, p.data() + bh * l * s, s,
                      v.data() + kvh * s * ev, ev, C{0}, y.data() + bh * l * ev, ev);
  }
  misc::write_output<C>(ctx, 0, qt.dtype(), {b, hq, l, ev}, y);
}

void flex_attention_kernel(KernelContext& ctx) {
  misc::require_float(ctx, ctx.input(0), "Q");
  const auto precision = ctx.attrs().opt_int("softmax_precision");
  const bool use_double = precision ? *precision == static_cast<int64_t>(DataType::float64)
                                    : ctx.input(0).dtype() == DataType::float64;
  if (use_double)
    flex_as<double>(ctx);
  else
    flex_as<float>(ctx);
}

}  // namespace

void define_preview_FlexAttention(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .experimental()
      .is_function({1})
      .attr_optional("prob_mod", AttrType::g)
      .attr_optional("scale", AttrType::f)
      .attr_optional("score_mod", AttrType::g)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T1")
      .output("Y", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(1).function_note(
      "score_mod and prob_mod are optional graph attributes applied to the scores and the "
      "probabilities; a fixed body can neither call a graph attribute on its own values nor test "
      "whether one is given, so the spec builds the body per call site");
  op.all().infer(infer_flex_attention).kernel(flex_attention_kernel);
}

}  // namespace onnxtool::ops
