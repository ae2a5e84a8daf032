// SPDX-License-Identifier: Apache-2.0
// ReduceMean: the ai.onnx operator (axes, keepdims and empty sets: see reduce_common.h).
#include "ops/onnx/nn_common.h"
#include "ops/onnx/reduce_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void reduce_mean_kernel(KernelContext& ctx) {
  nn::reduce_kernel(ctx, nn::ReduceKind::mean);
}

}  // namespace

void define_ReduceMean(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axes", AttrType::ints)
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T")
      .output("reduced", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr_optional("axes", AttrType::ints)
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T")
      .output("reduced", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr_optional("axes", AttrType::ints)
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T", D::differentiable)
      .output("reduced", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(18)
      .attr("keepdims", AttrType::i, int64_t{1})
      .attr("noop_with_empty_axes", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input_optional("axes", "tensor(int64)", D::non_differentiable)
      .output("reduced", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(nn::infer_reduce).kernel(reduce_mean_kernel);
  nn::add_reduce_adapters(op, 18);
  op.all().flops(nn::input_flops(1));
}

}  // namespace onnxtool::ops
