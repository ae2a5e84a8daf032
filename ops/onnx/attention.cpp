// SPDX-License-Identifier: Apache-2.0
// Attention: the ai.onnx operator. Scaled dot-product attention over 4-D (batch, heads, sequence,
// head size) or 3-D (batch, sequence, heads * head size) Q, K, V, with multi-head, grouped-query
// and multi-query head counts, a key/value cache (past_* -> present_*), a boolean or additive
// mask, causal masking aligned bottom-right (query i sees key j <= i + offset), sliding windows
// (version 25), the padding lengths of an external cache (nonpad_kv_seqlen, version 24), softcap,
// and the intermediate scores as output 3.
#include <cmath>
#include <limits>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

// ---- inference ---------------------------------------------------------------------------------

struct HeadDims {
  Dim batch, heads, seq, head_size;
};

// A 4-D input's dims as they are; a 3-D input's hidden size split by `heads`.
HeadDims head_dims(const Dims& d, const std::optional<int64_t>& heads) {
  if (d.size() == 4) return {d[0], d[1], d[2], d[3]};
  HeadDims h{d[0], misc::dim_of(heads), d[1], Dim()};
  if (heads && *heads > 0) {
    if (d[2].is_known() && d[2].value() % *heads != 0)
      infer_fail("hidden size " + d[2].to_string() + " is not a multiple of " +
                 std::to_string(*heads) + " heads");
    h.head_size = exact_div(d[2], Dim::value(*heads)).value_or(Dim());
  }
  return h;
}

void check_attention_ranks(const Dims* q, const Dims* k, const Dims* v,
                           const std::optional<int64_t>& q_heads,
                           const std::optional<int64_t>& kv_heads) {
  for (const Dims* d : {q, k, v})
    if (d && d->size() != 3 && d->size() != 4) infer_fail("Q, K and V must be 3-D or 4-D");
  if (q && k && q->size() != k->size()) infer_fail("Q and K must have the same rank");
  if (q && v && q->size() != v->size()) infer_fail("Q and V must have the same rank");
  if (q && q->size() == 3 && (!q_heads || !kv_heads))
    infer_fail("3-D inputs need the q_num_heads and kv_num_heads attributes");
}

void infer_attention(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const int32_t v_elem = ctx.input_elem_type(2);
  const Dims* q = misc::input_dims(ctx, 0);
  const Dims* k = misc::input_dims(ctx, 1);
  const Dims* v = misc::input_dims(ctx, 2);
  const auto q_heads = ctx.attrs().opt_int("q_num_heads");
  const auto kv_heads = ctx.attrs().opt_int("kv_num_heads");
  check_attention_ranks(q, k, v, q_heads, kv_heads);
  const bool three_d = (q && q->size() == 3) || (k && k->size() == 3) || (v && v->size() == 3);
  const bool known_rank = q || k || v;
  const std::optional<int64_t> qh = three_d ? q_heads : std::nullopt;
  const std::optional<int64_t> kvh = three_d ? kv_heads : std::nullopt;
  const HeadDims hq = q ? head_dims(*q, qh) : HeadDims{};
  const HeadDims hk = k ? head_dims(*k, kvh) : HeadDims{};
  const HeadDims hv = v ? head_dims(*v, kvh) : HeadDims{};
  const Dim batch =
      ctx.unify_dims(ctx.unify_dims(hq.batch, hk.batch, "batch size"), hv.batch, "batch size");
  const Dim kv_seq = ctx.unify_dims(hk.seq, hv.seq, "kv sequence length");
  const Dim head_size = ctx.unify_dims(hq.head_size, hk.head_size, "head size of Q and K");
  const Dim q_heads_dim = three_d ? misc::dim_of(q_heads) : hq.heads;
  Dim kv_heads_dim = ctx.unify_dims(hk.heads, hv.heads, "kv heads");
  if (q_heads_dim.is_known() && kv_heads_dim.is_known() && kv_heads_dim.value() > 0 &&
      q_heads_dim.value() % kv_heads_dim.value() != 0)
    infer_fail("q_num_heads " + q_heads_dim.to_string() + " is not a multiple of kv_num_heads " +
               kv_heads_dim.to_string());
  // Present = past concatenated with the new keys and values along the sequence axis.
  const Dims* past_k = misc::input_dims(ctx, 4);
  const Dims* past_v = misc::input_dims(ctx, 5);
  Dim total = kv_seq;
  if (ctx.has_input(4)) total = past_k ? misc::dim_at(past_k, 2) + kv_seq : Dim();
  if (past_v) ctx.unify_dims(misc::dim_at(past_v, 2), misc::dim_at(past_k, 2), "past length");
  if (!known_rank) {
    set_output_tensor(ctx, 0, elem);
  } else if (three_d) {
    set_output_tensor(ctx, 0, elem, Dims{batch, hq.seq, q_heads_dim * hv.head_size});
  } else {
    set_output_tensor(ctx, 0, elem, Dims{batch, q_heads_dim, hq.seq, hv.head_size});
  }
  if (ctx.num_outputs() > 1 && ctx.has_output(1))
    set_output_tensor(ctx, 1, elem, Dims{batch, kv_heads_dim, total, head_size});
  if (ctx.num_outputs() > 2 && ctx.has_output(2))
    set_output_tensor(ctx, 2, v_elem, Dims{batch, kv_heads_dim, total, hv.head_size});
  if (ctx.num_outputs() > 3 && ctx.has_output(3))
    set_output_tensor(ctx, 3, elem, Dims{batch, q_heads_dim, hq.seq, total});
}

