// SPDX-License-Identifier: Apache-2.0
// MatMulInteger: the ai.onnx operator. Y = (A - a_zero_point) x (B - b_zero_point) in int32 with
// numpy.matmul's promotion and batch broadcasting. a_zero_point is per tensor or per row of A
// ([M] or [..., M, 1]); b_zero_point per tensor or per column of B ([N] or [..., 1, N]).
#include "ops/onnx/integer_common.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

void infer_matmul_integer(InferContext& ctx) {
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::int32),
                    integer::infer_matmul_shape(ctx, 0, 1));
}

void matmul_integer_kernel(KernelContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  const Tensor* a_zero = ctx.num_inputs() > 2 && ctx.has_input(2) ? &ctx.input(2) : nullptr;
  const Tensor* b_zero = ctx.num_inputs() > 3 && ctx.has_input(3) ? &ctx.input(3) : nullptr;
  const integer::MatmulPlan p = integer::plan_matmul(ctx, a.shape(), b.shape());
  Tensor& out = ctx.output_uninitialized(0, DataType::int32, p.out);
  integer::matmul_int32(ctx, p, a, a_zero, b, b_zero, out.mutable_data<int32_t>());
}

}  // namespace

void define_MatMulInteger(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("A", "T1", D::non_differentiable)
      .input("B", "T2", D::non_differentiable)
      .input_optional("a_zero_point", "T1", D::non_differentiable)
      .input_optional("b_zero_point", "T2", D::non_differentiable)
      .output("Y", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T3", {"tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(infer_matmul_integer)
      .kernel(matmul_integer_kernel)
      .macs([](const WorkShapes& s, const AttrView&) { return nn::product_macs(s, 0); });
}

}  // namespace onnxtool::ops
