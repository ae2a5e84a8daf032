// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/reduce_common.h"

#include <cmath>
#include <limits>
#include <optional>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops::nn {

namespace {

// ---- axes ------------------------------------------------------------------------------------

// From ReduceSum-13 and the others' 18, axes are the optional second input.
bool axes_are_input(const OpVersion& schema) {
  return schema.inputs.size() > 1;
}

bool keepdims(const AttrView& a) {
  return a.get_int("keepdims", 1) != 0;
}
bool noop_with_empty_axes(const AttrView& a) {
  return a.opt_int("noop_with_empty_axes").value_or(0) != 0;
}

// ---- accumulation ----------------------------------------------------------------------------

constexpr bool is_log_kind(ReduceKind k) {
  return k == ReduceKind::l2 || k == ReduceKind::log_sum || k == ReduceKind::log_sum_exp;
}

// Floats accumulate in float (double for double); integers in 64 bits, wrapping like the
// hardware; integer results that need a square root or a log go through double.
template <ReduceKind K, class T>
using reduce_acc_t = std::conditional_t<
    !std::is_integral_v<T>, acc_t<T>,
    std::conditional_t<is_log_kind(K), double,
                       std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>>;

template <class A, class T>
A to_acc(T v) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<A>(v);
  else
    return static_cast<A>(load<T>(v));
}

template <class A>
A add(A a, A b) {
  if constexpr (std::is_same_v<A, int64_t>)
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else
    return a + b;
}
template <class A>
A mul(A a, A b) {
  if constexpr (std::is_same_v<A, int64_t>)
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else
    return a * b;
}
template <class A>
A magnitude(A v) {
  if constexpr (std::is_unsigned_v<A>)
    return v;
  else if constexpr (std::is_same_v<A, int64_t>)
    return v < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(v)) : v;
  else
    return std::abs(v);
}

template <class A>
A lowest() {
  return std::numeric_limits<A>::has_infinity ? -std::numeric_limits<A>::infinity()
                                              : std::numeric_limits<A>::lowest();
}
template <class A>
A highest() {
  return std::numeric_limits<A>::has_infinity ? std::numeric_limits<A>::infinity()
                                              : std::numeric_limits<A>::max();
}

// What each reduction starts from, adds each value with, and finishes with. Max and min keep a
// NaN once they meet one (as numpy does).
template <ReduceKind K, class A>
struct Ops {
  static A init() {
    if constexpr (K == ReduceKind::prod)
      return A(1);
    else if constexpr (K == ReduceKind::max || K == ReduceKind::log_sum_exp)
      return lowest<A>();
    else if constexpr (K == ReduceKind::min)
      return highest<A>();
    else
      return A(0);
  }
  static A step(A acc, A v) {
    if constexpr (K == ReduceKind::max || K == ReduceKind::log_sum_exp)
      return (v > acc || v != v) && acc == acc ? v : acc;
    else if constexpr (K == ReduceKind::min)
      return (v < acc || v != v) && acc == acc ? v : acc;
    else if constexpr (K == ReduceKind::prod)
      return mul(acc, v);
    else if constexpr (K == ReduceKind::l1)
      return add(acc, magnitude(v));
    else if constexpr (K == ReduceKind::l2 || K == ReduceKind::sum_square)
      return add(acc, mul(v, v));
    else
      return add(acc, v);
  }
  static A finish(A acc, int64_t n) {
    if constexpr (K == ReduceKind::mean) {
      if constexpr (std::is_integral_v<A>)
        return n == 0 ? A(0) : static_cast<A>(acc / static_cast<A>(n));
      else
        return acc / static_cast<A>(n);
    } else if constexpr (K == ReduceKind::l2) {
      return std::sqrt(acc);
    } else if constexpr (K == ReduceKind::log_sum) {
      return std::log(acc);
    } else {
      return acc;
    }
  }
};

template <class T, class A>
T from_acc(A v) {
  if constexpr (std::is_same_v<T, bool>)
    return v != 0;
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(v);
  else
    return store<T>(static_cast<acc_t<T>>(v));
}

