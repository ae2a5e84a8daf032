// SPDX-License-Identifier: Apache-2.0
// Gradient: the ai.onnx.preview.training operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_training_Gradient(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("xs", AttrType::strings)
      .attr_required("y", AttrType::s)
      .attr_optional("zs", AttrType::strings)
      .input_variadic("Inputs", "T1", 1, false)
      .output_variadic("Outputs", "T2", 1, false)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
