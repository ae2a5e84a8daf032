// SPDX-License-Identifier: Apache-2.0
// GlobalMaxPool: the ai.onnx operator.
#include "ops/onnx/nn_common.h"
#include "ops/onnx/pool_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void global_max_pool_kernel(KernelContext& ctx, const nn::GlobalPoolState& s) {
  nn::global_pool_kernel(ctx, s, nn::PoolKind::max);
}

}  // namespace

void define_GlobalMaxPool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(nn::infer_global_pool)
      .kernel(prepared_kernel(nn::prepare_global_pool, global_max_pool_kernel));
  op.all().flops(nn::input_flops(1));
}

}  // namespace onnxtool::ops
