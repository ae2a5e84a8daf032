// SPDX-License-Identifier: Apache-2.0
// Loop: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Loop(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 1, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(11)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(13)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(16)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(bfloat16))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(bfloat16)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(bfloat16))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(19)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "seq(tensor(uint8))", "seq(tensor(uint16))",
                        "seq(tensor(uint32))", "seq(tensor(uint64))", "seq(tensor(int8))",
                        "seq(tensor(int16))", "seq(tensor(int32))", "seq(tensor(int64))",
                        "seq(tensor(bfloat16))", "seq(tensor(float16))", "seq(tensor(float))",
                        "seq(tensor(double))", "seq(tensor(string))", "seq(tensor(bool))",
                        "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "seq(tensor(float8e4m3fn))", "seq(tensor(float8e4m3fnuz))",
                        "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(bfloat16)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(bfloat16))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))",
                        "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
                        "optional(tensor(float8e5m2))", "optional(tensor(float8e5m2fnuz))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(21)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(bfloat16))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",
                        "seq(tensor(float8e4m3fnuz))", "seq(tensor(float8e5m2))",
                        "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))", "seq(tensor(int4))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(bfloat16)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(bfloat16))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))",
                        "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
                        "optional(tensor(float8e5m2))", "optional(tensor(float8e5m2fnuz))",
                        "optional(tensor(uint4))", "optional(tensor(int4))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(23)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "seq(tensor(uint8))", "seq(tensor(uint16))",
                        "seq(tensor(uint32))", "seq(tensor(uint64))", "seq(tensor(int8))",
                        "seq(tensor(int16))", "seq(tensor(int32))", "seq(tensor(int64))",
                        "seq(tensor(bfloat16))", "seq(tensor(float16))", "seq(tensor(float))",
                        "seq(tensor(double))", "seq(tensor(string))", "seq(tensor(bool))",
                        "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "seq(tensor(float8e4m3fn))", "seq(tensor(float8e4m3fnuz))",
                        "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))",
                        "seq(tensor(uint4))", "seq(tensor(int4))", "seq(tensor(float4e2m1))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(bfloat16)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(bfloat16))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))",
                        "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
                        "optional(tensor(float8e5m2))", "optional(tensor(float8e5m2fnuz))",
                        "optional(tensor(uint4))", "optional(tensor(int4))",
                        "optional(tensor(float4e2m1))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(24)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "seq(tensor(uint8))",
                        "seq(tensor(uint16))", "seq(tensor(uint32))", "seq(tensor(uint64))",
                        "seq(tensor(int8))", "seq(tensor(int16))", "seq(tensor(int32))",
                        "seq(tensor(int64))", "seq(tensor(bfloat16))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "seq(tensor(float8e4m3fn))", "seq(tensor(float8e4m3fnuz))",
                        "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))",
                        "seq(tensor(uint4))", "seq(tensor(int4))", "seq(tensor(float4e2m1))",
                        "seq(tensor(float8e8m0))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(bfloat16)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(bfloat16))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))", "optional(tensor(float8e4m3fn))",
                        "optional(tensor(float8e4m3fnuz))", "optional(tensor(float8e5m2))",
                        "optional(tensor(float8e5m2fnuz))", "optional(tensor(uint4))",
                        "optional(tensor(int4))", "optional(tensor(float4e2m1))",
                        "optional(tensor(float8e8m0))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(25)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(bfloat16))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",
                        "seq(tensor(float8e4m3fnuz))", "seq(tensor(float8e5m2))",
                        "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))", "seq(tensor(int4))",
                        "seq(tensor(float4e2m1))", "seq(tensor(float8e8m0))", "seq(tensor(uint2))",
                        "seq(tensor(int2))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(bfloat16)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(bfloat16))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))", "optional(tensor(float8e4m3fn))",
                        "optional(tensor(float8e4m3fnuz))", "optional(tensor(float8e5m2))",
                        "optional(tensor(float8e5m2fnuz))", "optional(tensor(uint4))",
                        "optional(tensor(int4))", "optional(tensor(float4e2m1))",
                        "optional(tensor(float8e8m0))", "optional(tensor(uint2))",
                        "optional(tensor(int2))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
