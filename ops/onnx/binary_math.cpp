// SPDX-License-Identifier: Apache-2.0
// The binary and variadic arithmetic family of ai.onnx, one row per operator: Add, Sub, Mul,
// Div, Pow, Mod (two inputs) and Sum, Mean, Max, Min (one or more). Opset 7 on (8 for the
// variadic ones) inputs broadcast as numpy does; before that Add/Sub/Mul/Div/Pow broadcast B to A
// under their `broadcast` and `axis` attributes, and Sum/Mean/Max/Min take equal shapes.
// Integers wrap on overflow; integer division truncates toward zero and fails on a zero divisor.
// Add, Sub, Mul, Div (integers), Max and Min also propagate shape values (data propagation).
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/registry/fusion.h"
#include "ops/onnx/elementwise.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

using ew::Bcast;
using ew::NumericTypes;

// ---- channel-affine fusion (core/registry/fusion.h) ------------------------------------------

// x op B for a constant float B that is 1 along every axis but at most one: its values, and
// where that axis is (counted from the end; 0 when B is one value for all).
bool per_channel_operand(const FusionNode& n, ChannelAffine& out, std::vector<double>& values) {
  if (n.constants.size() != 2 || n.constants[0] || !n.constants[1]) return false;
  const Tensor& b = *n.constants[1];
  if (!is_float(b.dtype()) || b.numel() == 0) return false;
  int64_t axis = -1;
  for (int64_t i = 0; i < b.rank(); ++i) {
    if (b.shape()[static_cast<std::size_t>(i)] == 1) continue;
    if (axis >= 0) return false;
    axis = i;
  }
  out.operand_rank = b.rank();
  out.axis_from_end = axis < 0 ? 0 : b.rank() - axis;
  values = nn::doubles_of(b);
  return true;
}

// x + s * B: Add (s = 1) and Sub (s = -1).
template <int Sign>
bool shift_channel_affine(const FusionNode& n, ChannelAffine& out) {
  std::vector<double> b;
  if (!per_channel_operand(n, out, b)) return false;
  out.scale = {1.0};
  out.shift = std::move(b);
  for (double& v : out.shift) v *= Sign;
  return true;
}

bool scale_channel_affine(const FusionNode& n, ChannelAffine& out) {
  std::vector<double> b;
  if (!per_channel_operand(n, out, b)) return false;
  out.scale = std::move(b);
  out.shift = {0.0};
  return true;
}

// Two-input arithmetic: legacy broadcasting through opset 6, numpy's from 7, one kernel.
template <class L, class F>
void define_arith(OpDef& op, F f, InferFn numpy_infer) {
  const KernelFn legacy = ew::binary_kernel<L>(f, Bcast::legacy);
  const KernelFn numpy = ew::binary_kernel<L>(f, Bcast::numpy);
  op.from(1, 6).infer(ew::infer_binary(Bcast::legacy)).kernel(legacy);
  op.from(7).infer(numpy_infer).kernel(numpy);
  op.from(7).elementwise_step(ew::binary_step_hook<F>);
  op.all().trait(Trait::elementwise).trait(Trait::float_generic);
  op.at(7).upgrade(ew::legacy_to_numpy_broadcast).downgrade(ew::numpy_to_legacy_broadcast);
}

// Down to 7: Sum, Mean, Max and Min did not broadcast before 8; every input must have the
// same shape.
void same_shapes_before_8(AdapterContext& ctx) {
  std::optional<std::vector<int64_t>> first;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const auto dims = ew::known_dims(ctx, i);
    if (!dims)
      ctx.refuse("before opset 8 every input has the same shape, and input " + std::to_string(i) +
                 "'s is not known");
    if (!first) first = dims;
    if (*dims != *first)
      ctx.refuse("input " + std::to_string(i) + " would broadcast, which " + ctx.to().id() +
                 " does not");
  }
}

auto add_fn = [](auto a, auto b) { return ew::wrap_add(a, b); };
auto sub_fn = [](auto a, auto b) { return ew::wrap_sub(a, b); };
auto mul_fn = [](auto a, auto b) { return ew::wrap_mul(a, b); };

