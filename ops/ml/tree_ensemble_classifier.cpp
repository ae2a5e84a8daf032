// SPDX-License-Identifier: Apache-2.0
// TreeEnsembleClassifier: the ai.onnx.ml operator. The trees' leaf weights summed per class plus
// base_values, post-transformed; the label is the class with the highest score. A binary model
// (two labels, weights for one class only) scores that class and derives the other as
// onnxruntime does: 1 - p for positive weights, -s otherwise, the label being the second class
// when the score passes 0.5 (positive weights) or 0. (Version 5 was removed from the spec in
// favour of TreeEnsemble.)
#include <algorithm>
#include <set>

#include "core/convert/adapter.h"
#include "ops/ml/ml_common.h"
#include "ops/ml/tree_convert.h"

namespace onnxtool::ops {

namespace {

int64_t label_count(const AttrView& a) {
  return static_cast<int64_t>(std::max(a.get_ints("classlabels_int64s", {}).size(),
                                       a.get_strings("classlabels_strings", {}).size()));
}

void infer_tree_ensemble_classifier(InferContext& ctx) {
  const Dim n = ml::batch_dim(ctx, 0);
  set_output_tensor(ctx, 0, ml::label_elem(ctx, "classlabels_strings"), Dims{n});
  set_output_tensor(ctx, 1, static_cast<int32_t>(DataType::float32),
                    Dims{n, Dim::value(label_count(ctx.attrs()))});
}

// The binary case: one class carries every weight. Returns the label index; writes both scores.
int64_t binary_scores(double s, bool positive_weights, ml::Post post, double* z) {
  const bool second = positive_weights ? s > 0.5 : s > 0;
  if (post == ml::Post::probit) {
    z[0] = 0;
    z[1] = ml::probit(s);
  } else if (positive_weights) {
    z[0] = 1 - s, z[1] = s;
  } else if (post == ml::Post::logistic) {
    z[0] = ml::logistic(-s), z[1] = ml::logistic(s);
  } else {
    z[0] = -s, z[1] = s;
  }
  return second ? 1 : 0;
}

void tree_ensemble_classifier_kernel(KernelContext& ctx) {
  const ml::Features x = ml::read_features(ctx, ctx.input(0));
  const ml::Labels labels = ml::read_labels(ctx, "classlabels_int64s", "classlabels_strings");
  ml::Ensemble e = ml::ensemble_legacy(ctx, "class");
  e.aggregate = 1;
  const auto classes = static_cast<int64_t>(labels.size());
  if (classes == 0) ctx.fail("classlabels_int64s or classlabels_strings is required");
  if (e.targets > classes) ctx.fail("a class id is not below the number of class labels");
  e.targets = classes;
  std::set<int64_t> weighted;
  bool positive = true;
  for (const auto& leaf : e.leaves)
    for (const ml::LeafWeight& w : leaf) {
      weighted.insert(w.target);
      positive = positive && w.weight >= 0;
    }
  const bool binary = classes == 2 && weighted.size() == 1;
  const ml::Post post = ml::post_from_name(ctx, ctx.attrs().get_string("post_transform", "NONE"));
  std::vector<double> z = ml::evaluate(ctx, e, x);
  std::vector<int64_t> label(static_cast<std::size_t>(x.rows));
  for (int64_t r = 0; r < x.rows; ++r) {
    double* row = z.data() + r * classes;
    if (binary) {
      double s = row[*weighted.begin()];
      if (!e.base.empty()) s += e.base.back();
      label[static_cast<std::size_t>(r)] = binary_scores(s, positive, post, row);
      if (post != ml::Post::none && post != ml::Post::probit && post != ml::Post::logistic &&
          positive)
        ml::apply_post(post, row, 2);
      continue;
    }
    for (int64_t c = 0; c < classes && c < static_cast<int64_t>(e.base.size()); ++c)
      row[c] += e.base[static_cast<std::size_t>(c)];
    label[static_cast<std::size_t>(r)] = std::max_element(row, row + classes) - row;
    ml::apply_post(post, row, classes);
  }
  ml::write_labels(ctx, 0, labels, label, {x.rows});
  misc::write_output<double>(ctx, 1, DataType::float32, {x.rows, classes}, z);
}

// Version 5 removed the operator: a model importing ai.onnx.ml 5 must use TreeEnsemble.
void infer_removed_classifier(InferContext&) {
  infer_fail("TreeEnsembleClassifier was removed in ai.onnx.ml opset 5: use TreeEnsemble");
}

}  // namespace

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
  op.from(1, 4).infer(infer_tree_ensemble_classifier).kernel(tree_ensemble_classifier_kernel);
  op.at(5).infer(infer_removed_classifier);
  // Version 5 replaced it with TreeEnsemble (ops/ml/tree_convert.h).
  op.at(5).upgrade(ml::classifier_to_tree_ensemble);
}

}  // namespace onnxtool::ops
