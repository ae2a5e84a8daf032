// SPDX-License-Identifier: Apache-2.0
// MaxPool: the ai.onnx operator. Indices (8+) are flat over N x C x D1 x ... (row-major, or
// column-major over the spatial dims with storage_order 1); windows never pick padding.
#include "ops/onnx/nn_common.h"
#include "ops/onnx/pool_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void max_pool_kernel(KernelContext& ctx, const nn::PoolState& s) {
  nn::pool_kernel(ctx, s, nn::PoolKind::max);
}

}  // namespace

void define_MaxPool(OpDef& op) {
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
  op.since(8)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr("storage_order", AttrType::i, int64_t{0})
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .output_optional("Indices", "I")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(10)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr("storage_order", AttrType::i, int64_t{0})
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .output_optional("Indices", "I")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(11)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr("storage_order", AttrType::i, int64_t{0})
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .output_optional("Indices", "I")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(12)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr("storage_order", AttrType::i, int64_t{0})
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .output_optional("Indices", "I", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                        "tensor(uint8)"})
      .constraint("I", {"tensor(int64)"});
  op.since(22)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr("ceil_mode", AttrType::i, int64_t{0})
      .attr_optional("dilations", AttrType::ints)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr("storage_order", AttrType::i, int64_t{0})
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .output_optional("Indices", "I", D::non_differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(int8)", "tensor(uint8)"})
      .constraint("I", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(nn::infer_pool).kernel(prepared_kernel(nn::prepare_pool, max_pool_kernel));
  op.all().flops(nn::window_flops());
}

}  // namespace onnxtool::ops