// Integers truncate toward zero (as C, and numpy's true division cast back, do); INT_MIN / -1
// wraps to INT_MIN; a zero divisor is an error rather than undefined behaviour.
auto div_fn = [](auto a, auto b) {
  using C = decltype(a);
  if constexpr (std::is_integral_v<C>) {
    if (b == C{0}) throw KernelFailure{"integer division by zero"};
    if constexpr (std::is_signed_v<C>)
      if (b == C{-1}) return ew::wrap_neg(a);
    return static_cast<C>(a / b);
  } else {
    return a / b;
  }
};

// Integer shape values divide too, float ones do not (their quotient need not be whole).
void infer_div(InferContext& ctx) {
  const int32_t elem = unify_all_input_elem_types(ctx);
  set_output_tensor(ctx, 0, elem, broadcast_input_shapes(ctx));
  if (ew::is_integer_elem(elem)) propagate_binary_values(ctx, '/');
}

// fmod=0: the remainder has the divisor's sign (Python's %); fmod=1: the dividend's (C's fmod).
template <class C>
C mod_value(C a, C b, bool fmod) {
  if constexpr (std::is_integral_v<C>) {
    if (b == C{0}) throw KernelFailure{"integer modulo by zero"};
    if constexpr (std::is_signed_v<C>) {
      if (b == C{-1}) return C{0};  // INT_MIN % -1 would overflow
      C r = static_cast<C>(a % b);
      if (!fmod && r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
      return r;
    } else {
      static_cast<void>(fmod);  // unsigned: both rules agree
      return static_cast<C>(a % b);
    }
  } else {
    C r = std::fmod(a, b);
    if (!fmod && r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  }
}

auto mod_with = [](const NodeInfo& ctx) {
  const bool fmod = ctx.attrs().get_int("fmod", 0) != 0;
  return [fmod](auto a, auto b) { return mod_value(a, b, fmod); };
};

// ---- Pow --------------------------------------------------------------------------------------

// x^y for integers, exactly and wrapping; a negative exponent truncates 1/x^|y| toward zero.
template <class X, class Y>
X int_pow(X x, Y y) {
  if constexpr (std::is_signed_v<Y>) {
    if (y < 0) {
      if (x == X{1}) return X{1};
      if constexpr (std::is_signed_v<X>)
        if (x == X{-1}) return (y % 2) ? X{-1} : X{1};
      if (x == X{0}) throw KernelFailure{"zero raised to a negative integer power"};
      return X{0};
    }
  }
  X result{1};
  auto e = static_cast<uint64_t>(y);
  for (X base = x; e; e >>= 1, base = ew::wrap_mul(base, base))
    if (e & 1) result = ew::wrap_mul(result, base);
  return result;
}

// One element: integers exactly; a float base with an exponent of its own type in that type;
// mixed types in double (as numpy promotes them), cast back to the base's type.
template <class X, class Y>
X pow_value(const X& xs, const Y& ys) {
  const auto x = ew::load(xs);
  const auto y = ew::load(ys);
  using CX = std::decay_t<decltype(x)>;
  using CY = std::decay_t<decltype(y)>;
  if constexpr (std::is_integral_v<CX> && std::is_integral_v<CY>) {
    return int_pow(x, y);
  } else if constexpr (std::is_same_v<CX, CY>) {
    return ew::store<X>(std::pow(x, y));
  } else {
    const double r = std::pow(static_cast<double>(x), static_cast<double>(y));
    if constexpr (std::is_integral_v<CX>)
      return ew::float_to_int<CX>(r);
    else
      return ew::store<X>(static_cast<CX>(r));
  }
}

template <class X, class Y>
void run_pow(KernelContext& ctx, const Tensor& x, const Tensor& y, Bcast mode) {
  const auto [sx, sy] = ew::operand_shapes(ctx, x, y, mode);
  const std::array<const Shape*, 2> shapes{&sx, &sy};
  const Shape out = ew::broadcast_shapes(ctx, shapes);
  Tensor& z = ctx.output(0, x.dtype(), out);
  const ew::Broadcast p = ew::plan_broadcast(out, shapes);
  const X* xs = ew::cdata<X>(x);
  X* zs = ew::mdata<X>(z);
  if constexpr (std::is_floating_point_v<X> && std::is_same_v<X, Y>) {
    // x^2 (variances, norms) is exactly x*x: skip pow's cost.
    if (y.numel() == 1 && ew::cdata<Y>(y)[0] == Y{2}) {
      const std::array<const Shape*, 2> twice{&sx, &sx};
      ew::binary_loop(
          ctx, ew::plan_broadcast(out, twice), xs, xs, zs, [](X a, X) { return a * a; },
          ew::kCheapGrain);
      return;
    }
  }
  ew::binary_loop(ctx, p, xs, ew::cdata<Y>(y), zs, pow_value<X, Y>, ew::kCostlyGrain);
}

// Pow's step, for a constant float32 scalar exponent (params[0]): x*x for 2, as the kernel
// computes it, else the float pow the kernel calls. An exponent of another type, or one that is
// not a constant, is left to the kernel (its arithmetic then depends on the run).
void pow_step(const float* const* in, float* out, int64_t n, const float* params) {
  const float* x = in[0];
  const float y = params[0];
  if (y == 2.0f) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] * x[i];
    return;
  }
  for (int64_t i = 0; i < n; ++i) out[i] = pow_value<float, float>(x[i], y);
}

