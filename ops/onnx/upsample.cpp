// SPDX-License-Identifier: Apache-2.0
// Upsample: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Upsample(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .experimental()
      .attr_required("height_scale", AttrType::f)
      .attr("mode", AttrType::s, "nearest")
      .attr_required("width_scale", AttrType::f)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(bool)", "tensor(int32)", "tensor(int64)", "tensor(float16)",
                        "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("mode", AttrType::s, "nearest")
      .attr_required("scales", AttrType::floats)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(9)
      .attr("mode", AttrType::s, "nearest")
      .input("X", "T")
      .input("scales", "tensor(float)")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(10).deprecated();
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
