// SPDX-License-Identifier: Apache-2.0
// NonMaxSuppression: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_NonMaxSuppression(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("center_point_box", AttrType::i, int64_t{0})
      .input("boxes", "tensor(float)")
      .input("scores", "tensor(float)")
      .input_optional("max_output_boxes_per_class", "tensor(int64)")
      .input_optional("iou_threshold", "tensor(float)")
      .input_optional("score_threshold", "tensor(float)")
      .output("selected_indices", "tensor(int64)");
  op.since(11)
      .attr("center_point_box", AttrType::i, int64_t{0})
      .input("boxes", "tensor(float)")
      .input("scores", "tensor(float)")
      .input_optional("max_output_boxes_per_class", "tensor(int64)")
      .input_optional("iou_threshold", "tensor(float)")
      .input_optional("score_threshold", "tensor(float)")
      .output("selected_indices", "tensor(int64)");
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
