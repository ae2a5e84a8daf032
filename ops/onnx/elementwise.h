// SPDX-License-Identifier: Apache-2.0
// What the element-wise operator families share (unary_math.cpp, activations.cpp,
// binary_math.cpp, comparison.cpp, logical.cpp, where.cpp, cast.cpp): element type lists and
// dispatch, the arithmetic type of narrow floats, numpy and legacy (Add-1/6) broadcasting, and
// the loops that apply a per-element function to whole tensors.
//
// Each operator's file keeps its own per-element function and says which types it takes:
//
//   op.from(7).infer(broadcast_elementwise('+')).kernel(ew::binary_kernel<ew::NumericTypes>(
//       [](auto a, auto b) { return ew::wrap_add(a, b); }));
//
// Loops. The fast path walks the output in rows of the innermost (collapsed) dimension, where
// each input advances by 0 or 1 element: same-shape tensors are one contiguous row, a scalar or a
// per-row operand is a constant or a restarting row, and the compiler vectorises each case;
// large outputs are split across threads. The reference path computes every element's input
// offsets from its multi-index: obviously right, used for strings and by the tests that hold
// the fast path to it.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/kernels/gemm.h"
#include "core/kernels/half.h"
#include "core/registry/fusion.h"
#include "core/types/float_formats.h"
#include "ops/op.h"

namespace onnxtool::ops::ew {

// ---- element types ---------------------------------------------------------------------------

template <class... Ts>
struct Types {};
template <class... A, class... B>
constexpr Types<A..., B...> operator|(Types<A...>, Types<B...>) {
  return {};
}

using FloatTypes = Types<float, double, Float16, BFloat16>;
using SignedIntTypes = Types<int8_t, int16_t, int32_t, int64_t>;
using UnsignedIntTypes = Types<uint8_t, uint16_t, uint32_t, uint64_t>;
using IntTypes = decltype(SignedIntTypes{} | UnsignedIntTypes{});
using NumericTypes = decltype(FloatTypes{} | IntTypes{});
using SignedNumericTypes = decltype(FloatTypes{} | SignedIntTypes{});

// Fails the node: no kernel for element type `t` (the executor has already checked the schema's
// constraints, so this means a type the operator allows but this kernel does not handle).
[[noreturn]] void fail_type(const KernelContext& ctx, DataType t);

// Calls f(T{}) for the C++ element type T in the list that stands for `t`.
template <class... Ts, class F>
void dispatch(const KernelContext& ctx, DataType t, Types<Ts...>, F&& f) {
  const bool done = ((data_type_of<Ts>() == t && (f(Ts{}), true)) || ...);
  if (!done) fail_type(ctx, t);
}

// float16, bfloat16 and the float8/float4 formats: stored as bit patterns, computed in float.
template <class T>
inline constexpr bool is_narrow_v = is_narrow_float_v<T>;

// The type arithmetic runs in: float for the narrow floats (rounded back once per result, as
// the spec allows), the element type itself otherwise.
template <class T>
using compute_t = std::conditional_t<is_narrow_v<T>, float, T>;

template <class T>
inline decltype(auto) load(const T& v) {
  if constexpr (is_narrow_v<T>)
    return to_float(v);
  else
    return (v);  // a reference: strings are not copied
}
template <class T>
inline T store(compute_t<T> v) {
  if constexpr (is_narrow_v<T>)
    return narrow_float<T>(v);
  else
    return v;
}

// Element pointers; string tensors keep their elements apart from the byte storage.
template <class T>
const T* cdata(const Tensor& t) {
  if constexpr (std::is_same_v<T, std::string>)
    return t.strings().data();
  else
    return t.data<T>();
}
template <class T>
T* mdata(Tensor& t) {
  if constexpr (std::is_same_v<T, std::string>)
    return t.mutable_strings().data();
  else
    return t.mutable_data<T>();
}

// Elements per thread chunk: one chunk costs a few microseconds to hand out, so cheap
// functions (an add, a compare) need many elements per chunk and costly ones (exp, erf) fewer.
inline constexpr int64_t kCheapGrain = int64_t{1} << 15;
inline constexpr int64_t kCostlyGrain = int64_t{1} << 11;

// ---- integer arithmetic without undefined behaviour -----------------------------------------
// Signed overflow wraps (two's complement), as numpy and every runtime do; computed on the
// unsigned type because signed overflow is undefined in C++.

template <class T>
inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return static_cast<T>(a + b);
  }
}
template <class T>
inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
  } else {
    return static_cast<T>(a - b);
  }
}
template <class T>
inline T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // uint16 * uint16 promotes to (signed) int and may overflow it: multiply as uint64.
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}
template <class T>
inline T wrap_neg(T a) {
  return wrap_sub(T{0}, a);
}

