// SPDX-License-Identifier: Apache-2.0
// The activation family of ai.onnx, one row per operator: Relu, LeakyRelu, PRelu, Elu, Selu,
// Celu, Gelu, Sigmoid, HardSigmoid, HardSwish, Mish, Softplus, Softsign, ThresholdedRelu, Swish,
// Clip, Shrink. The output has the input's type and shape; float16 and bfloat16 compute in
// float; attributes are read once per run.
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "core/infer/helpers.h"
#include "ops/onnx/elementwise.h"

namespace onnxtool::ops {

namespace {

using ew::FloatTypes;
using ew::kCostlyGrain;

void define_activation(OpDef& op, KernelFn kernel) {
  op.all().infer(same_as_input()).kernel(kernel);
}

// A kernel for float types whose function reads attributes: make(attrs) gives it.
template <class Make>
KernelFn float_with(Make make, int64_t grain = kCostlyGrain) {
  return ew::unary_kernel_with<FloatTypes>(
      [make](const KernelContext& ctx) { return make(ctx.attrs()); }, grain);
}

template <class F>
KernelFn float_fn(F f, int64_t grain = kCostlyGrain) {
  return ew::unary_kernel<FloatTypes>(f, grain);
}

// 1 / (1 + e^-x) without overflow for large |x|.
template <class C>
C sigmoid(C x) {
  if (x >= C{0}) return C{1} / (C{1} + std::exp(-x));
  const C e = std::exp(x);
  return e / (C{1} + e);
}

// ln(1 + e^x) without overflow for large x.
template <class C>
C softplus(C x) {
  return x > C{0} ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

auto relu_fn = [](auto x) {
  using C = decltype(x);
  return x < C{0} ? C{0} : x;  // NaN stays NaN
};

auto leaky_relu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 0.01f);
  return [alpha](auto x) {
    using C = decltype(x);
    return x < C{0} ? static_cast<C>(alpha) * x : x;
  };
};

auto elu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) {
    using C = decltype(x);
    return x < C{0} ? static_cast<C>(alpha) * std::expm1(x) : x;
  };
};

auto selu = [](const AttrView& a) {
  // The Changelog prints the defaults rounded (1.67326, 1.0507); these are the exact float values
  // the operator defines.
  const float alpha = a.has("alpha") ? a.get_float("alpha") : 1.67326319217681884765625f;
  const float gamma = a.has("gamma") ? a.get_float("gamma") : 1.05070102214813232421875f;
  return [alpha, gamma](auto x) {
    using C = decltype(x);
    const C g = static_cast<C>(gamma);
    return x > C{0} ? g * x : g * static_cast<C>(alpha) * std::expm1(x);
  };
};

// max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
auto celu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) {
    using C = decltype(x);
    if (std::isnan(x)) return x;
    const C al = static_cast<C>(alpha);
    const C e = al * std::expm1(x / al);
    return (x > C{0} ? x : C{0}) + (e < C{0} ? e : C{0});
  };
};

// 0.5 x (1 + erf(x / sqrt 2)), or with approximate="tanh"
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
// approximate: "none" or "tanh"; anything else is an error message.
std::string gelu_mode_error(const AttrView& a) {
  const std::string mode = a.get_string("approximate", "none");
  if (mode == "none" || mode == "tanh") return "";
  return "approximate is \"" + mode + "\", expected \"none\" or \"tanh\"";
}

void infer_gelu(InferContext& ctx) {
  if (auto e = gelu_mode_error(ctx.attrs()); !e.empty()) ctx.fail(e);
  ctx.set_output_type(0, ctx.input_type(0));
}

auto gelu = [](const AttrView& a) {
  if (auto e = gelu_mode_error(a); !e.empty()) throw KernelFailure{e};
  const bool tanh_form = a.get_string("approximate", "none") == "tanh";
  return [tanh_form](auto x) {
    using C = decltype(x);
    if (tanh_form) {
      const C k = static_cast<C>(0.7978845608028654);  // sqrt(2 / pi)
      return C{0.5} * x * (C{1} + std::tanh(k * (x + static_cast<C>(0.044715) * x * x * x)));
    }
    return C{0.5} * x * (C{1} + std::erf(x * static_cast<C>(0.7071067811865476)));
  };
};

auto hard_sigmoid = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 0.2f);
  const float beta = a.get_float("beta", 0.5f);
  return [alpha, beta](auto x) {
    using C = decltype(x);
    const C y = static_cast<C>(alpha) * x + static_cast<C>(beta);
    return y < C{0} ? C{0} : (y > C{1} ? C{1} : y);
  };
};

// x * max(0, min(1, x / 6 + 0.5))
auto hard_swish_fn = [](auto x) {
  using C = decltype(x);
  const C y = x / C{6} + C{0.5};
  return x * (y < C{0} ? C{0} : (y > C{1} ? C{1} : y));
};