// ---- kernel ------------------------------------------------------------------------------------

struct Geometry {
  int64_t batch = 0, q_heads = 0, kv_heads = 0, q_seq = 0, kv_seq = 0, past = 0, total = 0;
  int64_t head_size = 0, v_head_size = 0;
  bool three_d = false;
};

// Splits a 3-D (B, S, H*D) input into heads: (B, H, S, D).
template <class C>
std::vector<C> to_heads(const std::vector<C>& x, int64_t b, int64_t s, int64_t h, int64_t d) {
  std::vector<C> out(x.size());
  for (int64_t ib = 0; ib < b; ++ib)
    for (int64_t is = 0; is < s; ++is)
      for (int64_t ih = 0; ih < h; ++ih)
        for (int64_t id = 0; id < d; ++id)
          out[static_cast<std::size_t>(((ib * h + ih) * s + is) * d + id)] =
              x[static_cast<std::size_t>(((ib * s + is) * h + ih) * d + id)];
  return out;
}

// (B, H, S, D) back to (B, S, H*D).
template <class C>
std::vector<C> from_heads(const std::vector<C>& x, int64_t b, int64_t s, int64_t h, int64_t d) {
  std::vector<C> out(x.size());
  for (int64_t ib = 0; ib < b; ++ib)
    for (int64_t ih = 0; ih < h; ++ih)
      for (int64_t is = 0; is < s; ++is)
        for (int64_t id = 0; id < d; ++id)
          out[static_cast<std::size_t>(((ib * s + is) * h + ih) * d + id)] =
              x[static_cast<std::size_t>(((ib * h + ih) * s + is) * d + id)];
  return out;
}

// (B, H, S, D) of input i: a 4-D input as it is, a 3-D one split into `heads`.
void check_input_rank(const KernelContext& ctx, const Tensor& t, int64_t rank, const char* what) {
  if (t.rank() != rank)
    ctx.fail(std::string(what) + " has shape " + shape_to_string(t.shape()) + ", expected rank " +
             std::to_string(rank));
}

