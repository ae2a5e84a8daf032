// SPDX-License-Identifier: Apache-2.0
// TreeEnsembleClassifier: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_TreeEnsembleClassifier(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("base_values", AttrType::floats)
      .attr_optional("class_ids", AttrType::ints)
      .attr_optional("class_nodeids", AttrType::ints)
      .attr_optional("class_treeids", AttrType::ints)
      .attr_optional("class_weights", AttrType::floats)
      .attr_optional("classlabels_int64s", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .attr_optional("nodes_falsenodeids", AttrType::ints)
      .attr_optional("nodes_featureids", AttrType::ints)
      .attr_optional("nodes_hitrates", AttrType::floats)
      .attr_optional("nodes_missing_value_tracks_true", AttrType::ints)
      .attr_optional("nodes_modes", AttrType::strings)
      .attr_optional("nodes_nodeids", AttrType::ints)
      .attr_optional("nodes_treeids", AttrType::ints)
      .attr_optional("nodes_truenodeids", AttrType::ints)
      .attr_optional("nodes_values", AttrType::floats)
      .attr("post_transform", AttrType::s, "NONE")
      .input("X", "T1")
      .output("Y", "T2")
      .output("Z", "tensor(float)")
      .constraint("T1", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  op.since(3)
      .attr_optional("base_values", AttrType::floats)
      .attr_optional("base_values_as_tensor", AttrType::t)
      .attr_optional("class_ids", AttrType::ints)
      .attr_optional("class_nodeids", AttrType::ints)
      .attr_optional("class_treeids", AttrType::ints)
      .attr_optional("class_weights", AttrType::floats)
      .attr_optional("class_weights_as_tensor", AttrType::t)
      .attr_optional("classlabels_int64s", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .attr_optional("nodes_falsenodeids", AttrType::ints)
      .attr_optional("nodes_featureids", AttrType::ints)
      .attr_optional("nodes_hitrates", AttrType::floats)
      .attr_optional("nodes_hitrates_as_tensor", AttrType::t)
      .attr_optional("nodes_missing_value_tracks_true", AttrType::ints)
      .attr_optional("nodes_modes", AttrType::strings)
      .attr_optional("nodes_nodeids", AttrType::ints)
      .attr_optional("nodes_treeids", AttrType::ints)
      .attr_optional("nodes_truenodeids", AttrType::ints)
      .attr_optional("nodes_values", AttrType::floats)
      .attr_optional("nodes_values_as_tensor", AttrType::t)
      .attr("post_transform", AttrType::s, "NONE")
      .input("X", "T1")
      .output("Y", "T2")
      .output("Z", "tensor(float)")
      .constraint("T1", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  op.since(5).deprecated();
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
