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

// The function body. Q, K and V go to (batch, heads, sequence, head_size), the past is put in
// front of K and V, and K and V heads are repeated for grouped queries. Optional attributes
// without a default are read so that one fixed body serves every call site:
// - q_num_heads and kv_num_heads (only used by 3-D inputs) from EyeLike <k = ...> over a row one
//   longer than the hidden size: the 1 sits at the column numbered by the attribute (at least 1);
// - scale from LeakyRelu and Elu, whose alpha defaults differ (0.01 and 1): both give -alpha at
//   -1 and -inf when scale is given, and differ when it is not (then 1/sqrt(head_size));
// - softmax_precision as the type of EyeLike <dtype = ...>, which is Q's type when absent.
// A bool attn_mask is told from a float one at run time (0.5 does not survive a round trip
// through bool). The causal frontier, the windows and nonpad_kv_seqlen make one boolean
// (batch, 1, q_seq, total) mask; a row with no key allowed gives zero probabilities.
constexpr const char kAttentionBody[] = R"onnx(
<domain: "", opset_import: ["" : 25]>
Attention <is_causal, kv_num_heads, left_window_size, q_num_heads, qk_matmul_output_mode, right_window_size, scale, softcap, softmax_precision> (Q, K, V, attn_mask, past_key, past_value, nonpad_kv_seqlen) => (Y, present_key, present_value, qk_matmul_output) {
  zero = Constant <value_int = 0> ()
  one = Constant <value_int = 1> ()
  zero_1d = Constant <value_ints = [0]> ()
  one_1d = Constant <value_ints = [1]> ()
  two_1d = Constant <value_ints = [2]> ()
  three_1d = Constant <value_ints = [3]> ()
  minus_one_1d = Constant <value_ints = [-1]> ()
  q_shape = Shape (Q)
  q_rank = Size (q_shape)
  three = Constant <value_int = 3> ()
  is_3d = Equal (q_rank, three)
  q4, k4, v4 = If (is_3d) <
    then_branch = split_heads () => (q_heads, k_heads, v_heads) {
      q_hidden = Shape <start = 2> (Q)
      q_row_len = Add (q_hidden, one_1d)
      q_row_shape = Concat <axis = 0> (one_1d, q_row_len)
      q_row = ConstantOfShape <value = float[1] {0}> (q_row_shape)
      q_marked = EyeLike <k: int = @q_num_heads> (q_row)
      q_heads_1d = ArgMax <axis = 1, keepdims = 0> (q_marked)
      k_hidden = Shape <start = 2> (K)
      k_row_len = Add (k_hidden, one_1d)
      k_row_shape = Concat <axis = 0> (one_1d, k_row_len)
      k_row = ConstantOfShape <value = float[1] {0}> (k_row_shape)
      k_marked = EyeLike <k: int = @kv_num_heads> (k_row)
      kv_heads_1d = ArgMax <axis = 1, keepdims = 0> (k_marked)
      q_bs = Shape <end = 2> (Q)
      k_bs = Shape <end = 2> (K)
      v_bs = Shape <end = 2> (V)
      q_split = Concat <axis = 0> (q_bs, q_heads_1d, minus_one_1d)
      k_split = Concat <axis = 0> (k_bs, kv_heads_1d, minus_one_1d)
      v_split = Concat <axis = 0> (v_bs, kv_heads_1d, minus_one_1d)
      q_bshd = Reshape (Q, q_split)
      k_bshd = Reshape (K, k_split)
      v_bshd = Reshape (V, v_split)
      q_heads = Transpose <perm = [0, 2, 1, 3]> (q_bshd)
      k_heads = Transpose <perm = [0, 2, 1, 3]> (k_bshd)
      v_heads = Transpose <perm = [0, 2, 1, 3]> (v_bshd)
    },
    else_branch = as_heads () => (q_same, k_same, v_same) {
      q_same = Identity (Q)
      k_same = Identity (K)
      v_same = Identity (V)
    }
  >
  has_past = OptionalHasElement (past_key)
  k_all, v_all = If (has_past) <
    then_branch = after_past () => (k_joined, v_joined) {
      k_joined = Concat <axis = 2> (past_key, k4)
      v_joined = Concat <axis = 2> (past_value, v4)
    },
    else_branch = no_past () => (k_alone, v_alone) {
      k_alone = Identity (k4)
      v_alone = Identity (v4)
    }
  >
  present_key = Identity (k_all)
  present_value = Identity (v_all)
  batch_1d = Shape <end = 1> (q4)
  q_heads_n = Shape <start = 1, end = 2> (q4)
  q_seq_1d = Shape <start = 2, end = 3> (q4)
  head_size_1d = Shape <start = 3> (q4)
  kv_heads_n = Shape <start = 1, end = 2> (k_all)
  total_1d = Shape <start = 2, end = 3> (k_all)
  group = Div (q_heads_n, kv_heads_n)
  k_tail = Shape <start = 2> (k_all)
  v_tail = Shape <start = 2> (v_all)
  k_wide = Concat <axis = 0> (batch_1d, kv_heads_n, group, k_tail)
  v_wide = Concat <axis = 0> (batch_1d, kv_heads_n, group, v_tail)
  k_flat = Concat <axis = 0> (batch_1d, q_heads_n, k_tail)
  v_flat = Concat <axis = 0> (batch_1d, q_heads_n, v_tail)
  k_5d = Unsqueeze (k_all, two_1d)
  v_5d = Unsqueeze (v_all, two_1d)
  k_rep_5d = Expand (k_5d, k_wide)
  v_rep_5d = Expand (v_5d, v_wide)
  k_rep = Reshape (k_rep_5d, k_flat)
  v_rep = Reshape (v_rep_5d, v_flat)
  minus_one_f = Constant <value_float = -1.0> ()
  zero_f = Constant <value_float = 0.0> ()
  neg_inf_f = Log (zero_f)
  leaky = LeakyRelu <alpha: float = @scale> (minus_one_f)
  elu = Elu <alpha: float = @scale> (neg_inf_f)
  scale_given = Equal (leaky, elu)
  scale_given_value = Neg (leaky)
  head_size_f = Cast <to = 1> (head_size_1d)
  root = Sqrt (head_size_f)
  scale_default = Reciprocal (root)
  scale_f = Where (scale_given, scale_given_value, scale_default)
  scale_t = CastLike (scale_f, q4)
  k_t = Transpose <perm = [0, 1, 3, 2]> (k_rep)
  dots = MatMul (q4, k_t)
  raw = Mul (dots, scale_t)
  cap_f = Constant <value_float: float = @softcap> ()
  cap_on = Greater (cap_f, zero_f)
  capped = If (cap_on) <
    then_branch = soft_cap () => (capped_on) {
      cap_t = CastLike (cap_f, raw)
      ratio = Div (raw, cap_t)
      bent = Tanh (ratio)
      capped_on = Mul (bent, cap_t)
    },
    else_branch = no_cap () => (capped_off) {
      capped_off = Identity (raw)
    }
  >
  total = Squeeze (total_1d)
  key_idx = Range (zero, total, one)
  q_seq = Squeeze (q_seq_1d)
  query_idx = Range (zero, q_seq, one)
  along_keys = Constant <value_ints = [1, 1, 1, -1]> ()
  along_queries = Constant <value_ints = [1, 1, -1, 1]> ()
  key_pos = Reshape (key_idx, along_keys)
  query_pos_raw = Reshape (query_idx, along_queries)
  new_len_1d = Shape <start = 2, end = 3> (k4)
  past_len_1d = Sub (total_1d, new_len_1d)
  has_nonpad = OptionalHasElement (nonpad_kv_seqlen)
  valid = If (has_nonpad) <
    then_branch = padded () => (valid_given) {
      valid_given = Identity (nonpad_kv_seqlen)
    },
    else_branch = unpadded () => (valid_all) {
      valid_all = Expand (total_1d, batch_1d)
    }
  >
  no_past = Not (has_past)
  offset_from_valid = And (has_nonpad, no_past)
  valid_less_q = Sub (valid, q_seq_1d)
  offset = Where (offset_from_valid, valid_less_q, past_len_1d)
  per_batch = Constant <value_ints = [-1, 1, 1, 1]> ()
  offset_4d = Reshape (offset, per_batch)
  valid_4d = Reshape (valid, per_batch)
  query_pos = Add (query_pos_raw, offset_4d)
  in_valid = Less (key_pos, valid_4d)
  causal_i = Constant <value_int: int = @is_causal> ()
  causal = Cast <to = 9> (causal_i)
  not_causal = Not (causal)
  not_after = LessOrEqual (key_pos, query_pos)
  causal_ok = Or (not_causal, not_after)
  left = Constant <value_int: int = @left_window_size> ()
  right = Constant <value_int: int = @right_window_size> ()
  no_left = Less (left, zero)
  no_right = Less (right, zero)
  left_edge = Sub (query_pos, left)
  right_edge = Add (query_pos, right)
  inside_left = GreaterOrEqual (key_pos, left_edge)
  inside_right = LessOrEqual (key_pos, right_edge)
  left_ok = Or (no_left, inside_left)
  right_ok = Or (no_right, inside_right)
  allowed_1 = And (in_valid, causal_ok)
  allowed_2 = And (allowed_1, left_ok)
  allowed = And (allowed_2, right_ok)
  zero_t = CastLike (zero_f, raw)
  neg_inf_t = CastLike (neg_inf_f, raw)
  has_mask = OptionalHasElement (attn_mask)
  mask_bias = If (has_mask) <
    then_branch = given_mask () => (mask_full) {
      half = Constant <value_float = 0.5> ()
      half_m = CastLike (half, attn_mask)
      half_back = Cast <to = 1> (half_m)
      survives = Equal (half_back, half)
      is_bool = Not (survives)
      mask_add = If (is_bool) <
        then_branch = bool_mask () => (bool_add) {
          keep = Cast <to = 9> (attn_mask)
          bool_add = Where (keep, zero_t, neg_inf_t)
        },
        else_branch = float_mask () => (float_add) {
          float_add = CastLike (attn_mask, raw)
        }
      >
      width_1d = Shape <start = -1> (mask_add)
      short_by = Sub (total_1d, width_1d)
      mask_pads = Concat <axis = 0> (zero_1d, short_by)
      mask_full = Pad (mask_add, mask_pads, neg_inf_t, minus_one_1d)
    },
    else_branch = no_mask () => (mask_none) {
      mask_none = Identity (zero_t)
    }
  >
  bias = Where (allowed, mask_bias, neg_inf_t)
  biased = Add (capped, bias)
  carrier_shape = Constant <value_ints = [1, 1]> ()
  carrier_f = ConstantOfShape (carrier_shape)
  carrier_q = CastLike (carrier_f, raw)
  carrier = EyeLike <dtype: int = @softmax_precision> (carrier_q)
  scores = CastLike (biased, carrier)
  row_max = ReduceMax <keepdims = 1> (scores, minus_one_1d)
  neg_inf_s = CastLike (neg_inf_f, scores)
  zero_s = CastLike (zero_f, scores)
  row_empty = Equal (row_max, neg_inf_s)
  shift = Where (row_empty, zero_s, row_max)
  centred = Sub (scores, shift)
  weights = Exp (centred)
  total_weight = ReduceSum <keepdims = 1> (weights, minus_one_1d)
  probs_s = Div (weights, total_weight)
  probs_safe = Where (row_empty, zero_s, probs_s)
  probs = CastLike (probs_safe, raw)
  probs_v = CastLike (probs, v_rep)
  y4_v = MatMul (probs_v, v_rep)
  y4 = CastLike (y4_v, Q)
  Y = If (is_3d) <
    then_branch = merge_heads () => (y_3d) {
      y_bshd = Transpose <perm = [0, 2, 1, 3]> (y4)
      y_bs = Shape <end = 2> (y_bshd)
      y_merged = Concat <axis = 0> (y_bs, minus_one_1d)
      y_3d = Reshape (y_bshd, y_merged)
    },
    else_branch = keep_heads () => (y_4d) {
      y_4d = Identity (y4)
    }
  >
  mode = Constant <value_int: int = @qk_matmul_output_mode> ()
  mode_0 = Equal (mode, zero)
  qk_matmul_output = If (mode_0) <
    then_branch = qk_raw () => (qk_0) { qk_0 = Identity (raw) },
    else_branch = qk_later () => (qk_123) {
      mode_1 = Equal (mode, one)
      qk_123 = If (mode_1) <
        then_branch = qk_capped () => (qk_1) { qk_1 = Identity (capped) },
        else_branch = qk_last () => (qk_23) {
          two = Constant <value_int = 2> ()
          mode_2 = Equal (mode, two)
          qk_23 = If (mode_2) <
            then_branch = qk_biased () => (qk_2) { qk_2 = Identity (biased) },
            else_branch = qk_probs () => (qk_3) { qk_3 = Identity (probs) }
          >
        }
      >
    }
  >
}
)onnx";

// Q.K^T and the weights times V: (|Q| + |Y|) x L, with L the keys attended to (past ones
// included: present_key's length when the node gives it). Q and Y hold batch x heads x queries
// x head size, in 3-D or 4-D form alike.
double attention_macs(const WorkShapes& s, const AttrView&) {
  const auto* q = s.input(0);
  const auto* k = s.input(1);
  const auto* y = s.output(0);
  const auto* present = s.output(1);
  if (!q || !k || !y || k->size() < 3) return 0;
  const int64_t keys = present && present->size() == 4 ? (*present)[2]
                       : k->size() == 4                ? (*k)[2]
                                                       : (*k)[1];
  auto numel = [](const Shape& dims) { return static_cast<double>(misc::shape_size(dims)); };
  return (numel(*q) + numel(*y)) * static_cast<double>(keys);
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
  op.at(25).function(kAttentionBody, 25);
  op.all().infer(infer_attention).kernel(attention_kernel).macs(attention_macs);
}

}  // namespace onnxtool::ops