// log(sum(exp(v - m))) + m with m the maximum; +-inf and NaN maxima pass through.
template <class A>
A log_sum_exp_finish(A sum, A m) {
  if (!std::isfinite(static_cast<double>(m))) return m;
  return m + static_cast<A>(std::log(static_cast<double>(sum)));
}

// ---- the two drivers -------------------------------------------------------------------------

// `cols` adjacent outputs, each reducing `len` values `stride` apart: x[r * stride + i] for
// output i. The loops run along i (contiguous) for each r.
template <ReduceKind K, class T>
void reduce_columns(const T* x, int64_t len, int64_t stride, int64_t cols, T* y,
                    std::vector<reduce_acc_t<K, T>>& acc) {
  using A = reduce_acc_t<K, T>;
  using O = Ops<K, A>;
  acc.assign(static_cast<std::size_t>(cols), O::init());
  A* a = acc.data();
  for (int64_t r = 0; r < len; ++r) {
    const T* row = x + r * stride;
    for (int64_t i = 0; i < cols; ++i) a[i] = O::step(a[i], to_acc<A>(row[i]));
  }
  if constexpr (K == ReduceKind::log_sum_exp) {
    std::vector<A> sum(static_cast<std::size_t>(cols), A(0));
    for (int64_t r = 0; r < len; ++r) {
      const T* row = x + r * stride;
      for (int64_t i = 0; i < cols; ++i)
        if (std::isfinite(static_cast<double>(a[i])))
          sum[static_cast<std::size_t>(i)] += std::exp(to_acc<A>(row[i]) - a[i]);
    }
    for (int64_t i = 0; i < cols; ++i)
      y[i] = from_acc<T>(log_sum_exp_finish(sum[static_cast<std::size_t>(i)], a[i]));
  } else {
    for (int64_t i = 0; i < cols; ++i) y[i] = from_acc<T>(O::finish(a[i], len));
  }
}

// One output from the values at base + offsets[j].
template <ReduceKind K, class T>
T reduce_gathered(const T* x, int64_t base, const std::vector<int64_t>& offsets) {
  using A = reduce_acc_t<K, T>;
  using O = Ops<K, A>;
  A a = O::init();
  for (int64_t off : offsets) a = O::step(a, to_acc<A>(x[base + off]));
  if constexpr (K == ReduceKind::log_sum_exp) {
    A sum = 0;
    if (std::isfinite(static_cast<double>(a)))
      for (int64_t off : offsets) sum += std::exp(to_acc<A>(x[base + off]) - a);
    return from_acc<T>(log_sum_exp_finish(sum, a));
  } else {
    return from_acc<T>(O::finish(a, static_cast<int64_t>(offsets.size())));
  }
}

// ---- planning --------------------------------------------------------------------------------

// The reduction over a shape: [outer, len, inner] when the reduced axes form one block after
// dropping 1s and merging neighbours; otherwise the general form (kept dims with their strides
// in the input, and the offsets of every reduced position).
struct Plan {
  bool simple = true;
  int64_t outer = 1, len = 1, inner = 1;
  std::vector<int64_t> kept_dims, kept_strides, offsets;
  int64_t outputs = 1;
};

Plan make_plan(const Shape& shape, const std::vector<bool>& reduced) {
  struct Run {
    int64_t size;
    bool reduced;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!runs.empty() && runs.back().reduced == reduced[i])
      runs.back().size *= shape[i];
    else
      runs.push_back({shape[i], reduced[i]});
  }
  Plan p;
  for (const Run& r : runs)
    if (!r.reduced) p.outputs *= r.size;
  const std::size_t blocks = static_cast<std::size_t>(
      std::count_if(runs.begin(), runs.end(), [](const Run& r) { return r.reduced; }));
  if (blocks <= 1) {
    std::size_t i = 0;
    if (i < runs.size() && !runs[i].reduced) p.outer = runs[i++].size;
    if (i < runs.size() && runs[i].reduced) p.len = runs[i++].size;
    if (i < runs.size()) p.inner = runs[i].size;
    return p;
  }
  p.simple = false;
  std::vector<int64_t> red_dims, red_strides;
  int64_t stride = 1;
  for (std::size_t i = runs.size(); i-- > 0; stride *= runs[i].size) {
    auto& dims = runs[i].reduced ? red_dims : p.kept_dims;
    auto& strides = runs[i].reduced ? red_strides : p.kept_strides;
    dims.insert(dims.begin(), runs[i].size);
    strides.insert(strides.begin(), stride);
  }
  const int64_t count = product(red_dims, 0, red_dims.size());
  p.offsets.resize(static_cast<std::size_t>(count));
  for (int64_t j = 0; j < count; ++j) {
    int64_t off = 0;
    for (std::size_t a = red_dims.size(), rest = static_cast<std::size_t>(j); a-- > 0;) {
      off += static_cast<int64_t>(rest % static_cast<std::size_t>(red_dims[a])) * red_strides[a];
      rest /= static_cast<std::size_t>(red_dims[a]);
    }
    p.offsets[static_cast<std::size_t>(j)] = off;
  }
  return p;
}

