// SPDX-License-Identifier: Apache-2.0
// CastLike: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_CastLike(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(15)
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
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
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
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
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("saturate", AttrType::i, int64_t{1})
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
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
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
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
      .is_function({25})
      .attr("round_mode", AttrType::s, "up")
      .attr("saturate", AttrType::i, int64_t{1})
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
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
