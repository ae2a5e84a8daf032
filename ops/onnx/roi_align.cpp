// SPDX-License-Identifier: Apache-2.0
// RoiAlign: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_RoiAlign(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("mode", AttrType::s, "avg")
      .attr("output_height", AttrType::i, int64_t{1})
      .attr("output_width", AttrType::i, int64_t{1})
      .attr("sampling_ratio", AttrType::i, int64_t{0})
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T1")
      .input("rois", "T1")
      .input("batch_indices", "T2")
      .output("Y", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(16)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("mode", AttrType::s, "avg")
      .attr("output_height", AttrType::i, int64_t{1})
      .attr("output_width", AttrType::i, int64_t{1})
      .attr("sampling_ratio", AttrType::i, int64_t{0})
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T1")
      .input("rois", "T1")
      .input("batch_indices", "T2")
      .output("Y", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(22)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("mode", AttrType::s, "avg")
      .attr("output_height", AttrType::i, int64_t{1})
      .attr("output_width", AttrType::i, int64_t{1})
      .attr("sampling_ratio", AttrType::i, int64_t{0})
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T1")
      .input("rois", "T1")
      .input("batch_indices", "T2")
      .output("Y", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
