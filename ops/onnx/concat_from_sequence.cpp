// SPDX-License-Identifier: Apache-2.0
// ConcatFromSequence: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ConcatFromSequence(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr_required("axis", AttrType::i)
      .attr("new_axis", AttrType::i, int64_t{0})
      .input("input_sequence", "S")
      .output("concat_result", "T")
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