Geometry attention_geometry(const KernelContext& ctx) {
  const Tensor& q = ctx.input(0);
  const Tensor& k = ctx.input(1);
  const Tensor& v = ctx.input(2);
  if (q.rank() != 3 && q.rank() != 4)
    ctx.fail("Q must be 3-D or 4-D, got " + shape_to_string(q.shape()));
  check_input_rank(ctx, k, q.rank(), "K");
  check_input_rank(ctx, v, q.rank(), "V");
  Geometry g;
  g.three_d = q.rank() == 3;
  g.batch = q.shape()[0];
  if (g.three_d) {
    const auto qh = ctx.attrs().opt_int("q_num_heads");
    const auto kvh = ctx.attrs().opt_int("kv_num_heads");
    if (!qh || !kvh || *qh <= 0 || *kvh <= 0)
      ctx.fail("3-D inputs need positive q_num_heads and kv_num_heads attributes");
    g.q_heads = *qh;
    g.kv_heads = *kvh;
    if (q.shape()[2] % g.q_heads || k.shape()[2] % g.kv_heads || v.shape()[2] % g.kv_heads)
      ctx.fail("the hidden sizes of Q " + shape_to_string(q.shape()) + ", K " +
               shape_to_string(k.shape()) + " and V " + shape_to_string(v.shape()) +
               " are not multiples of the head counts");
    g.q_seq = q.shape()[1];
    g.kv_seq = k.shape()[1];
    g.head_size = q.shape()[2] / g.q_heads;
    if (k.shape()[2] / g.kv_heads != g.head_size)
      ctx.fail("K's head size differs from Q's: " + shape_to_string(k.shape()) + " vs " +
               shape_to_string(q.shape()));
    g.v_head_size = v.shape()[2] / g.kv_heads;
    if (v.shape()[1] != g.kv_seq) ctx.fail("K and V have different sequence lengths");
  } else {
    g.q_heads = q.shape()[1];
    g.kv_heads = k.shape()[1];
    g.q_seq = q.shape()[2];
    g.kv_seq = k.shape()[2];
    g.head_size = q.shape()[3];
    g.v_head_size = v.shape()[3];
    if (k.shape()[3] != g.head_size) ctx.fail("K's head size differs from Q's");
    if (v.shape()[1] != g.kv_heads || v.shape()[2] != g.kv_seq)
      ctx.fail("V has shape " + shape_to_string(v.shape()) + ", K " + shape_to_string(k.shape()));
  }
  if (k.shape()[0] != g.batch || v.shape()[0] != g.batch)
    ctx.fail("Q, K and V have different batch sizes");
  if (g.kv_heads <= 0 || g.q_heads % g.kv_heads != 0)
    ctx.fail("q_num_heads " + std::to_string(g.q_heads) + " is not a multiple of kv_num_heads " +
             std::to_string(g.kv_heads));
  return g;
}

// Past and new keys (or values) concatenated along the sequence axis: (B, H, past+S, D).
template <class C>
std::vector<C> with_past(const KernelContext& ctx, std::size_t past_input, const std::vector<C>& x,
                         const Geometry& g, int64_t d) {
  if (!ctx.has_input(past_input)) return x;
  const Tensor& past = ctx.input(past_input);
  const Shape want{g.batch, g.kv_heads, g.past, d};
  if (past.shape() != want)
    ctx.fail(std::string(past_input == 4 ? "past_key" : "past_value") + " has shape " +
             shape_to_string(past.shape()) + ", expected " + shape_to_string(want));
  const std::vector<C> p = misc::values_as<C>(ctx, past, "past");
  std::vector<C> out(static_cast<std::size_t>(g.batch * g.kv_heads * g.total * d));
  for (int64_t bh = 0; bh < g.batch * g.kv_heads; ++bh) {
    std::copy_n(p.begin() + bh * g.past * d, g.past * d, out.begin() + bh * g.total * d);
    std::copy_n(x.begin() + bh * g.kv_seq * d, g.kv_seq * d,
                out.begin() + (bh * g.total + g.past) * d);
  }
  return out;
}

// The additive bias from attn_mask: element (b, h, i, j) for j < mask width, -inf beyond it.
struct MaskView {
  std::vector<double> values;  // bool masks as 0 / -inf
  int64_t stride_b = 0, stride_h = 0, stride_i = 0, width = 0;
  bool present = false;

  double at(int64_t b, int64_t h, int64_t i, int64_t j) const {
    if (!present) return 0;
    if (j >= width) return -std::numeric_limits<double>::infinity();
    return values[static_cast<std::size_t>(b * stride_b + h * stride_h + i * stride_i + j)];
  }
};

