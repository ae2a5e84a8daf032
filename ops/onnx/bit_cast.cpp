// SPDX-License-Identifier: Apache-2.0
// BitCast: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_BitCast(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(26)
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::non_differentiable)
      .output("output", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                         "tensor(int2)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                         "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