// ---- numeric conversion with Cast's rules ------------------------------------------------------

// float -> integer. In range: truncation toward zero. Out of range the spec leaves it undefined;
// this gives what x86 hardware (and so numpy) gives, without undefined behaviour in C++: the
// value truncated to int64 and wrapped to the target, with NaN, infinities and values beyond
// int64 becoming INT64_MIN first (uint64 takes [0, 2^64) exactly).
template <class T>
T float_to_int(double x) {
  static_assert(std::is_integral_v<T>);
  constexpr double two63 = 9223372036854775808.0;
  if constexpr (std::is_same_v<T, uint64_t>) {
    if (x >= 0 && x < 2 * two63) return static_cast<uint64_t>(x);
  }
  int64_t v = std::numeric_limits<int64_t>::min();
  if (x > -two63 - 1 && x < two63) v = static_cast<int64_t>(x);  // NaN fails both tests
  return static_cast<T>(v);
}

// Number -> number, as Cast converts between the plain C++ arithmetic types and the narrow floats
// (integers wrap, float -> integer as float_to_int, anything -> bool is "not zero").
template <class To, class From>
To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_narrow_v<From>) {
    return convert<To>(to_float(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From{0};
  } else if constexpr (is_narrow_v<To>) {
    return store<To>(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return float_to_int<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);
  }
}

// ---- broadcasting ----------------------------------------------------------------------------
// The plans and the row walk are core's (core/exec/broadcast.h): the executor's element-wise
// regions walk broadcast operands with them too.
using onnxtool::Broadcast;
using onnxtool::broadcast_shapes;
using onnxtool::plan_broadcast;
using onnxtool::walk_rows;

// Add-1/6 (and the other operators of opset 1 with `broadcast` and `axis` attributes): B
// broadcasts to A only when broadcast=1, either as a one-element tensor or with its shape equal
// to a contiguous run of A's dims starting at `axis` (by default the suffix). Returns B's shape
// written so that numpy broadcasting against A means the same; fail()s otherwise.
Shape legacy_operand_shape(const KernelContext& ctx, const Shape& a, const Shape& b);

enum class Bcast {
  numpy,   // multidirectional, Broadcasting.md
  legacy,  // opset 1-6: B to A under the broadcast/axis attributes
  none,    // Sum/Mean/Max/Min before opset 8: all inputs have one shape
};

// The reference: input k's element offset for output element i, from the multi-index of i.
template <std::size_t N>
std::array<int64_t, N> reference_offsets(const Shape& out, const std::array<const Shape*, N>& ins,
                                         int64_t i) {
  std::array<int64_t, N> off{}, stride{};
  stride.fill(1);
  for (std::size_t d = out.size(); d-- > 0;) {
    const int64_t coord = i % out[d];
    i /= out[d];
    for (std::size_t k = 0; k < N; ++k) {
      const Shape& s = *ins[k];
      const std::size_t lead = out.size() - s.size();
      if (d < lead) continue;
      const int64_t dim = s[d - lead];
      if (dim != 1) off[k] += coord * stride[k];
      stride[k] *= dim;
    }
  }
  return off;
}

// One row of a binary operation, specialised on which operands advance, so that each case is a
// plain loop the compiler vectorises (same shape; scalar or per-row operand on either side).
template <class A, class B, class R, class F>
inline void binary_row(const A* a, int64_t sa, const B* b, int64_t sb, R* r, int64_t n,
                       const F& f) {
  if (sa && sb) {
    for (int64_t i = 0; i < n; ++i) r[i] = f(a[i], b[i]);
  } else if (sa) {
    const B bv = b[0];
    for (int64_t i = 0; i < n; ++i) r[i] = f(a[i], bv);
  } else if (sb) {
    const A av = a[0];
    for (int64_t i = 0; i < n; ++i) r[i] = f(av, b[i]);
  } else {
    const R v = f(a[0], b[0]);
    for (int64_t i = 0; i < n; ++i) r[i] = v;
  }
}

// r = f(a, b) over the plan's output (r may be a itself: each element is read before written).
template <class A, class B, class R, class F>
void binary_loop(const KernelContext& ctx, const Broadcast& p, const A* a, const B* b, R* r,
                 const F& f, int64_t grain) {
  ctx.parallel_for(p.numel, grain, [&](int64_t begin, int64_t end) {
    walk_rows<2>(p, begin, end, [&](const std::array<int64_t, 2>& off, int64_t at, int64_t n) {
      binary_row(a + off[0], p.inner_stride(0), b + off[1], p.inner_stride(1), r + at, n, f);
    });
  });
}

// The same, one element at a time from multi-indices, on the calling thread.
template <class A, class B, class R, class F>
void binary_reference(const Shape& out, const Shape& sa, const Shape& sb, const A* a, const B* b,
                      R* r, const F& f) {
  int64_t n = 1;
  for (int64_t d : out) n *= d;
  const std::array<const Shape*, 2> ins{&sa, &sb};
  for (int64_t i = 0; i < n; ++i) {
    const auto off = reference_offsets<2>(out, ins, i);
    r[i] = f(a[off[0]], b[off[1]]);
  }
}

// y = f(x) element by element (x and y have the same element count).
template <class In, class Out, class F>
void unary_loop(const KernelContext& ctx, const In* x, Out* y, int64_t n, const F& f,
                int64_t grain) {
  ctx.parallel_for(n, grain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) y[i] = f(x[i]);
  });
}