auto thresholded_relu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) {
    using C = decltype(x);
    return x > static_cast<C>(alpha) ? x : C{0};
  };
};

auto swish = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) { return x * sigmoid(static_cast<decltype(x)>(alpha) * x); };
};

// ---- PRelu ------------------------------------------------------------------------------------

auto prelu_fn = [](auto x, auto slope) {
  using C = decltype(x);
  if constexpr (std::is_unsigned_v<C>) {
    static_cast<void>(slope);  // an unsigned x is never negative
    return x;
  } else {
    return x < C{0} ? ew::wrap_mul(slope, x) : x;
  }
};

// The shape slope broadcasts as: unidirectionally to X (opset 7 on); before that also the
// common reading of "shared across channels", a 1-D slope of X's channel count (dim 1).
Shape prelu_slope_shape(const KernelContext& ctx, const Shape& x, const Shape& slope, bool legacy) {
  if (legacy && slope.size() == 1 && x.size() >= 2 && slope[0] == x[1] && x.back() != slope[0]) {
    Shape aligned = slope;
    aligned.resize(x.size() - 1, 1);
    return aligned;
  }
  const std::array<const Shape*, 2> shapes{&x, &slope};
  if (ew::broadcast_shapes(ctx, shapes) != x)
    ctx.fail("slope of shape " + shape_to_string(slope) + " does not broadcast to X's shape " +
             shape_to_string(x) + " (unidirectional broadcasting)");
  return slope;
}

KernelFn prelu_kernel(bool legacy) {
  using Types = decltype(FloatTypes{} | ew::Types<int32_t, int64_t, uint32_t, uint64_t>{});
  return [legacy](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& slope = ctx.input(1);
    ew::require_same_type(ctx, x, slope);
    const Shape s = prelu_slope_shape(ctx, x.shape(), slope.shape(), legacy);
    ew::dispatch(ctx, x.dtype(), Types{}, [&](auto tag) {
      using T = decltype(tag);
      Tensor& y = ctx.output(0, x.dtype(), x.shape());
      const std::array<const Shape*, 2> shapes{&x.shape(), &s};
      ew::binary_loop(ctx, ew::plan_broadcast(x.shape(), shapes), ew::cdata<T>(x),
                      ew::cdata<T>(slope), ew::mdata<T>(y), ew::lift_binary<T>(prelu_fn),
                      ew::kCheapGrain);
    });
  };
}

// Output: X's shape; opset 7 on, slope must broadcast to it.
void infer_prelu(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1});
  const auto& x = ctx.input_type(0).shape;
  const auto& slope = ctx.input_type(1).shape;
  if (x && slope && ctx.opset() >= 7) broadcast_to(*x, *slope);
  set_output_tensor(ctx, 0, elem, x);
}

// ---- Clip -------------------------------------------------------------------------------------

// min(max(x, lo), hi): when lo > hi everything becomes hi, NaN stays NaN.
template <class C>
C clip(C x, C lo, C hi) {
  const C y = x < lo ? lo : x;
  return y > hi ? hi : y;
}

template <class T>
void run_clip(KernelContext& ctx, const Tensor& x, ew::compute_t<T> lo, ew::compute_t<T> hi) {
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  ew::unary_loop(ctx, ew::cdata<T>(x), ew::mdata<T>(y), x.numel(),
                 ew::lift_unary<T>([lo, hi](auto v) { return clip(v, lo, hi); }), ew::kCheapGrain);
}

// Clip-1 and Clip-6: bounds are attributes (Clip-1's are optional: no bound when absent).
void clip_attr_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const float lo = ctx.attrs().opt_float("min").value_or(-std::numeric_limits<float>::infinity());
  const float hi = ctx.attrs().opt_float("max").value_or(std::numeric_limits<float>::infinity());
  ew::dispatch(ctx, x.dtype(), FloatTypes{}, [&](auto tag) {
    using T = decltype(tag);
    using C = ew::compute_t<T>;
    run_clip<T>(ctx, x, static_cast<C>(lo), static_cast<C>(hi));
  });
}

// Clip-11 on: bounds are optional scalar inputs of X's type; absent ones do not bound.
void clip_input_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  using Types = decltype(ew::NumericTypes{});
  ew::dispatch(ctx, x.dtype(), Types{}, [&](auto tag) {
    using T = decltype(tag);
    using C = ew::compute_t<T>;
    const auto lo = ew::scalar_input<T>(ctx, 1, "min");
    const auto hi = ew::scalar_input<T>(ctx, 2, "max");
    run_clip<T>(ctx, x, lo ? C(ew::load(*lo)) : std::numeric_limits<C>::lowest(),
                hi ? C(ew::load(*hi)) : std::numeric_limits<C>::max());
  });
}

