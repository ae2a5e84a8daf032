// SPDX-License-Identifier: Apache-2.0
// QuantizeLinear: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_QuantizeLinear(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("x", "T1")
      .input("y_scale", "tensor(float)")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "tensor(float)")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"});
  op.since(19)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T1")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T1")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("precision", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T2")
      .input_optional("y_zero_point", "T3")
      .output("y", "T3")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("precision", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T2")
      .input_optional("y_zero_point", "T3")
      .output("y", "T3")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)"});
  op.since(25)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("precision", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T2")
      .input_optional("y_zero_point", "T3")
      .output("y", "T3")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)", "tensor(uint2)", "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
