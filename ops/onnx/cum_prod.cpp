// SPDX-License-Identifier: Apache-2.0
// CumProd: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

void define_CumProd(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(26)
      .attr("exclusive", AttrType::i, int64_t{0})
      .attr("reverse", AttrType::i, int64_t{0})
      .input("x", "T", D::differentiable)
      .input("axis", "T2", D::non_differentiable)
      .output("y", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_cumulative).kernel(cumulative_kernel('*'));
}

}  // namespace onnxtool::ops