// The narrow floats (float16, bfloat16...) through float in blocks: converted in bulk
// (core/kernels/half.h), f applied, converted back; the values one element at a time would give.
inline constexpr int64_t kNarrowBlock = 512;

template <class T, class F>
void narrow_unary_loop(const KernelContext& ctx, const T* x, T* y, int64_t n, const F& f,
                       int64_t grain) {
  ctx.parallel_for(n, grain, [&](int64_t begin, int64_t end) {
    float buf[kNarrowBlock];
    for (int64_t i = begin; i < end; i += kNarrowBlock) {
      const int64_t len = std::min(kNarrowBlock, end - i);
      kernels::narrow_to_float(x + i, buf, len);
      for (int64_t j = 0; j < len; ++j) buf[j] = f(buf[j]);
      kernels::float_to_narrow(buf, y + i, len);
    }
  });
}

template <class T, class F>
void narrow_binary_loop(const KernelContext& ctx, const Broadcast& p, const T* a, const T* b, T* r,
                        const F& f, int64_t grain) {
  ctx.parallel_for(p.numel, grain, [&](int64_t begin, int64_t end) {
    float fa[kNarrowBlock], fb[kNarrowBlock];
    walk_rows<2>(p, begin, end, [&](const std::array<int64_t, 2>& off, int64_t at, int64_t n) {
      const bool sa = p.inner_stride(0) != 0, sb = p.inner_stride(1) != 0;
      const float a0 = load(a[off[0]]), b0 = load(b[off[1]]);
      for (int64_t j = 0; j < n; j += kNarrowBlock) {
        const int64_t len = std::min(kNarrowBlock, n - j);
        if (sa) kernels::narrow_to_float(a + off[0] + j, fa, len);
        if (sb) kernels::narrow_to_float(b + off[1] + j, fb, len);
        for (int64_t i = 0; i < len; ++i) fa[i] = f(sa ? fa[i] : a0, sb ? fb[i] : b0);
        kernels::float_to_narrow(fa, r + at + j, len);
      }
    });
  });
}

// ---- kernels ---------------------------------------------------------------------------------

// What f gives on Arity arguments of compute_t<T>: the element type R of the output (T, or bool
// for predicates and comparisons).
template <class T, class F, int Arity = 1>
struct Lifted {
  using C = compute_t<T>;
  using result =
      std::decay_t<typename std::conditional_t<Arity == 1, std::invoke_result<const F&, C>,
                                               std::invoke_result<const F&, C, C>>::type>;
  static constexpr bool to_bool = std::is_same_v<result, bool> && !std::is_same_v<T, bool>;
  using R = std::conditional_t<to_bool, bool, T>;
};

// f applied to stored elements, narrow floats converted on the way in and out.
template <class T, class F>
auto lift_unary(const F& f) {
  using R = typename Lifted<T, F>::R;
  return [&f](const T& v) -> R {
    if constexpr (std::is_same_v<R, T>)
      return store<T>(f(load(v)));
    else
      return f(load(v));
  };
}