MaskView read_mask(const KernelContext& ctx, const Geometry& g) {
  MaskView m;
  if (!ctx.has_input(3)) return m;
  const Tensor& mask = ctx.input(3);
  if (mask.rank() < 1 || mask.rank() > 4)
    ctx.fail("attn_mask must have rank 1 to 4, got " + shape_to_string(mask.shape()));
  m.present = true;
  if (mask.dtype() == DataType::boolean) {
    const bool* p = mask.data<bool>();
    m.values.resize(static_cast<std::size_t>(mask.numel()));
    for (std::size_t i = 0; i < m.values.size(); ++i)
      m.values[i] = p[i] ? 0.0 : -std::numeric_limits<double>::infinity();
  } else {
    m.values = misc::values_as<double>(ctx, mask, "attn_mask");
  }
  Shape s(4 - static_cast<std::size_t>(mask.rank()), 1);
  s.insert(s.end(), mask.shape().begin(), mask.shape().end());
  const int64_t target[3] = {g.batch, g.q_heads, g.q_seq};
  m.width = s[3];
  if (m.width > g.total)
    ctx.fail("attn_mask's last dim " + std::to_string(m.width) +
             " is longer than the total sequence length " + std::to_string(g.total));
  int64_t stride = m.width;
  int64_t* strides[3] = {&m.stride_b, &m.stride_h, &m.stride_i};
  for (int d = 2; d >= 0; --d) {
    if (s[static_cast<std::size_t>(d)] != 1 && s[static_cast<std::size_t>(d)] != target[d])
      ctx.fail("attn_mask of shape " + shape_to_string(mask.shape()) +
               " does not broadcast to (batch, q_heads, q_seq, total) = " +
               shape_to_string(Shape{g.batch, g.q_heads, g.q_seq, g.total}));
    *strides[d] = s[static_cast<std::size_t>(d)] == 1 ? 0 : stride;
    stride *= s[static_cast<std::size_t>(d)];
  }
  return m;
}

struct Options {
  double scale = 1, softcap = 0;
  bool causal = false;
  int64_t left = -1, right = -1, qk_mode = 0;
  std::vector<int64_t> nonpad;  // per batch, empty when not given
};

Options attention_options(const KernelContext& ctx, const Geometry& g) {
  Options o;
  const auto scale = ctx.attrs().opt_float("scale");
  o.scale = scale ? static_cast<double>(*scale) : 1.0 / std::sqrt(static_cast<double>(g.head_size));
  o.softcap = ctx.attrs().get_float("softcap", 0.0f);
  o.causal = ctx.attrs().get_int("is_causal", 0) != 0;
  o.left = ctx.attrs().get_int("left_window_size", -1);
  o.right = ctx.attrs().get_int("right_window_size", -1);
  o.qk_mode = ctx.attrs().get_int("qk_matmul_output_mode", 0);
  if (o.qk_mode < 0 || o.qk_mode > 3)
    ctx.fail("qk_matmul_output_mode must be 0 to 3, got " + std::to_string(o.qk_mode));
  if (ctx.num_inputs() > 6 && ctx.has_input(6)) {
    const Tensor& n = ctx.input(6);
    if (n.shape() != Shape{g.batch})
      ctx.fail("nonpad_kv_seqlen has shape " + shape_to_string(n.shape()) + ", expected [" +
               std::to_string(g.batch) + "]");
    o.nonpad = misc::values_as<int64_t>(ctx, n, "nonpad_kv_seqlen");
    for (int64_t len : o.nonpad)
      if (len < 0 || len > g.total)
        ctx.fail("nonpad_kv_seqlen value " + std::to_string(len) + " is outside [0, " +
                 std::to_string(g.total) + "]");
  }
  return o;
}

// Whether query i (of batch b) may attend key j: causal frontier, windows, padding.
bool key_allowed(const Options& o, const Geometry& g, int64_t b, int64_t i, int64_t j) {
  const int64_t valid = o.nonpad.empty() ? g.total : o.nonpad[static_cast<std::size_t>(b)];
  if (j >= valid) return false;
  // The position of query i among all keys: after the cached (or valid external) keys.
  const int64_t offset = o.nonpad.empty() || g.past > 0 ? g.past : valid - g.q_seq;
  const int64_t p = offset + i;
  if (o.causal && j > p) return false;
  if (o.left >= 0 && j < p - o.left) return false;
  if (o.right >= 0 && j > p + o.right) return false;
  return true;
}

template <class C>
struct AttentionData {
  std::vector<C> q, k, v;  // (B, Hq, Sq, D), (B, Hkv, T, D), (B, Hkv, T, Dv)
  std::vector<C> y, qk;    // (B, Hq, Sq, Dv), (B, Hq, Sq, T)
};

