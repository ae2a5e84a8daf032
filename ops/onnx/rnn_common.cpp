// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/rnn_common.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/util/scratch.h"

namespace onnxtool::ops::rnn {

namespace {

int64_t gate_count(Cell cell) {
  switch (cell) {
    case Cell::rnn:
      return 1;
    case Cell::gru:
      return 3;
    case Cell::lstm:
      return 4;
  }
  return 1;
}

const char* cell_name(Cell cell) {
  return cell == Cell::rnn ? "RNN" : cell == Cell::gru ? "GRU" : "LSTM";
}

// GRU-1 spells its default direction "foward": the same as "forward".
int64_t direction_count(const std::string& direction) {
  if (direction == "forward" || direction == "foward" || direction == "reverse") return 1;
  if (direction == "bidirectional") return 2;
  return 0;
}

// ---- inference ---------------------------------------------------------------------------------

void infer_impl(InferContext& ctx, Cell cell) {
  const int32_t elem = ctx.input_elem_type(0);
  const std::string direction = ctx.attrs().get_string("direction", "forward");
  const int64_t dirs = direction_count(direction);
  if (dirs == 0)
    infer_fail("direction must be forward, reverse or bidirectional, got " + direction);
  const bool batch_first = ctx.attrs().get_int("layout", 0) != 0;
  const Dims* x = misc::input_dims(ctx, 0);
  const Dims* w = misc::input_dims(ctx, 1);
  const Dims* r = misc::input_dims(ctx, 2);
  if (x && x->size() != 3) infer_fail("X must be 3-D");
  if (w && w->size() != 3) infer_fail("W must be 3-D");
  if (r && r->size() != 3) infer_fail("R must be 3-D");
  const Dim seq = misc::dim_at(x, batch_first ? 1 : 0);
  const Dim batch = misc::dim_at(x, batch_first ? 0 : 1);
  Dim hidden = misc::dim_of(ctx.attrs().opt_int("hidden_size"));
  hidden = ctx.unify_dims(hidden, misc::dim_at(r, 2), "hidden_size");
  if (w) {
    ctx.unify_dims(misc::dim_at(x, 2), (*w)[2], "input size");
    ctx.unify_dims(Dim::value(dirs), (*w)[0], "num_directions");
    ctx.unify_dims(hidden * Dim::value(gate_count(cell)), (*w)[1], "W's gates * hidden_size");
  }
  const Dim d = Dim::value(dirs);
  if (ctx.num_outputs() > 0 && ctx.has_output(0))
    set_output_tensor(ctx, 0, elem,
                      batch_first ? Dims{batch, seq, d, hidden} : Dims{seq, d, batch, hidden});
  const Dims state = batch_first ? Dims{batch, d, hidden} : Dims{d, batch, hidden};
  for (std::size_t o = 1; o < ctx.num_outputs(); ++o)
    if (ctx.has_output(o)) set_output_tensor(ctx, o, elem, state);
}

// ---- activations -------------------------------------------------------------------------------

// How many of alpha and beta the function takes, and their defaults (those of the ONNX
// operators of the same name).
struct ActivationInfo {
  const char* name;
  ActivationKind kind;
  int params;
  double alpha, beta;
};
using AK = ActivationKind;
constexpr ActivationInfo kActivations[] = {
    {"relu", AK::relu, 0, 0, 0},
    {"tanh", AK::tanh, 0, 0, 0},
    {"sigmoid", AK::sigmoid, 0, 0, 0},
    {"affine", AK::affine, 2, 1.0, 0.0},
    {"leakyrelu", AK::leaky_relu, 1, 0.01, 0},
    {"thresholdedrelu", AK::thresholded_relu, 1, 1.0, 0},
    {"scaledtanh", AK::scaled_tanh, 2, 1.0, 1.0},
    {"hardsigmoid", AK::hard_sigmoid, 2, 0.2, 0.5},
    {"elu", AK::elu, 1, 1.0, 0},
    {"softsign", AK::softsign, 0, 0, 0},
    {"softplus", AK::softplus, 0, 0, 0},
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The activations per direction: `per_dir` functions each (RNN 1, GRU 2, LSTM 3), defaults when
// the attribute is absent; alpha and beta are consumed in order by the functions that take them.
std::vector<Activation> read_activations(const NodeInfo& ctx, Cell cell, int64_t dirs) {
  static const std::vector<std::string> kDefaults[] = {
      {"Tanh"}, {"Sigmoid", "Tanh"}, {"Sigmoid", "Tanh", "Tanh"}};
  const std::vector<std::string>& def = kDefaults[static_cast<int>(cell)];
  const auto per_dir = static_cast<int64_t>(def.size());
  std::vector<std::string> names = ctx.attrs().get_strings("activations", {});
  if (names.empty())
    for (int64_t d = 0; d < dirs; ++d) names.insert(names.end(), def.begin(), def.end());
  // RNN's schema default lists two functions; a forward RNN uses the first.
  if (static_cast<int64_t>(names.size()) > per_dir * dirs && !ctx.attrs().has("activations"))
    names.resize(static_cast<std::size_t>(per_dir * dirs));
  if (static_cast<int64_t>(names.size()) != per_dir * dirs)
    ctx.fail("activations has " + std::to_string(names.size()) + " functions, expected " +
             std::to_string(per_dir * dirs) + " (" + std::to_string(per_dir) + " per direction)");
  const std::vector<float> alphas = ctx.attrs().get_floats("activation_alpha", {});
  const std::vector<float> betas = ctx.attrs().get_floats("activation_beta", {});
  std::size_t ai = 0, bi = 0;
  std::vector<Activation> out;
  for (const std::string& n : names) {
    const std::string key = lower(n);
    const auto* info = std::find_if(std::begin(kActivations), std::end(kActivations),
                                    [&](const ActivationInfo& a) { return key == a.name; });
    if (info == std::end(kActivations)) ctx.fail("unknown activation function " + n);
    Activation a{key, info->alpha, info->beta, info->kind};
    if (info->params >= 1 && ai < alphas.size()) a.alpha = alphas[ai++];
    if (info->params >= 2 && bi < betas.size()) a.beta = betas[bi++];
    out.push_back(a);
  }
  return out;
}

template <class C>
C activate(const Activation& a, C x) {
  const auto alpha = static_cast<C>(a.alpha), beta = static_cast<C>(a.beta);
  switch (a.kind) {
    case AK::relu:
      return std::max(x, C{0});
    case AK::tanh:
      return std::tanh(x);
    case AK::sigmoid:
      return C{1} / (C{1} + std::exp(-x));
    case AK::affine:
      return alpha * x + beta;
    case AK::leaky_relu:
      return x >= 0 ? x : alpha * x;
    case AK::thresholded_relu:
      return x >= alpha ? x : C{0};
    case AK::scaled_tanh:
      return alpha * std::tanh(beta * x);
    case AK::hard_sigmoid:
      return std::min(std::max(alpha * x + beta, C{0}), C{1});
    case AK::elu:
      return x >= 0 ? x : alpha * (std::exp(x) - C{1});
    case AK::softsign:
      return x / (C{1} + std::abs(x));
    case AK::softplus:
      break;
  }
  return std::log1p(std::exp(x));  // softplus
}

// ---- the kernel --------------------------------------------------------------------------------

struct Dims3 {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1, gates = 1;
  bool batch_first = false;
};

// Reads [dirs, batch, hidden] state input i (or [batch, dirs, hidden] batch-first) into
// direction-major order; zeros when absent.
template <class C>
std::vector<C> read_state(const KernelContext& ctx, std::size_t i, const Dims3& g,
                          const char* what) {
  std::vector<C> out(static_cast<std::size_t>(g.dirs * g.batch * g.hidden), C{0});
  if (i >= ctx.num_inputs() || !ctx.has_input(i)) return out;
  const Tensor& t = ctx.input(i);
  const Shape want =
      g.batch_first ? Shape{g.batch, g.dirs, g.hidden} : Shape{g.dirs, g.batch, g.hidden};
  if (t.shape() != want)
    ctx.fail(std::string(what) + " has shape " + shape_to_string(t.shape()) + ", expected " +
             shape_to_string(want));
  const std::vector<C> v = misc::values_as<C>(ctx, t, what);
  for (int64_t d = 0; d < g.dirs; ++d)
    for (int64_t b = 0; b < g.batch; ++b)
      std::copy_n(v.begin() + (g.batch_first ? (b * g.dirs + d) : (d * g.batch + b)) * g.hidden,
                  g.hidden, out.begin() + (d * g.batch + b) * g.hidden);
  return out;
}

Dims3 read_geometry(const KernelContext& ctx, const RnnAttrs& a, Cell cell) {
  const int64_t dirs = a.dirs;
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  const Tensor& r = ctx.input(2);
  if (x.rank() != 3 || w.rank() != 3 || r.rank() != 3)
    ctx.fail("X, W and R must be 3-D, got " + shape_to_string(x.shape()) + ", " +
             shape_to_string(w.shape()) + ", " + shape_to_string(r.shape()));
  Dims3 g;
  g.batch_first = a.batch_first;
  g.seq = x.shape()[g.batch_first ? 1 : 0];
  g.batch = x.shape()[g.batch_first ? 0 : 1];
  g.input = x.shape()[2];
  g.dirs = dirs;
  g.gates = gate_count(cell);
  g.hidden = a.hidden_size.value_or(r.shape()[2]);
  if (w.shape() != Shape{dirs, g.gates * g.hidden, g.input})
    ctx.fail("W has shape " + shape_to_string(w.shape()) + ", expected " +
             shape_to_string(Shape{dirs, g.gates * g.hidden, g.input}));
  if (r.shape() != Shape{dirs, g.gates * g.hidden, g.hidden})
    ctx.fail("R has shape " + shape_to_string(r.shape()) + ", expected " +
             shape_to_string(Shape{dirs, g.gates * g.hidden, g.hidden}));
  return g;
}

// Per-batch sequence lengths (all seq when absent).
std::vector<int64_t> read_lengths(const KernelContext& ctx, const Dims3& g) {
  std::vector<int64_t> lens(static_cast<std::size_t>(g.batch), g.seq);
  if (!ctx.has_input(4)) return lens;
  const Tensor& t = ctx.input(4);
  if (t.shape() != Shape{g.batch})
    ctx.fail("sequence_lens has shape " + shape_to_string(t.shape()) + ", expected [" +
             std::to_string(g.batch) + "]");
  lens = misc::values_as<int64_t>(ctx, t, "sequence_lens");
  for (int64_t l : lens)
    if (l < 0 || l > g.seq)
      ctx.fail("sequence length " + std::to_string(l) + " is outside [0, " + std::to_string(g.seq) +
               "]");
  return lens;
}

template <class C>
struct Params {
  std::vector<C> x;       // [seq, batch, input]
  std::vector<C> w, r;    // [dirs, gates*hidden, input|hidden]
  std::vector<C> wb, rb;  // [dirs, gates*hidden] each
  std::vector<C> p;       // LSTM peepholes [dirs, 3*hidden] (i, o, f)
  std::vector<Activation> act;
  std::optional<C> clip;
  bool linear_before_reset = false, input_forget = false;
};

template <class C>
Params<C> read_params(const KernelContext& ctx, const RnnAttrs& a, Cell cell, const Dims3& g) {
  Params<C> p;
  p.x = misc::values_as<C>(ctx, ctx.input(0), "X");
  if (g.batch_first) {  // to [seq, batch, input]
    std::vector<C> t(p.x.size());
    for (int64_t b = 0; b < g.batch; ++b)
      for (int64_t s = 0; s < g.seq; ++s)
        std::copy_n(p.x.begin() + (b * g.seq + s) * g.input, g.input,
                    t.begin() + (s * g.batch + b) * g.input);
    p.x = std::move(t);
  }
  p.w = misc::values_as<C>(ctx, ctx.input(1), "W");
  p.r = misc::values_as<C>(ctx, ctx.input(2), "R");
  const int64_t gh = g.gates * g.hidden;
  p.wb.assign(static_cast<std::size_t>(g.dirs * gh), C{0});
  p.rb = p.wb;
  if (ctx.has_input(3)) {
    const Tensor& b = ctx.input(3);
    if (b.shape() != Shape{g.dirs, 2 * gh})
      ctx.fail("B has shape " + shape_to_string(b.shape()) + ", expected " +
               shape_to_string(Shape{g.dirs, 2 * gh}));
    const std::vector<C> bv = misc::values_as<C>(ctx, b, "B");
    for (int64_t d = 0; d < g.dirs; ++d) {
      std::copy_n(bv.begin() + d * 2 * gh, gh, p.wb.begin() + d * gh);
      std::copy_n(bv.begin() + d * 2 * gh + gh, gh, p.rb.begin() + d * gh);
    }
  }
  if (cell == Cell::lstm) {
    p.p.assign(static_cast<std::size_t>(g.dirs * 3 * g.hidden), C{0});
    if (ctx.num_inputs() > 7 && ctx.has_input(7)) {
      const Tensor& pt = ctx.input(7);
      if (pt.shape() != Shape{g.dirs, 3 * g.hidden})
        ctx.fail("P has shape " + shape_to_string(pt.shape()) + ", expected " +
                 shape_to_string(Shape{g.dirs, 3 * g.hidden}));
      p.p = misc::values_as<C>(ctx, pt, "P");
    }
    p.input_forget = a.input_forget;
  }
  if (cell == Cell::gru) p.linear_before_reset = a.linear_before_reset;
  if (a.clip) p.clip = static_cast<C>(*a.clip);
  return p;
}

template <class C>
struct State {
  std::vector<C> h, c;  // [batch, hidden] of one direction
};

// One time step of one direction for the batch rows in `rows`, given the input projections
// xw ([batch, gates*hidden], biases not yet added) of each row's own time index.
// One GRU batch row: gates z, r, h in that order in W, R and B.
template <class C>
void gru_row(const Params<C>& p, int64_t H, const C* r, const C* wb, const C* rb,
             const Activation* act, const C* xr, const C* hrr, C* h) {
  auto clip = [&](C v) { return p.clip ? std::clamp(v, -*p.clip, *p.clip) : v; };
  // z, r, r (.) H_{t-1}, its product with Rh^T, the next H: one buffer of the thread's, kept
  // between rows and steps.
  thread_local std::vector<C> work;
  C* z = scratch_of(work, static_cast<std::size_t>(5 * H));
  C* reset = z + H;
  C* gated = reset + H;
  C* recurrent = gated + H;
  C* next = recurrent + H;
  for (int64_t j = 0; j < H; ++j) {
    z[j] = activate(act[0], clip(xr[j] + hrr[j] + wb[j] + rb[j]));
    reset[j] = activate(act[0], clip(xr[H + j] + hrr[H + j] + wb[H + j] + rb[H + j]));
  }
  // (r (.) H_{t-1}) Rh^T as one product (a dot product per element, in a loop, took 3 of a
  // 50-step GRU's 4.8 ms at hidden size 256).
  if (!p.linear_before_reset) {
    for (int64_t k = 0; k < H; ++k) gated[k] = reset[k] * h[k];
    misc::gemm_serial(false, true, 1, H, H, C{1}, gated, H, r + 2 * H * H, H, C{0}, recurrent, H);
  }
  for (int64_t j = 0; j < H; ++j) {
    const C recur = p.linear_before_reset ? reset[j] * (hrr[2 * H + j] + rb[2 * H + j])
                                          : rb[2 * H + j] + recurrent[j];  // + Rbh
    const C hh = activate(act[1], clip(xr[2 * H + j] + recur + wb[2 * H + j]));
    next[j] = (C{1} - z[j]) * hh + z[j] * h[j];
  }
  std::copy(next, next + H, h);
}

template <class C>
void step(Cell cell, const Params<C>& p, const Dims3& g, int64_t dir, const std::vector<C>& xw,
          State<C>& s, const std::vector<char>& active) {
  const int64_t H = g.hidden, gh = g.gates * H;
  const C* r = p.r.data() + dir * gh * H;
  const C* wb = p.wb.data() + dir * gh;
  const C* rb = p.rb.data() + dir * gh;
  const Activation* act = p.act.data() + dir * (cell == Cell::rnn ? 1 : cell == Cell::gru ? 2 : 3);
  std::vector<C> hr(static_cast<std::size_t>(g.batch * gh));  // H_{t-1} R^T
  misc::gemm_serial(false, true, g.batch, gh, H, C{1}, s.h.data(), H, r, H, C{0}, hr.data(), gh);
  auto clip = [&](C v) { return p.clip ? std::clamp(v, -*p.clip, *p.clip) : v; };
  for (int64_t b = 0; b < g.batch; ++b) {
    if (!active[static_cast<std::size_t>(b)]) continue;
    const C* xr = xw.data() + b * gh;
    const C* hrr = hr.data() + b * gh;
    C* h = s.h.data() + b * H;
    if (cell == Cell::rnn) {
      for (int64_t j = 0; j < H; ++j) h[j] = activate(act[0], clip(xr[j] + hrr[j] + wb[j] + rb[j]));
    } else if (cell == Cell::gru) {
      gru_row(p, H, r, wb, rb, act, xr, hrr, h);
    } else {
      C* c = s.c.data() + b * H;
      const C* peep = p.p.data() + dir * 3 * H;  // i, o, f
      for (int64_t j = 0; j < H; ++j) {
        auto pre = [&](int64_t gate) {
          return xr[gate * H + j] + hrr[gate * H + j] + wb[gate * H + j] + rb[gate * H + j];
        };
        // Gate order in W, R and B: i, o, f, c.
        const C i = activate(act[0], clip(pre(0) + peep[j] * c[j]));
        const C f =
            p.input_forget ? C{1} - i : activate(act[0], clip(pre(2) + peep[2 * H + j] * c[j]));
        const C cc = activate(act[1], clip(pre(3)));
        const C cn = f * c[j] + i * cc;
        const C o = activate(act[0], clip(pre(1) + peep[H + j] * cn));
        c[j] = cn;
        h[j] = o * activate(act[2], cn);
      }
    }
  }
}

template <class C>
void kernel_as(KernelContext& ctx, const RnnAttrs& a, Cell cell) {
  const std::string& direction = a.direction;
  const int64_t dirs = a.dirs;
  if (dirs == 0) ctx.fail("direction must be forward, reverse or bidirectional, got " + direction);
  const Dims3 g = read_geometry(ctx, a, cell);
  Params<C> p = read_params<C>(ctx, a, cell, g);
  if (!a.activation_error.empty()) ctx.fail(a.activation_error);
  p.act = a.activations;
  const std::vector<int64_t> lens = read_lengths(ctx, g);
  const std::vector<C> h0 = read_state<C>(ctx, 5, g, "initial_h");
  const std::vector<C> c0 =
      cell == Cell::lstm ? read_state<C>(ctx, 6, g, "initial_c") : std::vector<C>{};
  const int64_t H = g.hidden, gh = g.gates * H;
  // Y in [seq, dirs, batch, hidden] order; zero where a batch row's sequence has ended.
  std::vector<C> y(static_cast<std::size_t>(g.seq * dirs * g.batch * H), C{0});
  std::vector<C> yh(static_cast<std::size_t>(dirs * g.batch * H)), yc(yh.size());
  for (int64_t d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    // X W^T for every time step at once.
    std::vector<C> xw(static_cast<std::size_t>(g.seq * g.batch * gh));
    misc::gemm(ctx, false, true, g.seq * g.batch, gh, g.input, C{1}, p.x.data(), g.input,
               p.w.data() + d * gh * g.input, g.input, C{0}, xw.data(), gh);
    State<C> s;
    s.h.assign(h0.begin() + d * g.batch * H, h0.begin() + (d + 1) * g.batch * H);
    if (cell == Cell::lstm)
      s.c.assign(c0.begin() + d * g.batch * H, c0.begin() + (d + 1) * g.batch * H);
    std::vector<C> xt(static_cast<std::size_t>(g.batch * gh));
    std::vector<char> active(static_cast<std::size_t>(g.batch));
    for (int64_t t = 0; t < g.seq; ++t) {
      // Each row's own time index: reversed rows start at their last valid step.
      for (int64_t b = 0; b < g.batch; ++b) {
        const int64_t len = lens[static_cast<std::size_t>(b)];
        active[static_cast<std::size_t>(b)] = t < len;
        if (t >= len) continue;
        const int64_t ti = reverse ? len - 1 - t : t;
        std::copy_n(xw.begin() + (ti * g.batch + b) * gh, gh, xt.begin() + b * gh);
      }
      step(cell, p, g, d, xt, s, active);
      for (int64_t b = 0; b < g.batch; ++b) {
        const int64_t len = lens[static_cast<std::size_t>(b)];
        if (t >= len) continue;
        const int64_t ti = reverse ? len - 1 - t : t;
        std::copy_n(s.h.begin() + b * H, H, y.begin() + ((ti * dirs + d) * g.batch + b) * H);
      }
    }
    std::copy(s.h.begin(), s.h.end(), yh.begin() + d * g.batch * H);
    if (cell == Cell::lstm) std::copy(s.c.begin(), s.c.end(), yc.begin() + d * g.batch * H);
  }
  const DataType type = ctx.input(0).dtype();
  if (ctx.num_outputs() > 0 && ctx.has_output(0)) {
    if (g.batch_first) {
      std::vector<C> t(y.size());
      for (int64_t s = 0; s < g.seq; ++s)
        for (int64_t d = 0; d < dirs; ++d)
          for (int64_t b = 0; b < g.batch; ++b)
            std::copy_n(y.begin() + ((s * dirs + d) * g.batch + b) * H, H,
                        t.begin() + ((b * g.seq + s) * dirs + d) * H);
      misc::write_output<C>(ctx, 0, type, {g.batch, g.seq, dirs, H}, t);
    } else {
      misc::write_output<C>(ctx, 0, type, {g.seq, dirs, g.batch, H}, y);
    }
  }
  auto write_state = [&](std::size_t o, const std::vector<C>& v) {
    if (ctx.num_outputs() <= o || !ctx.has_output(o)) return;
    if (!g.batch_first) {
      misc::write_output<C>(ctx, o, type, {dirs, g.batch, H}, v);
      return;
    }
    std::vector<C> t(v.size());
    for (int64_t d = 0; d < dirs; ++d)
      for (int64_t b = 0; b < g.batch; ++b)
        std::copy_n(v.begin() + (d * g.batch + b) * H, H, t.begin() + (b * dirs + d) * H);
    misc::write_output<C>(ctx, o, type, {g.batch, dirs, H}, t);
  };
  write_state(1, yh);
  if (cell == Cell::lstm) write_state(2, yc);
}

}  // namespace

void infer(InferContext& ctx, Cell cell) {
  infer_impl(ctx, cell);
}

RnnAttrs prepare(PrepareContext& ctx, Cell cell) {
  RnnAttrs a;
  a.direction = ctx.attrs().get_string("direction", "forward");
  a.dirs = direction_count(a.direction);
  a.batch_first = ctx.attrs().get_int("layout", 0) != 0;
  a.hidden_size = ctx.attrs().opt_int("hidden_size");
  a.input_forget = ctx.attrs().get_int("input_forget", 0) != 0;
  a.linear_before_reset = ctx.attrs().get_int("linear_before_reset", 0) != 0;
  a.clip = ctx.attrs().opt_float("clip");
  if (a.dirs == 0) return a;
  try {
    a.activations = read_activations(ctx, cell, a.dirs);
  } catch (const KernelFailure& f) {
    a.activation_error = f.message;
  }
  return a;
}

void kernel(KernelContext& ctx, const RnnAttrs& attrs, Cell cell) {
  misc::require_float(ctx, ctx.input(0), cell_name(cell));
  misc::visit_compute(ctx.input(0).dtype(),
                      [&](auto c) { kernel_as<decltype(c)>(ctx, attrs, cell); });
}

double macs(const WorkShapes& s, const AttrView&) {
  const auto* x = s.input(0);
  const auto* w = s.input(1);
  const auto* r = s.input(2);
  if (!x || !w || !r || x->size() != 3 || (*x)[2] <= 0) return 0;
  auto numel = [](const Shape& dims) { return static_cast<double>(misc::shape_size(dims)); };
  return numel(*x) / static_cast<double>((*x)[2]) * (numel(*w) + numel(*r));
}

}  // namespace onnxtool::ops::rnn
