// SPDX-License-Identifier: Apache-2.0
// ImageDecoder: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ImageDecoder(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .attr("pixel_format", AttrType::s, "RGB")
      .input("encoded_stream", "T1", D::non_differentiable)
      .output("image", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(uint8)"})
      .constraint("T2", {"tensor(uint8)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