template <class T, class F>
auto lift_binary(const F& f) {
  using R = typename Lifted<T, F, 2>::R;
  return [&f](const T& x, const T& y) -> R {
    if constexpr (std::is_same_v<R, T>)
      return store<T>(f(load(x), load(y)));
    else
      return f(load(x), load(y));
  };
}

// f applied to every element of input 0, for the element types in L.
template <class L, class F>
void run_unary_kernel(KernelContext& ctx, const F& f, int64_t grain) {
  const Tensor& x = ctx.input(0);
  dispatch(ctx, x.dtype(), L{}, [&](auto tag) {
    using T = decltype(tag);
    using R = typename Lifted<T, F>::R;
    Tensor& y = ctx.output_uninitialized(0, data_type_of<R>(), x.shape());
    if constexpr (is_narrow_v<T> && std::is_same_v<R, T>)
      narrow_unary_loop(ctx, cdata<T>(x), mdata<T>(y), x.numel(), f, grain);
    else
      unary_loop(ctx, cdata<T>(x), mdata<R>(y), x.numel(), lift_unary<T>(f), grain);
  });
}

// A kernel applying make(node)(x) to every element of input 0, for the element types in L. The
// maker reads the attributes (alpha, beta...) once, in the prepare step; unary_kernel wraps a
// plain function.
template <class L, class Make>
PreparedKernel unary_kernel_with(Make make, int64_t grain = kCheapGrain) {
  using F = std::invoke_result_t<Make, const NodeInfo&>;
  return make_prepared_kernel<F>(
      [make](PrepareContext& p) { return make(static_cast<const NodeInfo&>(p)); },
      [grain](KernelContext& ctx, const F& f) { run_unary_kernel<L>(ctx, f, grain); });
}
template <class L, class F>
KernelFn unary_kernel(F f, int64_t grain = kCheapGrain) {
  return [f, grain](KernelContext& ctx) { run_unary_kernel<L>(ctx, f, grain); };
}

// The shapes of inputs 0 and 1 as broadcasting sees them (B re-aligned under `legacy`).
std::pair<Shape, Shape> operand_shapes(const KernelContext& ctx, const Tensor& a, const Tensor& b,
                                       Bcast mode);
// Fails unless inputs 0 and 1 have one element type.
void require_same_type(const KernelContext& ctx, const Tensor& a, const Tensor& b);

// r = f(a, b) for the tensors a and b of element type T, broadcast as `mode` says, into output 0.
template <class T, class F>
void run_binary(KernelContext& ctx, const Tensor& a, const Tensor& b, const F& f, Bcast mode,
                int64_t grain) {
  using R = typename Lifted<T, F, 2>::R;
  const auto [sa, sb] = operand_shapes(ctx, a, b, mode);
  const std::array<const Shape*, 2> shapes{&sa, &sb};
  const Shape out = broadcast_shapes(ctx, shapes);
  Tensor& y = ctx.output_uninitialized(0, data_type_of<R>(), out);
  const auto g = lift_binary<T>(f);
  if constexpr (std::is_same_v<T, std::string>) {
    binary_reference(out, sa, sb, cdata<T>(a), cdata<T>(b), mdata<R>(y), g);
  } else if constexpr (is_narrow_v<T> && std::is_same_v<R, T>) {
    narrow_binary_loop(ctx, plan_broadcast(out, shapes), cdata<T>(a), cdata<T>(b), mdata<T>(y), f,
                       grain);
  } else {
    binary_loop(ctx, plan_broadcast(out, shapes), cdata<T>(a), cdata<T>(b), mdata<R>(y), g, grain);
  }
}

// f(a, b) with broadcasting, for inputs 0 and 1 of one element type in L.
template <class L, class F>
void run_binary_kernel(KernelContext& ctx, const F& f, Bcast mode, int64_t grain) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  require_same_type(ctx, a, b);
  dispatch(ctx, a.dtype(), L{},
           [&](auto tag) { run_binary<decltype(tag)>(ctx, a, b, f, mode, grain); });
}

// A kernel computing make(node)(a, b) with broadcasting, the maker run once in the prepare step.
template <class L, class Make>
PreparedKernel binary_kernel_with(Make make, Bcast mode = Bcast::numpy,
                                  int64_t grain = kCheapGrain) {
  using F = std::invoke_result_t<Make, const NodeInfo&>;
  return make_prepared_kernel<F>(
      [make](PrepareContext& p) { return make(static_cast<const NodeInfo&>(p)); },
      [mode, grain](KernelContext& ctx, const F& f) { run_binary_kernel<L>(ctx, f, mode, grain); });
}
template <class L, class F>
KernelFn binary_kernel(F f, Bcast mode = Bcast::numpy, int64_t grain = kCheapGrain) {
  return [f, mode, grain](KernelContext& ctx) { run_binary_kernel<L>(ctx, f, mode, grain); };
}