// One (batch, head) pair: scores, bias, softmax, weighted values.
template <class C>
void attend_head(const Geometry& g, const Options& o, const MaskView& mask, AttentionData<C>& d,
                 int64_t b, int64_t h, std::vector<C>& scores) {
  const int64_t kvh = h / (g.q_heads / g.kv_heads);
  const C* q = d.q.data() + (b * g.q_heads + h) * g.q_seq * g.head_size;
  const C* k = d.k.data() + (b * g.kv_heads + kvh) * g.total * g.head_size;
  const C* v = d.v.data() + (b * g.kv_heads + kvh) * g.total * g.v_head_size;
  C* y = d.y.data() + (b * g.q_heads + h) * g.q_seq * g.v_head_size;
  C* qk = d.qk.empty() ? nullptr : d.qk.data() + (b * g.q_heads + h) * g.q_seq * g.total;
  misc::gemm_serial(false, true, g.q_seq, g.total, g.head_size, static_cast<C>(o.scale), q,
                    g.head_size, k, g.head_size, C{0}, scores.data(), g.total);
  const C inf = std::numeric_limits<C>::infinity();
  for (int64_t i = 0; i < g.q_seq; ++i) {
    C* row = scores.data() + i * g.total;
    C* qk_row = qk ? qk + i * g.total : nullptr;
    if (qk_row && o.qk_mode == 0) std::copy_n(row, g.total, qk_row);
    C max = -inf;
    for (int64_t j = 0; j < g.total; ++j) {
      if (o.softcap > 0)
        row[j] = static_cast<C>(o.softcap * std::tanh(static_cast<double>(row[j]) / o.softcap));
      if (qk_row && o.qk_mode == 1) qk_row[j] = row[j];
      const double bias = key_allowed(o, g, b, i, j) ? mask.at(b, h, i, j) : -INFINITY;
      row[j] = static_cast<C>(static_cast<double>(row[j]) + bias);
      if (qk_row && o.qk_mode == 2) qk_row[j] = row[j];
      max = std::max(max, row[j]);
    }
    // A row with no allowed key gives zeros, not NaN.
    C sum = 0;
    for (int64_t j = 0; j < g.total; ++j) {
      row[j] = max == -inf ? C{0} : std::exp(row[j] - max);
      sum += row[j];
    }
    for (int64_t j = 0; j < g.total; ++j) row[j] = sum > 0 ? row[j] / sum : C{0};
    if (qk_row && o.qk_mode == 3) std::copy_n(row, g.total, qk_row);
  }
  misc::gemm_serial(false, false, g.q_seq, g.v_head_size, g.total, C{1}, scores.data(), g.total, v,
                    g.v_head_size, C{0}, y, g.v_head_size);
}

// Q, K, V (and the caches) read as (B, H, S, D) in the compute type.
template <class C>
AttentionData<C> load_inputs(const KernelContext& ctx, const Geometry& g) {
  AttentionData<C> d;
  d.q = misc::values_as<C>(ctx, ctx.input(0), "Q");
  d.k = misc::values_as<C>(ctx, ctx.input(1), "K");
  d.v = misc::values_as<C>(ctx, ctx.input(2), "V");
  if (g.three_d) {
    d.q = to_heads(d.q, g.batch, g.q_seq, g.q_heads, g.head_size);
    d.k = to_heads(d.k, g.batch, g.kv_seq, g.kv_heads, g.head_size);
    d.v = to_heads(d.v, g.batch, g.kv_seq, g.kv_heads, g.v_head_size);
  }
  d.k = with_past(ctx, 4, d.k, g, g.head_size);
  d.v = with_past(ctx, 5, d.v, g, g.v_head_size);
  return d;
}

