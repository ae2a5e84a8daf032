// SPDX-License-Identifier: Apache-2.0
// LpPool: the ai.onnx operator: (sum over the window of |x|^p)^(1/p); padding counts as 0.
#include "core/convert/adapter.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/pool_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void lp_pool_kernel(KernelContext& ctx, const nn::PoolState& s) {
  nn::pool_kernel(ctx, s, nn::PoolKind::lp);
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

void lp_pool_kernel_shape_given(AdapterContext& ctx) {
  if (!ctx.has_attribute("kernel_shape"))
    ctx.refuse("kernel_shape is required from " + ctx.to().id() + ", and this node has none");
}

}  // namespace

void define_LpPool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("kernel_shape", AttrType::ints)
      .attr("p", AttrType::f, 2.0f)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(2)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_required("kernel_shape", AttrType::ints)
      .attr("p", AttrType::i, int64_t{2})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_required("kernel_shape", AttrType::ints)
      .attr("p", AttrType::i, int64_t{2})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(18)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr("p", AttrType::i, int64_t{2})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr("p", AttrType::i, int64_t{2})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(nn::infer_pool).kernel(prepared_kernel(nn::prepare_pool, lp_pool_kernel));
  op.at(2)
      .upgrade(convert::all_of({lp_pool_kernel_shape_given, p_float_to_int}))
      .downgrade(p_int_to_float);
  op.all().flops(nn::window_flops());
}

}  // namespace onnxtool::ops
