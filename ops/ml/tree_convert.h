// SPDX-License-Identifier: Apache-2.0
// Version adapters from the legacy tree ensembles (TreeEnsembleRegressor and
// TreeEnsembleClassifier, ai.onnx.ml 1-4) to TreeEnsemble (ai.onnx.ml 5), which replaced them.
// Both legacy operators encode trees the same way (nodes_* lists with LEAF nodes, votes in
// target_* / class_* lists); this is that shared translation. Each operator's file registers
// its own step.
#pragma once

namespace onnxtool {
class AdapterContext;
}

namespace onnxtool::ops::ml {

// TreeEnsembleRegressor -> TreeEnsemble (+ Add for base_values, the post-transform, Cast to
// float where the input is not float).
void regressor_to_tree_ensemble(AdapterContext& ctx);

// TreeEnsembleClassifier -> TreeEnsemble (scores) + ArgMax + Gather of the labels (Y), and the
// post-transformed scores (Z). The binary form (two labels, one weighted class, the other's
// score derived) has no such expression and is refused.
void classifier_to_tree_ensemble(AdapterContext& ctx);

// TreeEnsemble -> TreeEnsembleRegressor (ai.onnx.ml 4 and before): every reachable branch
// node and leaf written out per tree, set-membership nodes as chains of BRANCH_EQ nodes. A
// double ensemble's scores come out of the legacy operator as float, which is approximate.
void tree_ensemble_to_regressor(AdapterContext& ctx);

}  // namespace onnxtool::ops::ml
