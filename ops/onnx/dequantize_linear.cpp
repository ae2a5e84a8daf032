// SPDX-License-Identifier: Apache-2.0
// DequantizeLinear: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_DequantizeLinear(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("x", "T")
      .input("x_scale", "tensor(float)")
      .input_optional("x_zero_point", "T")
      .output("y", "tensor(float)")
      .constraint("T", {"tensor(int8)", "tensor(uint8)", "tensor(int32)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{1})
      .input("x", "T")
      .input("x_scale", "tensor(float)")
      .input_optional("x_zero_point", "T")
      .output("y", "tensor(float)")
      .constraint("T", {"tensor(int8)", "tensor(uint8)", "tensor(int32)"});
  op.since(19)
      .attr("axis", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T2")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int32)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(21)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T2")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(23)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)", "tensor(float4e2m1)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"})
      .constraint("T3", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)", "tensor(float4e2m1)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(25)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)", "tensor(float4e2m1)", "tensor(uint2)", "tensor(int2)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
