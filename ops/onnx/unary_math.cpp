// SPDX-License-Identifier: Apache-2.0
// The unary math family of ai.onnx, one row per operator: Abs, Neg, Reciprocal, Sqrt, Exp, Log,
// Floor, Ceil, Round, Sign, Erf, the trigonometric and hyperbolic functions, IsNaN, IsInf, Not,
// BitwiseNot. Every version of each keeps its shape (IsNaN and IsInf give bool); the kernels
// compute float16 and bfloat16 in float.
#include <cmath>
#include <type_traits>

#include "core/infer/helpers.h"
#include "core/kernels/vmath.h"
#include "ops/onnx/elementwise.h"

namespace onnxtool::ops {

namespace {

using ew::FloatTypes;
using ew::kCostlyGrain;

// IsNaN-20 and IsInf-20 also take the float8 formats.
using Float8Types = ew::Types<Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ>;
using PredicateTypes = decltype(FloatTypes{} | Float8Types{});

// Unary operators whose output has the input's type and shape.
void define_unary(OpDef& op, KernelFn kernel) {
  op.all()
      .infer(same_as_input())
      .kernel(kernel)
      .trait(Trait::elementwise)
      .trait(Trait::float_generic);
}

template <class F>
KernelFn float_fn(F f, int64_t grain = ew::kCheapGrain) {
  return ew::unary_kernel<FloatTypes>(f, grain);
}

// A float-only unary operator: f is its kernel's function, and its step in element-wise regions.
template <class F>
void define_float_unary(OpDef& op, F f, int64_t grain = ew::kCheapGrain) {
  define_unary(op, float_fn(f, grain));
  op.all().elementwise_step(ew::unary_step_hook<F>);
}

// Output: bool of the input's shape.
void infer_predicate(InferContext& ctx) {
  propagate_shape(ctx, 0, 0, static_cast<int32_t>(DataType::boolean));
}

auto abs_fn = [](auto x) {
  using T = decltype(x);
  if constexpr (std::is_unsigned_v<T>)
    return x;
  else if constexpr (std::is_integral_v<T>)
    return x < 0 ? ew::wrap_neg(x) : x;
  else
    return std::fabs(x);
};

auto neg_fn = [](auto x) { return ew::wrap_neg(x); };

// 1, -1 or 0; NaN stays NaN (and -0 stays -0) because it is returned as it is.
auto sign_fn = [](auto x) {
  using T = decltype(x);
  if constexpr (std::is_unsigned_v<T>)
    return x > T{0} ? T{1} : T{0};
  else
    return x > T{0} ? T{1} : x < T{0} ? static_cast<T>(-1) : x;
};

auto isinf_with = [](const NodeInfo& ctx) {
  const bool pos = ctx.attrs().get_int("detect_positive", 1) != 0;
  const bool neg = ctx.attrs().get_int("detect_negative", 1) != 0;
  return [pos, neg](auto x) { return std::isinf(x) && (x > 0 ? pos : neg); };
};

}  // namespace

void define_Abs(OpDef& op) {
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
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_unary(op, ew::unary_kernel<ew::NumericTypes>(abs_fn));
  op.all().elementwise_step(ew::unary_step_hook<decltype(abs_fn)>);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Neg(OpDef& op) {
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
      .constraint("T", {"tensor(float)", "tensor(int32)", "tensor(int8)", "tensor(int16)",
                        "tensor(int64)", "tensor(float16)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float)", "tensor(int32)", "tensor(int8)", "tensor(int16)",
                        "tensor(int64)", "tensor(float16)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_unary(op, ew::unary_kernel<ew::SignedNumericTypes>(neg_fn));
  op.all().elementwise_step(ew::unary_step_hook<decltype(neg_fn)>);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Reciprocal(OpDef& op) {
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
  define_float_unary(op, [](auto x) { return decltype(x){1} / x; });
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Sqrt(OpDef& op) {
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
  define_float_unary(op, [](auto x) { return std::sqrt(x); });
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Exp(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  // float32 on the vector e^x (core/kernels/vmath.h, Softmax's and Sigmoid's); the other
  // types element by element.
  define_unary(op, ew::vector_f32_kernel(kernels::exp_f32,
                                         float_fn([](auto x) { return std::exp(x); }, kCostlyGrain),
                                         ew::kCheapGrain));
  op.all().elementwise_step(ew::step_on<&ew::vector_step<kernels::exp_f32>, 0>);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Log(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::log(x); }, kCostlyGrain);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Floor(OpDef& op) {
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
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(op, [](auto x) { return std::floor(x); });
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Ceil(OpDef& op) {
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
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(op, [](auto x) { return std::ceil(x); });
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

// Halves go to the even neighbour: nearbyint in the default rounding mode.
void define_Round(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(op, [](auto x) { return std::nearbyint(x); });
}

void define_Sign(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("input", "T", D::non_differentiable)
      .output("output", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  define_unary(op, ew::unary_kernel<ew::NumericTypes>(sign_fn));
}

void define_Erf(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  // float32 on the vector erf (core/kernels/vmath.h); the other types element by element.
  define_unary(op, ew::vector_f32_kernel(kernels::erf_f32,
                                         float_fn([](auto x) { return std::erf(x); }, kCostlyGrain),
                                         ew::kCheapGrain));
  op.all().elementwise_step(ew::step_on<&ew::vector_step<kernels::erf_f32>, 0>);
}

void define_Sin(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::sin(x); }, kCostlyGrain);
}

void define_Cos(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::cos(x); }, kCostlyGrain);
}

void define_Tan(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::tan(x); }, kCostlyGrain);
}

void define_Asin(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::asin(x); }, kCostlyGrain);
}

void define_Acos(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::acos(x); }, kCostlyGrain);
}

void define_Atan(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::atan(x); }, kCostlyGrain);
}

void define_Sinh(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::sinh(x); }, kCostlyGrain);
}

void define_Cosh(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::cosh(x); }, kCostlyGrain);
}

void define_Tanh(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  // float32 on the vector tanh (core/kernels/vmath.h); the other types element by element.
  define_unary(op,
               ew::vector_f32_kernel(kernels::tanh_f32,
                                     float_fn([](auto x) { return std::tanh(x); }, kCostlyGrain),
                                     ew::kCheapGrain));
  op.all().elementwise_step(ew::step_on<&ew::vector_step<kernels::tanh_f32>, 0>);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

void define_Asinh(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::asinh(x); }, kCostlyGrain);
}

void define_Acosh(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::acosh(x); }, kCostlyGrain);
}

void define_Atanh(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  define_float_unary(
      op, [](auto x) { return std::atanh(x); }, kCostlyGrain);
}

void define_IsNaN(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(13)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(20)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_predicate).kernel(ew::unary_kernel<PredicateTypes>([](auto x) {
    return std::isnan(x);
  }));
}

// detect_positive / detect_negative (default 1) pick which infinities count.
void define_IsInf(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("detect_negative", AttrType::i, int64_t{1})
      .attr("detect_positive", AttrType::i, int64_t{1})
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(20)
      .attr("detect_negative", AttrType::i, int64_t{1})
      .attr("detect_positive", AttrType::i, int64_t{1})
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_predicate).kernel(ew::unary_kernel_with<PredicateTypes>(isinf_with));
}

void define_Not(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .constraint("T", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  define_unary(op, ew::unary_kernel<ew::Types<bool>>([](bool x) { return !x; }));
}

void define_BitwiseNot(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  define_unary(op, ew::unary_kernel<ew::IntTypes>([](auto x) { return decltype(x)(~x); }));
}

}  // namespace onnxtool::ops