// ---- one output over a contiguous run of float32 ------------------------------------------

// A run (the values of one output, adjacent: the last axes reduced) goes in blocks of this many
// values, each reduced on its own, then the blocks' results in order: the threads can share a
// whole-tensor reduction's blocks, and the order never depends on how many threads there are.
constexpr int64_t kRunBlock = 16384;
// Within a block value i goes to partial result i % kRunLanes (independent chains, in vectors),
// and the partial results are combined pairwise: lane l with lane l + 8, then l + 4, + 2, + 1.
constexpr int kRunLanes = 16;

// The reductions that run in lanes: sums (their rounding is that order's) and the extremes
// (whose results need no order: see run_extreme).
constexpr bool runs_in_lanes(ReduceKind k) {
  return k == ReduceKind::sum || k == ReduceKind::mean || k == ReduceKind::l1 ||
         k == ReduceKind::l2 || k == ReduceKind::sum_square || k == ReduceKind::max ||
         k == ReduceKind::min;
}

template <ReduceKind K>
float combine_partials(float a, float b) {
  if constexpr (K == ReduceKind::max || K == ReduceKind::min)
    return Ops<K, float>::step(a, b);
  else
    return a + b;
}

// One block of n values (n <= kRunBlock): its lanes, then their pairwise combination.
template <ReduceKind K>
float reduce_block(const float* x, int64_t n) {
  using O = Ops<K, float>;
  float lanes[kRunLanes];
  for (float& l : lanes) l = O::init();
  int64_t i = 0;
  for (; i + kRunLanes <= n; i += kRunLanes)
    for (int l = 0; l < kRunLanes; ++l) lanes[l] = O::step(lanes[l], x[i + l]);
  for (int l = 0; i < n; ++i, ++l) lanes[l] = O::step(lanes[l], x[i]);
  for (int h = kRunLanes / 2; h >= 1; h /= 2)
    for (int l = 0; l < h; ++l) lanes[l] = combine_partials<K>(lanes[l], lanes[l + h]);
  return lanes[0];
}

// A run of len values from its blocks' results, in order.
template <ReduceKind K>
float combine_blocks(const float* partials, int64_t blocks) {
  float acc = partials[0];
  for (int64_t b = 1; b < blocks; ++b) acc = combine_partials<K>(acc, partials[b]);
  return acc;
}

// Max and min keep the first value they meet of those equal to the result (the first NaN, the
// first of +0 and -0): the lanes find the same value, and where it is a zero or a NaN (whose
// sign and payload the order picks) the run is taken again in order, as reduce_columns does.
template <ReduceKind K>
float run_result(const float* x, int64_t len, float lanes_result) {
  using O = Ops<K, float>;
  if constexpr (K == ReduceKind::max || K == ReduceKind::min) {
    if (lanes_result == 0.0f || lanes_result != lanes_result) {
      float acc = O::init();
      for (int64_t i = 0; i < len; ++i) acc = O::step(acc, x[i]);
      return acc;
    }
  }
  return O::finish(lanes_result, len);
}

