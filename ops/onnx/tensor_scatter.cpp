// SPDX-License-Identifier: Apache-2.0
// TensorScatter: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_TensorScatter(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(24)
      .attr("axis", AttrType::i, int64_t{-2})
      .attr("mode", AttrType::s, "linear")
      .input("past_cache", "T", D::differentiable)
      .input("update", "T", D::differentiable)
      .input_optional("write_indices", "tensor(int64)", D::non_differentiable)
      .output("present_cache", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
