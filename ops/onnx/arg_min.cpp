// SPDX-License-Identifier: Apache-2.0
// ArgMin: the ai.onnx operator. int64 indices along `axis`; ties give the first index, or the last
// with select_last_index (12+).
#include "ops/onnx/reduce_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void arg_min_kernel(KernelContext& ctx) {
  nn::arg_reduce_kernel(ctx, /*is_max=*/false);
}

}  // namespace

void define_ArgMin(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T")
      .output("reduced", "tensor(int64)")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T")
      .output("reduced", "tensor(int64)")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("keepdims", AttrType::i, int64_t{1})
      .attr("select_last_index", AttrType::i, int64_t{0})
      .input("data", "T")
      .output("reduced", "tensor(int64)")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("keepdims", AttrType::i, int64_t{1})
      .attr("select_last_index", AttrType::i, int64_t{0})
      .input("data", "T", D::non_differentiable)
      .output("reduced", "tensor(int64)", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(nn::infer_arg_reduce).kernel(arg_min_kernel);
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
}

}  // namespace onnxtool::ops
