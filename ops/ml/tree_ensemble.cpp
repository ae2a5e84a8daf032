// SPDX-License-Identifier: Apache-2.0
// TreeEnsemble: the ai.onnx.ml operator. Sums (or averages, or takes the min or max of) the
// weights of the leaves each row reaches in every tree, per target, then post-transforms. Nodes
// compare one feature with a split (<=, <, >=, >, ==, !=) or test membership in a set; NaN
// features follow nodes_missing_value_tracks_true.
#include "core/convert/adapter.h"
#include "ops/ml/ml_common.h"
#include "ops/ml/tree_convert.h"

namespace onnxtool::ops {

namespace {

void infer_tree_ensemble(InferContext& ctx) {
  const auto n = ctx.attrs().opt_int("n_targets");
  set_output_tensor(ctx, 0, ctx.input_elem_type(0), Dims{ml::batch_dim(ctx, 0), misc::dim_of(n)});
}

void tree_ensemble_kernel(KernelContext& ctx) {
  const Tensor& xt = ctx.input(0);
  misc::require_float(ctx, xt, "X");
  const ml::Features x = ml::read_features(ctx, xt);
  const ml::Ensemble e = ml::ensemble_v5(ctx);
  if (e.aggregate < 0 || e.aggregate > 3) ctx.fail("aggregate_function must be 0 to 3");
  std::vector<double> y = ml::evaluate(ctx, e, x);
  const ml::Post post = ml::post_from_int(ctx, ctx.attrs().get_int("post_transform", 0));
  for (int64_t r = 0; r < x.rows; ++r) ml::apply_post(post, y.data() + r * e.targets, e.targets);
  misc::write_output<double>(ctx, 0, xt.dtype(), {x.rows, e.targets}, y);
}

}  // namespace

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
  op.all().infer(infer_tree_ensemble).kernel(tree_ensemble_kernel);
  // Below ai.onnx.ml 5 the regressor it replaced says the same (ops/ml/tree_convert.h).
  op.at(5).downgrade(ml::tree_ensemble_to_regressor);
}

}  // namespace onnxtool::ops
