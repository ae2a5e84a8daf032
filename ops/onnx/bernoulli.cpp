// SPDX-License-Identifier: Apache-2.0
// Bernoulli: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Bernoulli(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(15)
      .attr_optional("dtype", AttrType::i)
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)",
                         "tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bool)"});
  op.since(22)
      .is_function({22})
      .attr_optional("dtype", AttrType::i)
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