// Checks that every input has one shape (Bcast::none) or broadcasts; returns the output shape.
Shape variadic_shape(const KernelContext& ctx, const std::vector<const Tensor*>& ins, Bcast mode);

template <class T, class G, class Finish>
void run_variadic(KernelContext& ctx, const std::vector<const Tensor*>& ins, const G& g, Bcast mode,
                  const Finish& finish) {
  const Shape out = variadic_shape(ctx, ins, mode);
  Tensor& y = ctx.output_uninitialized(0, data_type_of<T>(), out);
  T* r = mdata<T>(y);
  // The first input broadcast into the output, then each further one folded in place.
  const std::array<const Shape*, 1> first{&ins[0]->shape()};
  const Broadcast p0 = plan_broadcast(out, first);
  const T* x0 = cdata<T>(*ins[0]);
  ctx.parallel_for(p0.numel, kCheapGrain, [&](int64_t begin, int64_t end) {
    walk_rows<1>(p0, begin, end, [&](const std::array<int64_t, 1>& off, int64_t at, int64_t n) {
      const int64_t s = p0.inner_stride(0);
      for (int64_t i = 0; i < n; ++i) r[at + i] = x0[off[0] + i * s];
    });
  });
  for (std::size_t k = 1; k < ins.size(); ++k) {
    const std::array<const Shape*, 2> shapes{&out, &ins[k]->shape()};
    binary_loop(ctx, plan_broadcast(out, shapes), r, cdata<T>(*ins[k]), r, g, kCheapGrain);
  }
  finish(ctx, r, y.numel(), static_cast<int64_t>(ins.size()));
}

// Sum, Mean, Max, Min: f folded over every input with broadcasting (or, before opset 8, inputs
// of one shape), then finish(acc, count) applied to each result (Mean divides).
template <class L, class F, class Finish>
KernelFn variadic_kernel(F f, Bcast mode, Finish finish) {
  return [f, mode, finish](KernelContext& ctx) {
    std::vector<const Tensor*> ins;
    for (std::size_t i = 0; i < ctx.num_inputs(); ++i)
      if (ctx.has_input(i)) ins.push_back(&ctx.input(i));
    if (ins.empty()) ctx.fail("needs at least one input");
    for (const Tensor* t : ins) require_same_type(ctx, *ins[0], *t);
    dispatch(ctx, ins[0]->dtype(), L{}, [&](auto tag) {
      using T = decltype(tag);
      run_variadic<T>(ctx, ins, lift_binary<T>(f), mode, finish);
    });
  };
}

// A unary kernel whose float32 path is a vector function over whole arrays (core/kernels/
// vmath.h: position-independent, so any split gives the same bits) and whose other types go
// through `others`.
using VectorF32 = void (*)(const float* x, float* y, int64_t n);
// f32 over float32 input 0 into output 0 (its shape), split across the threads.
inline void run_vector_f32(KernelContext& ctx, VectorF32 f32, int64_t grain) {
  const Tensor& x = ctx.input(0);
  Tensor& y = ctx.output_uninitialized(0, DataType::float32, x.shape());
  const float* src = x.data<float>();
  float* dst = y.mutable_data<float>();
  ctx.parallel_for(x.numel(), grain,
                   [&](int64_t lo, int64_t hi) { f32(src + lo, dst + lo, hi - lo); });
}
inline KernelFn vector_f32_kernel(VectorF32 f32, KernelFn others, int64_t grain) {
  return [f32, others, grain](KernelContext& ctx) {
    if (ctx.input(0).dtype() != DataType::float32) return others(ctx);
    run_vector_f32(ctx, f32, grain);
  };
}

// ---- steps of element-wise regions (core/registry/fusion.h) ---------------------------------
// F is the captureless lambda type the node's kernel applies to float32 elements, so a step and
// the kernel share one per-element function and give the same bits. On x86 the loops are also
// built for AVX2 (run where simd_level() allows it): twice the lanes for the plain arithmetic,
// the same IEEE results (the target enables no FMA, so no product and sum contract into one
// rounding; calls such as std::exp go to the same library function).

