// SPDX-License-Identifier: Apache-2.0
// TreeEnsembleRegressor: the ai.onnx.ml operator. The trees' leaf weights per target,
// aggregated by SUM, AVERAGE, MIN or MAX, plus base_values, post-transformed. (Version 5 was
// removed from the spec in favour of TreeEnsemble.)
#include "core/convert/adapter.h"
#include "ops/ml/ml_common.h"
#include "ops/ml/tree_convert.h"

namespace onnxtool::ops {

namespace {

void infer_tree_ensemble_regressor(InferContext& ctx) {
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::float32),
                    Dims{ml::batch_dim(ctx, 0), Dim::value(ctx.attrs().get_int("n_targets", 1))});
}

int aggregate_code(const KernelContext& ctx) {
  const std::string a = ctx.attrs().get_string("aggregate_function", "SUM");
  const int i = ml::name_index(ml::kAggregateNames, a);
  if (i < 0) ctx.fail("aggregate_function must be SUM, AVERAGE, MIN or MAX, got \"" + a + "\"");
  return i;
}

void tree_ensemble_regressor_kernel(KernelContext& ctx) {
  const ml::Features x = ml::read_features(ctx, ctx.input(0));
  ml::Ensemble e = ml::ensemble_legacy(ctx, "target");
  e.aggregate = aggregate_code(ctx);
  e.targets = std::max(e.targets, ctx.attrs().get_int("n_targets", 1));
  if (!e.base.empty() && static_cast<int64_t>(e.base.size()) != e.targets)
    ctx.fail("base_values must have one value per target");
  std::vector<char> touched;
  std::vector<double> y = ml::evaluate(ctx, e, x, &touched);
  const ml::Post post = ml::post_from_name(ctx, ctx.attrs().get_string("post_transform", "NONE"));
  for (int64_t r = 0; r < x.rows; ++r) {
    double* row = y.data() + r * e.targets;
    for (int64_t t = 0; t < e.targets; ++t) {
      const auto i = static_cast<std::size_t>(r * e.targets + t);
      if (!touched[i]) row[t] = 0;  // MIN/MAX with no leaf: nothing but the base value
      if (!e.base.empty()) row[t] += e.base[static_cast<std::size_t>(t)];
    }
    ml::apply_post(post, row, e.targets);
  }
  misc::write_output<double>(ctx, 0, DataType::float32, {x.rows, e.targets}, y);
}

// Version 5 removed the operator: a model importing ai.onnx.ml 5 must use TreeEnsemble.
void infer_removed_regressor(InferContext&) {
  infer_fail("TreeEnsembleRegressor was removed in ai.onnx.ml opset 5: use TreeEnsemble");
}

}  // namespace

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
  op.from(1, 4).infer(infer_tree_ensemble_regressor).kernel(tree_ensemble_regressor_kernel);
  op.at(5).infer(infer_removed_regressor);
  // Version 5 replaced it with TreeEnsemble (ops/ml/tree_convert.h).
  op.at(5).upgrade(ml::regressor_to_tree_ensemble);
}

}  // namespace onnxtool::ops