template <class C>
void attention_as(KernelContext& ctx) {
  Geometry g = attention_geometry(ctx);
  if (ctx.has_input(4) != ctx.has_input(5))
    ctx.fail("past_key and past_value must be given together");
  g.past = ctx.has_input(4) ? ctx.input(4).shape().at(2) : 0;
  g.total = g.past + g.kv_seq;
  AttentionData<C> d = load_inputs<C>(ctx, g);
  const Options o = attention_options(ctx, g);
  const MaskView mask = read_mask(ctx, g);
  d.y.assign(static_cast<std::size_t>(g.batch * g.q_heads * g.q_seq * g.v_head_size), C{0});
  const bool want_qk = ctx.num_outputs() > 3 && ctx.has_output(3);
  if (want_qk) d.qk.assign(static_cast<std::size_t>(g.batch * g.q_heads * g.q_seq * g.total), C{0});
  const int64_t work = g.q_seq * g.total * (g.head_size + g.v_head_size);
  ctx.parallel_for(g.batch * g.q_heads, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, work)),
                   [&](int64_t begin, int64_t end) {
                     std::vector<C> scores(static_cast<std::size_t>(g.q_seq * g.total));
                     for (int64_t bh = begin; bh < end; ++bh)
                       attend_head(g, o, mask, d, bh / g.q_heads, bh % g.q_heads, scores);
                   });
  const DataType t1 = ctx.input(0).dtype(), t2 = ctx.input(2).dtype();
  if (g.three_d)
    misc::write_output<C>(ctx, 0, t1, {g.batch, g.q_seq, g.q_heads * g.v_head_size},
                          from_heads(d.y, g.batch, g.q_seq, g.q_heads, g.v_head_size));
  else
    misc::write_output<C>(ctx, 0, t1, {g.batch, g.q_heads, g.q_seq, g.v_head_size}, d.y);
  if (ctx.num_outputs() > 1 && ctx.has_output(1))
    misc::write_output<C>(ctx, 1, t1, {g.batch, g.kv_heads, g.total, g.head_size}, d.k);
  if (ctx.num_outputs() > 2 && ctx.has_output(2))
    misc::write_output<C>(ctx, 2, t2, {g.batch, g.kv_heads, g.total, g.v_head_size}, d.v);
  if (want_qk) misc::write_output<C>(ctx, 3, t1, {g.batch, g.q_heads, g.q_seq, g.total}, d.qk);
}

void attention_kernel(KernelContext& ctx) {
  misc::require_float(ctx, ctx.input(0), "Q");
  misc::require_float(ctx, ctx.input(1), "K");
  misc::require_float(ctx, ctx.input(2), "V");
  misc::visit_compute(ctx.input(0).dtype(), [&](auto c) { attention_as<decltype(c)>(ctx); });
}

}  // namespace

void define_Attention(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(23)
      .attr("is_causal", AttrType::i, int64_t{0})
      .attr_optional("kv_num_heads", AttrType::i)
      .attr_optional("q_num_heads", AttrType::i)
      .attr("qk_matmul_output_mode", AttrType::i, int64_t{0})
      .attr_optional("scale", AttrType::f)
      .attr("softcap", AttrType::f, 0.0f)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T2")
      .input_optional("attn_mask", "U")
      .input_optional("past_key", "T1")
      .input_optional("past_value", "T2")
      .output("Y", "T1")
      .output_optional("present_key", "T1")
      .output_optional("present_value", "T2")
      .output_optional("qk_matmul_output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("U", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bool)"});
  op.since(24)
      .attr("is_causal", AttrType::i, int64_t{0})
      .attr_optional("kv_num_heads", AttrType::i)
      .attr_optional("q_num_heads", AttrType::i)
      .attr("qk_matmul_output_mode", AttrType::i, int64_t{0})
      .attr_optional("scale", AttrType::f)
      .attr("softcap", AttrType::f, 0.0f)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T2")
      .input_optional("attn_mask", "U")
      .input_optional("past_key", "T1")
      .input_optional("past_value", "T2")
      .input_optional("nonpad_kv_seqlen", "tensor(int64)")
      .output("Y", "T1")
      .output_optional("present_key", "T1")
      .output_optional("present_value", "T2")
      .output_optional("qk_matmul_output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("U", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bool)"});
  op.since(25)
      .is_function({25})
      .attr("is_causal", AttrType::i, int64_t{0})
      .attr_optional("kv_num_heads", AttrType::i)
      .attr("left_window_size", AttrType::i, int64_t{-1})
      .attr_optional("q_num_heads", AttrType::i)
      .attr("qk_matmul_output_mode", AttrType::i, int64_t{0})
      .attr("right_window_size", AttrType::i, int64_t{-1})
      .attr_optional("scale", AttrType::f)
      .attr("softcap", AttrType::f, 0.0f)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T2")
      .input_optional("attn_mask", "U")
      .input_optional("past_key", "T1")
      .input_optional("past_value", "T2")
      .input_optional("nonpad_kv_seqlen", "tensor(int64)")
      .output("Y", "T1")
      .output_optional("present_key", "T1")
      .output_optional("present_value", "T2")
      .output_optional("qk_matmul_output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("U", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_attention).kernel(attention_kernel);
}

}  // namespace onnxtool::ops
