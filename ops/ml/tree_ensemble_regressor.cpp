// SPDX-License-Identifier: Apache-2.0
// TreeEnsembleRegressor: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_TreeEnsembleRegressor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("aggregate_function", AttrType::s, "SUM")
      .attr_optional("base_values", AttrType::floats)
      .attr_optional("n_targets", AttrType::i)
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
      .attr_optional("target_ids", AttrType::ints)
      .attr_optional("target_nodeids", AttrType::ints)
      .attr_optional("target_treeids", AttrType::ints)
      .attr_optional("target_weights", AttrType::floats)
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  op.since(3)
      .attr("aggregate_function", AttrType::s, "SUM")
      .attr_optional("base_values", AttrType::floats)
      .attr_optional("base_values_as_tensor", AttrType::t)
      .attr_optional("n_targets", AttrType::i)
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
      .attr_optional("target_ids", AttrType::ints)
      .attr_optional("target_nodeids", AttrType::ints)
      .attr_optional("target_treeids", AttrType::ints)
      .attr_optional("target_weights", AttrType::floats)
      .attr_optional("target_weights_as_tensor", AttrType::t)
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  op.since(5).deprecated();
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
