// SPDX-License-Identifier: Apache-2.0
// Scan: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Scan(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(8)
      .attr_required("body", AttrType::g)
      .attr_optional("directions", AttrType::ints)
      .attr_required("num_scan_inputs", AttrType::i)
      .input_optional("sequence_lens", "I")
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("I", {"tensor(int64)"})
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(9)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(16)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(19)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