bool pow_step_hook(const FusionNode& n, ElementwiseStep& s) {
  const Tensor* y = n.constants.size() == 2 ? n.constants[1] : nullptr;
  if (!y || y->dtype() != DataType::float32 || y->numel() != 1) return false;
  s.fn = pow_step;
  s.operands = {0};
  s.params = {y->data<float>()[0]};
  return true;
}

KernelFn pow_kernel(Bcast mode) {
  using Bases = ew::Types<int32_t, int64_t, float, double, Float16, BFloat16>;
  return [mode](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& y = ctx.input(1);
    if (mode == Bcast::legacy) ew::require_same_type(ctx, x, y);
    ew::dispatch(ctx, x.dtype(), Bases{}, [&](auto xt) {
      ew::dispatch(ctx, y.dtype(), NumericTypes{},
                   [&](auto yt) { run_pow<decltype(xt), decltype(yt)>(ctx, x, y, mode); });
    });
  };
}

// Output: X's element type (Pow-12 on lets Y's differ), the broadcast shape.
void infer_pow(InferContext& ctx) {
  if (ctx.opset() < 12) unify_input_elem_types(ctx, {0, 1});
  set_output_tensor(ctx, 0, ctx.input_elem_type(0),
                    ctx.opset() < 7 ? ew::legacy_output_dims(ctx) : broadcast_input_shapes(ctx));
}

// ---- Sum, Mean, Max, Min ----------------------------------------------------------------------

auto no_finish = [](KernelContext&, auto*, int64_t, int64_t) {};

// NaN wins, as in numpy's maximum and minimum.
template <bool Max>
auto extreme_fn = [](auto a, auto b) {
  using C = decltype(a);
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  if constexpr (Max)
    return a < b ? b : a;
  else
    return b < a ? b : a;
};

// For the executor's residual fusion (core/registry/fusion.h): the node adds its two inputs,
// element by element (the pass checks that their shapes are equal).
bool adds_two_inputs(const FusionNode& n) {
  return n.input_named.size() == 2 && n.input_named[0] && n.input_named[1];
}

template <class L, class F, class Finish>
void define_variadic(OpDef& op, F f, Finish finish, char values_op) {
  op.from(1, 7)
      .infer(ew::infer_variadic(Bcast::none))
      .kernel(ew::variadic_kernel<L>(f, Bcast::none, finish));
  op.from(8)
      .infer(ew::infer_variadic(Bcast::numpy, values_op))
      .kernel(ew::variadic_kernel<L>(f, Bcast::numpy, finish));
  op.all().trait(Trait::elementwise).trait(Trait::float_generic);
  op.at(8).downgrade(same_shapes_before_8);
}

// Mean: the sum divided by the number of inputs.
auto mean_finish = [](KernelContext& ctx, auto* r, int64_t n, int64_t count) {
  using T = std::remove_pointer_t<decltype(r)>;
  using C = ew::compute_t<T>;
  // Divided, not multiplied by 1/count: the reciprocal's rounding would show in the last bit.
  const auto divisor = static_cast<C>(count);
  ew::unary_loop(
      ctx, r, r, n, [divisor](const T& v) { return ew::store<T>(ew::load(v) / divisor); },
      ew::kCheapGrain);
};

}  // namespace

