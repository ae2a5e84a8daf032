// SPDX-License-Identifier: Apache-2.0
// ConstantOfShape: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ConstantOfShape(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"});
  op.since(20)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(bfloat16)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(23)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(float4e2m1)"});
  op.since(24)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                         "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
