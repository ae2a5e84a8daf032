// SPDX-License-Identifier: Apache-2.0
// LpPool: the ai.onnx operator: (sum over the window of |x|^p)^(1/p); padding counts as 0.
#include "ops/onnx/nn_common.h"
#include "ops/onnx/pool_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void lp_pool_kernel(KernelContext& ctx, const nn::PoolState& s) {
  nn::pool_kernel(ctx, s, nn::PoolKind::lp);
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
}

}  // namespace onnxtool::ops