// The outputs of a plan whose runs are contiguous (inner 1): each in blocks and lanes. The
// threads take the outputs, or, where there are fewer outputs than threads, each output's blocks.
template <ReduceKind K>
void run_contiguous(const KernelContext& ctx, const Plan& p, const float* x, float* y) {
  const int64_t len = p.len, blocks = (len + kRunBlock - 1) / kRunBlock;
  // Blocks [b0, b1) of run `run` into their partials.
  const auto reduce_blocks = [&](const float* run, int64_t b0, int64_t b1, float* partials) {
    for (int64_t b = b0; b < b1; ++b)
      partials[b] = reduce_block<K>(run + b * kRunBlock, std::min(kRunBlock, len - b * kRunBlock));
  };
  // Fewer runs than threads: each run's blocks across the threads, one run after the other.
  const bool split_runs = p.outer < ctx.threads() && blocks > 1;
  if (split_runs) {
    std::vector<float> partials(static_cast<std::size_t>(blocks));
    for (int64_t o = 0; o < p.outer; ++o) {
      const float* run = x + o * len;
      ctx.parallel_for(
          blocks, 1, [&](int64_t b0, int64_t b1) { reduce_blocks(run, b0, b1, partials.data()); });
      y[o] = run_result<K>(run, len, combine_blocks<K>(partials.data(), blocks));
    }
    return;
  }
  ctx.parallel_for(p.outer, grain_for(len), [&](int64_t lo, int64_t hi) {
    std::vector<float> partials(static_cast<std::size_t>(blocks));
    for (int64_t o = lo; o < hi; ++o) {
      reduce_blocks(x + o * len, 0, blocks, partials.data());
      y[o] = run_result<K>(x + o * len, len, combine_blocks<K>(partials.data(), blocks));
    }
  });
}

template <ReduceKind K, class T>
void run_plan(const KernelContext& ctx, const Plan& p, const T* x, T* y) {
  if constexpr (std::is_same_v<T, float> && runs_in_lanes(K)) {
    if (p.simple && p.inner == 1 && p.len > 1) return run_contiguous<K>(ctx, p, x, y);
  }
  if (p.simple) {
    // Tasks: each outer index, its inner outputs cut into column chunks.
    const int64_t chunk = std::min<int64_t>(p.inner, 1024);
    const int64_t per_outer = (p.inner + chunk - 1) / chunk;
    ctx.parallel_for(p.outer * per_outer, grain_for(p.len * chunk), [&](int64_t lo, int64_t hi) {
      std::vector<reduce_acc_t<K, T>> acc;
      for (int64_t t = lo; t < hi; ++t) {
        const int64_t o = t / per_outer, i0 = (t % per_outer) * chunk;
        const int64_t cols = std::min(chunk, p.inner - i0);
        reduce_columns<K, T>(x + o * p.len * p.inner + i0, p.len, p.inner, cols,
                             y + o * p.inner + i0, acc);
      }
    });
    return;
  }
  const auto work = static_cast<int64_t>(p.offsets.size());
  ctx.parallel_for(p.outputs, grain_for(work), [&](int64_t lo, int64_t hi) {
    for (int64_t j = lo; j < hi; ++j) {
      int64_t base = 0;
      for (std::size_t a = p.kept_dims.size(), rest = static_cast<std::size_t>(j); a-- > 0;) {
        base += static_cast<int64_t>(rest % static_cast<std::size_t>(p.kept_dims[a])) *
                p.kept_strides[a];
        rest /= static_cast<std::size_t>(p.kept_dims[a]);
      }
      y[j] = reduce_gathered<K, T>(x, base, p.offsets);
    }
  });
}

template <class T>
void run_kind(const KernelContext& ctx, ReduceKind kind, const Plan& p, const T* x, T* y) {
  switch (kind) {
    case ReduceKind::sum:
      return run_plan<ReduceKind::sum, T>(ctx, p, x, y);
    case ReduceKind::mean:
      return run_plan<ReduceKind::mean, T>(ctx, p, x, y);
    case ReduceKind::max:
      return run_plan<ReduceKind::max, T>(ctx, p, x, y);
    case ReduceKind::min:
      return run_plan<ReduceKind::min, T>(ctx, p, x, y);
    case ReduceKind::prod:
      return run_plan<ReduceKind::prod, T>(ctx, p, x, y);
    case ReduceKind::l1:
      return run_plan<ReduceKind::l1, T>(ctx, p, x, y);
    case ReduceKind::l2:
      return run_plan<ReduceKind::l2, T>(ctx, p, x, y);
    case ReduceKind::log_sum:
      return run_plan<ReduceKind::log_sum, T>(ctx, p, x, y);
    case ReduceKind::log_sum_exp:
      return run_plan<ReduceKind::log_sum_exp, T>(ctx, p, x, y);
    case ReduceKind::sum_square:
      return run_plan<ReduceKind::sum_square, T>(ctx, p, x, y);
  }
}