template <class F>
void unary_block(const float* x, float* out, int64_t n) {
  const F f{};
  for (int64_t i = 0; i < n; ++i) out[i] = f(x[i]);
}

template <class F>
void binary_block(const float* a, const float* b, float* out, int64_t n) {
  const F f{};
  for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
}

#if defined(__x86_64__)
template <class F>
__attribute__((target("avx2"))) void unary_block_avx2(const float* x, float* out, int64_t n) {
  const F f{};
  for (int64_t i = 0; i < n; ++i) out[i] = f(x[i]);
}

template <class F>
__attribute__((target("avx2"))) void binary_block_avx2(const float* a, const float* b, float* out,
                                                       int64_t n) {
  const F f{};
  for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
}
#endif

template <class F>
void unary_step(const float* const* in, float* out, int64_t n, const float*) {
#if defined(__x86_64__)
  if (kernels::avx2_element_kernels()) return unary_block_avx2<F>(in[0], out, n);
#endif
  unary_block<F>(in[0], out, n);
}

template <class F>
void binary_step(const float* const* in, float* out, int64_t n, const float*) {
#if defined(__x86_64__)
  if (kernels::avx2_element_kernels()) return binary_block_avx2<F>(in[0], in[1], out, n);
#endif
  binary_block<F>(in[0], in[1], out, n);
}

// The step of such a kernel: the same vector function on the block.
template <VectorF32 F>
void vector_step(const float* const* in, float* out, int64_t n, const float*) {
  F(in[0], out, n);
}

// The hook of a node whose step is Step on the listed inputs, with no parameters.
template <ElementwiseStep::Fn Step, std::size_t... Operands>
bool step_on(const FusionNode&, ElementwiseStep& s) {
  s.fn = Step;
  s.operands = {Operands...};
  return true;
}

// y = f(x) on input 0, and y = f(a, b) on inputs 0 and 1.
template <class F>
bool unary_step_hook(const FusionNode& n, ElementwiseStep& s) {
  return step_on<&unary_step<F>, 0>(n, s);
}
template <class F>
bool binary_step_hook(const FusionNode& n, ElementwiseStep& s) {
  return step_on<&binary_step<F>, 0, 1>(n, s);
}

// ---- inference -------------------------------------------------------------------------------

// Output 0's dims under the legacy rule: A's dims, B checked against them (unified with them when
// broadcast=0); nullopt when unknown.
std::optional<Dims> legacy_output_dims(const InferContext& ctx);
// Two inputs of one element type; output 0 of that type (or `out_elem`, BOOL for comparisons) and
// of the broadcast shape. With Bcast::numpy and `values_op` also data propagation (see
// broadcast_elementwise in core/infer/helpers.h).
InferFn infer_binary(Bcast mode, int32_t out_elem = 0, char values_op = 0);
// Sum/Mean/Max/Min: every input of one type; the shapes broadcast (or, Bcast::none, are equal).
InferFn infer_variadic(Bcast mode, char values_op = 0);
// An integer element type (not bool)?
bool is_integer_elem(int32_t elem);

// Reads a one-element tensor input (Clip's min and max) as T; nullopt when absent.
template <class T>
std::optional<T> scalar_input(const KernelContext& ctx, std::size_t i, const char* what) {
  if (!ctx.has_input(i)) return std::nullopt;
  const Tensor& t = ctx.input(i);
  if (t.numel() != 1)
    ctx.fail(std::string(what) + " must be a scalar, but has shape " + shape_to_string(t.shape()));
  if (t.dtype() != data_type_of<T>())
    ctx.fail(std::string(what) + " has element type " + std::string(type_name(t.dtype())) +
             ", expected " + std::string(type_name(data_type_of<T>())));
  return cdata<T>(t)[0];
}

// ---- version adapters ----------------------------------------------------------------------
// Binary operators broadcast the legacy way (B over A's dims from `axis`, broadcast=1) up to
// opset 6 and the numpy way from 7: the steps between the two, for Add, Sub, Mul, Div, Pow, the
// comparisons and the logical operators.
void legacy_to_numpy_broadcast(AdapterContext& ctx);
void numpy_to_legacy_broadcast(AdapterContext& ctx);
// An input's dims when shape inference knew every one of them.
std::optional<std::vector<int64_t>> known_dims(const AdapterContext& ctx, std::size_t input);

}  // namespace onnxtool::ops::ew
