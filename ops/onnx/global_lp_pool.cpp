// SPDX-License-Identifier: Apache-2.0
// GlobalLpPool: the ai.onnx operator.
#include "core/convert/adapter.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/pool_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void global_lp_pool_kernel(KernelContext& ctx, const nn::GlobalPoolState& s) {
  nn::global_pool_kernel(ctx, s, nn::PoolKind::lp);
}

// ---- version adapters --------------------------------------------------------------------

// p was a float until version 2 and an int from then on.
void p_float_to_int(AdapterContext& ctx) {
  const auto p = ctx.float_attribute("p");
  if (!p) return;
  if (*p != static_cast<float>(static_cast<int64_t>(*p)))
    ctx.refuse("p=" + std::to_string(*p) + " is not a whole number, which " + ctx.to().id() +
               " needs");
  ctx.set_attribute("p", static_cast<int64_t>(*p));
  ctx.describe("p: float -> int");
}

void p_int_to_float(AdapterContext& ctx) {
  const auto p = ctx.int_attribute("p");
  if (!p) return;
  ctx.set_attribute("p", static_cast<float>(*p));
  ctx.describe("p: int -> float");
}

}  // namespace

void define_GlobalLpPool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("p", AttrType::f, 2.0f)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(2)
      .attr("p", AttrType::i, int64_t{2})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("p", AttrType::i, int64_t{2})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(nn::infer_global_pool)
      .kernel(prepared_kernel(nn::prepare_global_pool, global_lp_pool_kernel));
  op.at(2).upgrade(p_float_to_int).downgrade(p_int_to_float);
  op.all().flops(nn::input_flops(1));
}

}  // namespace onnxtool::ops
