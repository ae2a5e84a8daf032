// SPDX-License-Identifier: Apache-2.0
// QLinearMatMul: the ai.onnx operator. The int32 product (a - a_zero_point) x (b - b_zero_point)
// (numpy.matmul's promotion and batch broadcasting) requantized:
//   y = saturate(round_half_even(acc * (a_scale * b_scale / y_scale)) + y_zero_point),
// the multiplier computed in the scales' type as the reference does. a's scale and zero point are
// per tensor or per row ([M] or [..., M, 1]), b's per tensor or per column ([N] or [..., 1, N]),
// y_scale and y_zero_point per tensor.
#include "ops/onnx/integer_common.h"
#include "ops/onnx/misc_common.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

using integer::ParamAxis;

void infer_qlinear_matmul(InferContext& ctx) {
  set_output_tensor(ctx, 0, ctx.input_elem_type(7), integer::infer_matmul_shape(ctx, 0, 3));
}

void qlinear_matmul_kernel(KernelContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& a_scale = ctx.input(1);
  const Tensor& b = ctx.input(3);
  const Tensor& b_scale = ctx.input(4);
  const Tensor& y_scale = ctx.input(6);
  const Tensor& y_zero = ctx.input(7);
  if (a_scale.dtype() != b_scale.dtype() || a_scale.dtype() != y_scale.dtype())
    ctx.fail("a_scale, b_scale and y_scale must have the same element type");
  const integer::MatmulPlan p = integer::plan_matmul(ctx, a.shape(), b.shape());
  std::vector<int32_t> acc(static_cast<std::size_t>(nn::product(p.full, 0, p.full.size())));
  integer::matmul_int32(ctx, p, a, &ctx.input(2), b, &ctx.input(5), acc.data());
  // The parameters index the product's [batch..., M, N] layout: a's through its rows, b's
  // through its columns; y's broadcast onto the product as a whole.
  const integer::ParamIndex ai(ctx, p.full, a_scale.shape(), ParamAxis::rows, "a_scale");
  const integer::ParamIndex bi(ctx, p.full, b_scale.shape(), ParamAxis::columns, "b_scale");
  const integer::ParamIndex yi(ctx, p.full, y_scale.shape(), ParamAxis::columns, "y_scale");
  const integer::ParamIndex zi(ctx, p.full, y_zero.shape(), ParamAxis::columns, "y_zero_point");
  const auto av = integer::scale_values(ctx, a_scale, "a_scale");
  const auto bv = integer::scale_values(ctx, b_scale, "b_scale");
  const auto yv = integer::scale_values(ctx, y_scale, "y_scale");
  const auto zv = misc::values_as<double>(ctx, y_zero, "y_zero_point");
  auto at = [](const std::vector<double>& v, int64_t i) { return v[static_cast<std::size_t>(i)]; };
  Tensor& y = ctx.output(0, y_zero.dtype(), p.out);
  integer::requantize(
      ctx, acc,
      [&](int64_t i) {
        return integer::scale_product(at(av, ai(i)), at(bv, bi(i)), at(yv, yi(i)), a_scale.dtype());
      },
      [&](int64_t i) { return at(zv, zi(i)); }, y);
}

}  // namespace

void define_QLinearMatMul(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("a", "T1", D::non_differentiable)
      .input("a_scale", "tensor(float)", D::non_differentiable)
      .input("a_zero_point", "T1", D::non_differentiable)
      .input("b", "T2", D::non_differentiable)
      .input("b_scale", "tensor(float)", D::non_differentiable)
      .input("b_zero_point", "T2", D::non_differentiable)
      .input("y_scale", "tensor(float)", D::non_differentiable)
      .input("y_zero_point", "T3", D::non_differentiable)
      .output("y", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)"});
  op.since(21)
      .input("a", "T1", D::non_differentiable)
      .input("a_scale", "TS", D::non_differentiable)
      .input("a_zero_point", "T1", D::non_differentiable)
      .input("b", "T2", D::non_differentiable)
      .input("b_scale", "TS", D::non_differentiable)
      .input("b_zero_point", "T2", D::non_differentiable)
      .input("y_scale", "TS", D::non_differentiable)
      .input("y_zero_point", "T3", D::non_differentiable)
      .output("y", "T3", D::non_differentiable)
      .constraint("TS", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(infer_qlinear_matmul)
      .kernel(qlinear_matmul_kernel)
      .macs([](const WorkShapes& s, const AttrView&) { return nn::product_macs(s, 0); });
}

}  // namespace onnxtool::ops
