// SPDX-License-Identifier: Apache-2.0
// ReverseSequence: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ReverseSequence(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("batch_axis", AttrType::i, int64_t{1})
      .attr("time_axis", AttrType::i, int64_t{0})
      .input("input", "T")
      .input("sequence_lens", "tensor(int64)")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
