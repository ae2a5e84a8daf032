// SPDX-License-Identifier: Apache-2.0
// SwiGLU: the ai.onnx operator. Y = A * sigmoid(alpha * A) * B, element-wise on same-shaped A
// and B (no broadcasting).
#include <cmath>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_swiglu(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1});
  const Dims* a = misc::input_dims(ctx, 0);
  const Dims* b = misc::input_dims(ctx, 1);
  std::optional<Dims> shape = a   ? std::optional<Dims>(*a)
                              : b ? std::optional<Dims>(*b)
                                  : std::nullopt;
  if (a && b) {
    if (a->size() != b->size()) infer_fail("A and B must have the same shape (no broadcasting)");
    for (std::size_t i = 0; i < a->size(); ++i)
      (*shape)[i] = ctx.unify_dims((*a)[i], (*b)[i], "A and B dim " + std::to_string(i));
  }
  set_output_tensor(ctx, 0, elem, shape);
}

void swiglu_kernel(KernelContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  misc::require_float(ctx, a, "A");
  if (a.shape() != b.shape() || a.dtype() != b.dtype())
    ctx.fail("A and B must have the same type and shape, got " + shape_to_string(a.shape()) +
             " and " + shape_to_string(b.shape()));
  const double alpha = ctx.attrs().get_float("alpha", 1.0f);
  misc::visit_compute(a.dtype(), [&](auto c) {
    using C = decltype(c);
    std::vector<C> x = misc::values_as<C>(ctx, a, "A");
    const std::vector<C> y = misc::values_as<C>(ctx, b, "B");
    for (std::size_t i = 0; i < x.size(); ++i)
      x[i] = x[i] / (C{1} + std::exp(-static_cast<C>(alpha) * x[i])) * y[i];
    misc::write_output<C>(ctx, 0, a.dtype(), a.shape(), x);
  });
}

}  // namespace

namespace {
// SwiGLU-28 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kSwiGLUBody[] = R"onnx(
<domain: "", opset_import: ["" : 24]>
SwiGLU <alpha> (A, B) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  a_x = CastLike (a, A)
  scaled = Mul (a_x, A)
  gate = Sigmoid (scaled)
  swish = Mul (A, gate)
  Y = Mul (swish, B)
}
)onnx";
}  // namespace

void define_SwiGLU(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(28)
      .is_function({28})
      .attr("alpha", AttrType::f, 1.0f)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(28).function(kSwiGLUBody, 24);
  op.all().infer(infer_swiglu).kernel(swiglu_kernel);
}

}  // namespace onnxtool::ops