// min and max, when given, must hold one element.
void infer_clip(InferContext& ctx) {
  for (std::size_t i = 1; i < 3 && i < ctx.num_inputs(); ++i) {
    const auto& s = ctx.input_type(i).shape;
    if (!ctx.has_input(i) || !s) continue;
    for (const Dim& d : *s)
      if (d.is_known() && d.value() != 1)
        ctx.fail(std::string(i == 1 ? "min" : "max") + " must be a scalar, but has shape " +
                 dims_to_string(*s));
  }
  unify_all_input_elem_types(ctx);
  ctx.set_output_type(0, ctx.input_type(0));
}

// ---- Shrink -----------------------------------------------------------------------------------

// x + bias below -lambd, x - bias above lambd, else 0; integers compute in double and convert
// back as Cast does.
auto shrink = [](const AttrView& a) {
  const double lambd = a.get_float("lambd", 0.5f);
  const double bias = a.get_float("bias", 0.0f);
  return [lambd, bias](auto x) {
    using C = decltype(x);
    const auto v = static_cast<double>(x);
    const double y = v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0);
    if constexpr (std::is_integral_v<C>)
      return ew::float_to_int<C>(y);
    else
      return static_cast<C>(y);
  };
};

}  // namespace

void define_Relu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(14)
      .is_function({18})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float)", "tensor(int32)", "tensor(int8)", "tensor(int16)",
                        "tensor(int64)", "tensor(float16)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, ew::unary_kernel<decltype(FloatTypes{} | ew::SignedIntTypes{})>(
                            relu_fn, ew::kCheapGrain));
}

void define_LeakyRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.01f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 0.01f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(16)
      .is_function({16})
      .attr("alpha", AttrType::f, 0.01f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_with(leaky_relu, ew::kCheapGrain));
}

// Opset 7 on: slope broadcasts to X unidirectionally (Broadcasting.md).
void define_PRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .input("X", "T", D::differentiable)
      .input("slope", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(16)
      .is_function({16})
      .input("X", "T", D::differentiable)
      .input("slope", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.from(1, 6).infer(infer_prelu).kernel(prelu_kernel(true));
  op.from(7).infer(infer_prelu).kernel(prelu_kernel(false));
}

void define_Elu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 1.0f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_with(elu));
}

void define_Selu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 1.6732f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr("gamma", AttrType::f, 1.0507f)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 1.67326f)
      .attr("gamma", AttrType::f, 1.0507f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 1.67326f)
      .attr("gamma", AttrType::f, 1.0507f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_with(selu));
}

void define_Celu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float)"});
  op.since(28)
      .is_function({28})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_with(celu));
}

void define_Gelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .is_function({20})
      .attr("approximate", AttrType::s, "none")
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_gelu).kernel(float_with(gelu));
}

void define_Sigmoid(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_fn([](auto x) { return sigmoid(x); }));
}

void define_HardSigmoid(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_with(hard_sigmoid, ew::kCheapGrain));
}

void define_HardSwish(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(14)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({22})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_fn(hard_swish_fn, ew::kCheapGrain));
}

// x * tanh(softplus(x))
void define_Mish(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({22})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_fn([](auto x) { return x * std::tanh(softplus(x)); }));
}

void define_Softplus(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_fn([](auto x) { return softplus(x); }));
}

// x / (1 + |x|)
void define_Softsign(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(
      op, float_fn([](auto x) { return x / (decltype(x){1} + std::fabs(x)); }, ew::kCheapGrain));
}

void define_ThresholdedRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_with(thresholded_relu, ew::kCheapGrain));
}

// x * sigmoid(alpha * x)
void define_Swish(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(24)
      .is_function({24})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(bfloat16)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_activation(op, float_with(swish));
}

// Clip-1/6 take the bounds as attributes, Clip-11 on as optional inputs (12 on: integers too).
void define_Clip(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr_optional("max", AttrType::f)
      .attr_optional("min", AttrType::f)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("max", AttrType::f, 3.40282347e+38f)  // the spec prints max() of float as (3.402823e+38)
      .attr("min", AttrType::f, -3.40282347e+38f)  // the spec prints lowest() of float as (-3.402823e+38)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .input("input", "T")
      .input_optional("min", "T")
      .input_optional("max", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .input("input", "T")
      .input_optional("min", "T")
      .input_optional("max", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .is_function({13})
      .input("input", "T", D::differentiable)
      .input_optional("min", "T", D::non_differentiable)
      .input_optional("max", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.from(1, 6).infer(same_as_input()).kernel(clip_attr_kernel);
  op.from(11).infer(infer_clip).kernel(clip_input_kernel);
}

void define_Shrink(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .is_function({18})
      .attr("bias", AttrType::f, 0.0f)
      .attr("lambd", AttrType::f, 0.5f)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(same_as_input())
      .kernel(ew::unary_kernel_with<ew::NumericTypes>(
          [](const KernelContext& ctx) { return shrink(ctx.attrs()); }));
}

}  // namespace onnxtool::ops