// Every element type some Reduce* version allows.
template <class F>
void visit_reduce_type(const KernelContext& ctx, DataType t, F&& f) {
  switch (t) {
    case DataType::int32:
      return f(int32_t{});
    case DataType::int64:
      return f(int64_t{});
    case DataType::uint32:
      return f(uint32_t{});
    case DataType::uint64:
      return f(uint64_t{});
    case DataType::int8:
      return f(int8_t{});
    case DataType::uint8:
      return f(uint8_t{});
    case DataType::boolean:
      return f(bool{});
    default:
      return visit_float(ctx, t, f);
  }
}

// The reduced-axis flags for x, failing on axes out of range or repeated.
std::vector<bool> reduced_flags(const KernelContext& ctx, int64_t rank,
                                const std::vector<int64_t>& axes) {
  std::vector<bool> flags(static_cast<std::size_t>(rank), axes.empty());
  for (int64_t a : axes) {
    const auto i = static_cast<std::size_t>(kernel_axis(ctx, a, rank, "axes value"));
    if (flags[i]) ctx.fail("axis " + std::to_string(a) + " appears twice in axes");
    flags[i] = true;
  }
  return flags;
}

Tensor reduce_with_flags(const KernelContext& ctx, const Tensor& x, const std::vector<bool>& flags,
                         ReduceKind kind, bool keep) {
  Shape out;
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (!flags[i])
      out.push_back(x.shape()[i]);
    else if (keep)
      out.push_back(1);
  Tensor y(x.dtype(), out);
  if (y.numel() == 0) return y;
  const Plan p = make_plan(x.shape(), flags);
  visit_reduce_type(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    run_kind<T>(ctx, kind, p, x.data<T>(), y.mutable_data<T>());
  });
  return y;
}

std::optional<std::vector<int64_t>> kernel_axes(const KernelContext& ctx) {
  if (!axes_are_input(ctx.schema())) return ctx.attrs().opt_ints("axes");
  if (!ctx.has_input(1)) return std::nullopt;
  const Tensor& a = ctx.input(1);
  if (a.dtype() != DataType::int64 || a.rank() > 1)
    ctx.fail("axes must be a 1-D int64 tensor, got " + std::string(type_name(a.dtype())) +
             shape_to_string(a.shape()));
  return std::vector<int64_t>(a.data<int64_t>(), a.data<int64_t>() + a.numel());
}

}  // namespace

// ---- inference -------------------------------------------------------------------------------

void infer_reduce(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Type& in = ctx.input_type(0);
  const bool keep = keepdims(ctx.attrs()), noop = noop_with_empty_axes(ctx.attrs());
  std::optional<std::vector<int64_t>> axes;
  if (!axes_are_input(ctx.schema()))
    axes = ctx.attrs().opt_ints("axes").value_or(std::vector<int64_t>{});
  else if (!ctx.has_input(1))
    axes = std::vector<int64_t>{};
  else
    axes = input_ints(ctx, 1);
  if (!in.has_shape()) return set_output_tensor(ctx, 0, elem);
  if (!axes) {
    // Which axes is unknown: with keepdims the rank is still known.
    set_output_tensor(ctx, 0, elem,
                      keep ? std::optional<Dims>(Dims(in.shape->size())) : std::nullopt);
    if (!keep) ctx.explain(0, "the axes input's values are not known");
    return;
  }
  const auto normalized = normalize_axes(*axes, in.rank(), "axes");
  set_output_tensor(ctx, 0, elem, reduce_shape(*in.shape, normalized, keep, noop));
}

// ---- kernels ---------------------------------------------------------------------------------