void define_Add(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(14)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_arith<NumericTypes>(op, add_fn, broadcast_elementwise('+'));
  op.from(7).channel_affine(shift_channel_affine<1>);
  op.all().residual_add(adds_two_inputs);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Sub(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(14)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_arith<NumericTypes>(op, sub_fn, broadcast_elementwise('-'));
  op.from(7).channel_affine(shift_channel_affine<-1>);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Mul(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(14)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_arith<NumericTypes>(op, mul_fn, broadcast_elementwise('*'));
  op.from(7).channel_affine(scale_channel_affine);
  op.from(7).multiplies([](const FusionNode&) { return true; });
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Div(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(14)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_arith<NumericTypes>(op, div_fn, infer_div);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

// X's type is the result's; Y may be any numeric type from Pow-12 on.
void define_Pow(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("X", "T")
      .input("Y", "T")
      .output("Z", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("X", "T")
      .input("Y", "T")
      .output("Z", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .input("X", "T")
      .input("Y", "T1")
      .output("Z", "T")
      .constraint("T", {"tensor(int32)", "tensor(int64)", "tensor(float16)", "tensor(float)",
                        "tensor(double)"})
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .input("Y", "T1", D::differentiable)
      .output("Z", "T", D::differentiable)
      .constraint("T", {"tensor(int32)", "tensor(int64)", "tensor(float16)", "tensor(float)",
                        "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(15)
      .input("X", "T", D::differentiable)
      .input("Y", "T1", D::differentiable)
      .output("Z", "T", D::differentiable)
      .constraint("T", {"tensor(int32)", "tensor(int64)", "tensor(float16)", "tensor(float)",
                        "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.from(1, 6).infer(infer_pow).kernel(pow_kernel(Bcast::legacy));
  op.from(7).infer(infer_pow).kernel(pow_kernel(Bcast::numpy));
  op.from(7).elementwise_step(pow_step_hook);
  op.at(7).upgrade(ew::legacy_to_numpy_broadcast).downgrade(ew::numpy_to_legacy_broadcast);
}

void define_Mod(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("fmod", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("fmod", AttrType::i, int64_t{0})
      .input("A", "T", D::differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(broadcast_elementwise()).kernel(ew::binary_kernel_with<NumericTypes>(mod_with));
}

void define_Sum(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input_variadic("data_0", "T", 1)
      .output("sum", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input_variadic("data_0", "T", 1)
      .output("sum", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(8)
      .input_variadic("data_0", "T", 1)
      .output("sum", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input_variadic("data_0", "T", 1, true, D::differentiable)
      .output("sum", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_variadic<ew::FloatTypes>(op, add_fn, no_finish, 0);
  op.all().residual_add(adds_two_inputs);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Mean(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input_variadic("data_0", "T", 1)
      .output("mean", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input_variadic("data_0", "T", 1)
      .output("mean", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(8)
      .input_variadic("data_0", "T", 1)
      .output("mean", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input_variadic("data_0", "T", 1, true, D::differentiable)
      .output("mean", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_variadic<ew::FloatTypes>(op, add_fn, mean_finish, 0);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Max(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input_variadic("data_0", "T", 1)
      .output("max", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input_variadic("data_0", "T", 1)
      .output("max", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(8)
      .input_variadic("data_0", "T", 1)
      .output("max", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .input_variadic("data_0", "T", 1)
      .output("max", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input_variadic("data_0", "T", 1, true, D::differentiable)
      .output("max", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_variadic<NumericTypes>(op, extreme_fn<true>, no_finish, 'M');
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Min(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input_variadic("data_0", "T", 1)
      .output("min", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input_variadic("data_0", "T", 1)
      .output("min", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(8)
      .input_variadic("data_0", "T", 1)
      .output("min", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .input_variadic("data_0", "T", 1)
      .output("min", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input_variadic("data_0", "T", 1, true, D::differentiable)
      .output("min", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_variadic<NumericTypes>(op, extreme_fn<false>, no_finish, 'm');
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

}  // namespace onnxtool::ops
