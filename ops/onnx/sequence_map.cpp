// SPDX-License-Identifier: Apache-2.0
// SequenceMap: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_SequenceMap(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .is_function({17})
      .attr_required("body", AttrType::g)
      .input("input_sequence", "S")
      .input_variadic("additional_inputs", "V", 0, false)
      .output_variadic("out_sequence", "S", 1, false)
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
