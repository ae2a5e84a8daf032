// SPDX-License-Identifier: Apache-2.0
// AveragePool: the ai.onnx operator. Divides by the window elements inside the input, or with
// count_include_pad (7+) inside the padded input.
#include "ops/onnx/nn_common.h"
#include "ops/onnx/pool_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void average_pool_kernel(KernelContext& ctx, const nn::PoolState& s) {
  nn::pool_kernel(ctx, s, nn::PoolKind::average);
}

}  // namespace

void define_AveragePool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("count_include_pad", AttrType::i, int64_t{0})
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(10)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr("count_include_pad", AttrType::i, int64_t{0})
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr("count_include_pad", AttrType::i, int64_t{0})
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(19)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr("count_include_pad", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr("count_include_pad", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(nn::infer_pool).kernel(prepared_kernel(nn::prepare_pool, average_pool_kernel));
  op.all().flops(nn::window_flops());
}

}  // namespace onnxtool::ops
