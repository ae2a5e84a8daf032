// SPDX-License-Identifier: Apache-2.0
// Cast: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Cast(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("to", AttrType::s)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"});
  op.since(6)
      .attr_required("to", AttrType::i)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"});
  op.since(9)
      .attr_required("to", AttrType::i)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)"});
  op.since(13)
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)"});
  op.since(19)
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)"});
  op.since(24)
      .attr("round_mode", AttrType::s, "up")
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)"});
  op.since(25)
      .attr("round_mode", AttrType::s, "up")
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
