// SPDX-License-Identifier: Apache-2.0
// TreeEnsemble: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_TreeEnsemble(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(5)
      .attr("aggregate_function", AttrType::i, int64_t{1})
      .attr_required("leaf_targetids", AttrType::ints)
      .attr_required("leaf_weights", AttrType::t)
      .attr_optional("membership_values", AttrType::t)
      .attr_optional("n_targets", AttrType::i)
      .attr_required("nodes_falseleafs", AttrType::ints)
      .attr_required("nodes_falsenodeids", AttrType::ints)
      .attr_required("nodes_featureids", AttrType::ints)
      .attr_optional("nodes_hitrates", AttrType::t)
      .attr_optional("nodes_missing_value_tracks_true", AttrType::ints)
      .attr_required("nodes_modes", AttrType::t)
      .attr_required("nodes_splits", AttrType::t)
      .attr_required("nodes_trueleafs", AttrType::ints)
      .attr_required("nodes_truenodeids", AttrType::ints)
      .attr("post_transform", AttrType::i, int64_t{0})
      .attr_required("tree_roots", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(float16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