void reduce_kernel(KernelContext& ctx, ReduceKind kind) {
  const Tensor& x = ctx.input(0);
  const std::vector<int64_t> axes = kernel_axes(ctx).value_or(std::vector<int64_t>{});
  const bool keep = keepdims(ctx.attrs());
  if (axes.empty() && noop_with_empty_axes(ctx.attrs())) {
    // Nothing is reduced; only the element-wise part remains, if any.
    if (kind == ReduceKind::sum || kind == ReduceKind::mean || kind == ReduceKind::max ||
        kind == ReduceKind::min || kind == ReduceKind::prod) {
      ctx.set_output(0, Value(x));
      return;
    }
    ctx.set_output(
        0, reduce_with_flags(ctx, x, std::vector<bool>(static_cast<std::size_t>(x.rank()), false),
                             kind, true));
    return;
  }
  ctx.set_output(0, reduce_with_flags(ctx, x, reduced_flags(ctx, x.rank(), axes), kind, keep));
}

Tensor reduce_axes(const KernelContext& ctx, const Tensor& x, std::vector<int64_t> axes,
                   ReduceKind kind) {
  std::vector<bool> flags(static_cast<std::size_t>(x.rank()), false);
  for (int64_t a : axes) flags[static_cast<std::size_t>(a)] = true;
  return reduce_with_flags(ctx, x, flags, kind, true);
}

// ---- ArgMax, ArgMin --------------------------------------------------------------------------

void infer_arg_reduce(InferContext& ctx) {
  const Type& in = ctx.input_type(0);
  const auto int64 = static_cast<int32_t>(DataType::int64);
  if (!in.has_shape()) return set_output_tensor(ctx, 0, int64);
  const int64_t axis = ctx.normalize_axis(ctx.attrs().get_int("axis", 0), in.rank());
  const std::vector<int64_t> axes{axis};
  set_output_tensor(ctx, 0, int64, reduce_shape(*in.shape, axes, keepdims(ctx.attrs())));
}

namespace {

// The index of the first (or last) maximum (or minimum) along the axis; a NaN wins and the
// first NaN is kept (numpy's rule).
template <class T>
void arg_columns(const T* x, int64_t len, int64_t stride, int64_t cols, bool is_max, bool last,
                 int64_t* y, std::vector<reduce_acc_t<ReduceKind::max, T>>& best) {
  using A = reduce_acc_t<ReduceKind::max, T>;
  best.resize(static_cast<std::size_t>(cols));
  for (int64_t i = 0; i < cols; ++i) {
    best[static_cast<std::size_t>(i)] = to_acc<A>(x[i]);
    y[i] = 0;
  }
  for (int64_t r = 1; r < len; ++r)
    for (int64_t i = 0; i < cols; ++i) {
      const A v = to_acc<A>(x[r * stride + i]);
      A& b = best[static_cast<std::size_t>(i)];
      if (b != b) continue;
      const bool better = v != v || (is_max ? (last ? v >= b : v > b) : (last ? v <= b : v < b));
      if (better) {
        b = v;
        y[i] = r;
      }
    }
}

}  // namespace

void arg_reduce_kernel(KernelContext& ctx, bool is_max) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("the input must have rank >= 1");
  const int64_t axis = kernel_axis(ctx, ctx.attrs().get_int("axis", 0), x.rank());
  const bool last = ctx.attrs().opt_int("select_last_index").value_or(0) != 0;
  Shape out = x.shape();
  if (keepdims(ctx.attrs()))
    out[static_cast<std::size_t>(axis)] = 1;
  else
    out.erase(out.begin() + axis);
  Tensor& y = ctx.output(0, DataType::int64, out);
  if (y.numel() == 0) return;
  const AxisSplit s = split_at(x.shape(), axis);
  if (s.axis == 0) ctx.fail("cannot take the index of an extreme over an empty axis");
  visit_reduce_type(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    int64_t* dst = y.mutable_data<int64_t>();
    ctx.parallel_for(s.outer, grain_for(s.axis * s.inner), [&](int64_t lo, int64_t hi) {
      std::vector<reduce_acc_t<ReduceKind::max, T>> best;
      for (int64_t o = lo; o < hi; ++o)
        arg_columns<T>(src + o * s.axis * s.inner, s.axis, s.inner, s.inner, is_max, last,
                       dst + o * s.inner, best);
    });
  });
}

// ---- reference -------------------------------------------------------------------------------

void reduce_reference(const Tensor& x, const std::vector<int64_t>& axes, ReduceKind kind,
                      Tensor& y) {
  const Shape& shape = x.shape();
  const std::size_t r = shape.size();
  std::vector<bool> flags(r, axes.empty());
  for (int64_t a : axes) flags[static_cast<std::size_t>(a)] = true;
  const int64_t outs = y.numel();
  std::vector<double> acc(static_cast<std::size_t>(outs)),
      mx(static_cast<std::size_t>(outs), -std::numeric_limits<double>::infinity());
  std::vector<int64_t> count(static_cast<std::size_t>(outs), 0),
      target(static_cast<std::size_t>(x.numel()));
  if (kind == ReduceKind::prod) std::fill(acc.begin(), acc.end(), 1.0);
  if (kind == ReduceKind::max)
    std::fill(acc.begin(), acc.end(), -std::numeric_limits<double>::infinity());
  if (kind == ReduceKind::min)
    std::fill(acc.begin(), acc.end(), std::numeric_limits<double>::infinity());
  const double* v = x.data<double>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t o = 0;
    for (std::size_t a = 0; a < r; ++a) {
      const int64_t inner = product(shape, a + 1, r);
      const int64_t idx = i / inner % shape[a];
      if (!flags[a]) o = o * shape[a] + idx;
    }
    target[static_cast<std::size_t>(i)] = o;
    auto& a = acc[static_cast<std::size_t>(o)];
    ++count[static_cast<std::size_t>(o)];
    mx[static_cast<std::size_t>(o)] = std::max(mx[static_cast<std::size_t>(o)], v[i]);
    switch (kind) {
      case ReduceKind::max:
        a = std::max(a, v[i]);
        break;
      case ReduceKind::min:
        a = std::min(a, v[i]);
        break;
      case ReduceKind::prod:
        a *= v[i];
        break;
      case ReduceKind::l1:
        a += std::abs(v[i]);
        break;
      case ReduceKind::l2:
      case ReduceKind::sum_square:
        a += v[i] * v[i];
        break;
      case ReduceKind::log_sum_exp:
        break;
      default:
        a += v[i];
    }
  }
  if (kind == ReduceKind::log_sum_exp)
    for (int64_t i = 0; i < x.numel(); ++i) {
      const auto o = static_cast<std::size_t>(target[static_cast<std::size_t>(i)]);
      acc[o] += std::exp(v[i] - mx[o]);
    }
  double* out = y.mutable_data<double>();
  for (int64_t o = 0; o < outs; ++o) {
    const auto k = static_cast<std::size_t>(o);
    switch (kind) {
      case ReduceKind::mean:
        out[o] = acc[k] / static_cast<double>(count[k]);
        break;
      case ReduceKind::l2:
        out[o] = std::sqrt(acc[k]);
        break;
      case ReduceKind::log_sum:
        out[o] = std::log(acc[k]);
        break;
      case ReduceKind::log_sum_exp:
        out[o] = std::isfinite(mx[k]) ? mx[k] + std::log(acc[k]) : mx[k];
        break;
      default:
        out[o] = acc[k];
    }
  }
}

// ---- version adapters -----------------------------------------------------------------

namespace {

// Going down to axes as an attribute: noop_with_empty_axes has no equivalent there, unless
// axes are given (then it changes nothing).
void drop_noop_with_empty_axes(AdapterContext& ctx) {
  const auto noop = ctx.int_attribute("noop_with_empty_axes");
  if (!noop) return;
  if (*noop != 0 && !ctx.has_input(1))
    ctx.refuse("noop_with_empty_axes=1 without axes reduces nothing, which " + ctx.to().id() +
               " cannot say");
  ctx.remove_attribute("noop_with_empty_axes");
  ctx.describe("noop_with_empty_axes dropped");
}

}  // namespace

void add_reduce_adapters(OpDef& op, int axes_input_version) {
  op.at(11).downgrade(convert::nonnegative_axes("axes"));
  op.at(axes_input_version)
      .upgrade(convert::attribute_to_input("axes", 1))
      .downgrade(
          convert::all_of({drop_noop_with_empty_axes, convert::input_to_attribute("axes", 1)}));
}

}  // namespace onnxtool::ops::nn
