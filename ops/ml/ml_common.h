// SPDX-License-Identifier: Apache-2.0
// What the ai.onnx.ml operators share: features read as rows of doubles ([N, C], or [C] as one
// row), the score post-transforms (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT), attributes
// given either as a list or as a tensor (the *_as_tensor variants), class labels, and the
// evaluation of tree ensembles (TreeEnsemble, TreeEnsembleRegressor, TreeEnsembleClassifier).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::ml {

struct Features {
  std::vector<double> values;  // rows * cols, row-major
  int64_t rows = 0, cols = 0;
  const double* row(int64_t r) const { return values.data() + r * cols; }
};

// X of shape [N, C] or [C] (one row): any real type.
Features read_features(const KernelContext& ctx, const Tensor& x);

// ---- post-transforms ----------------------------------------------------------------------------

enum class Post { none, softmax, logistic, softmax_zero, probit };
// The legacy operators' names of the transforms, aggregations and branch modes, each at the
// index TreeEnsemble-5 gives it as an integer (Post, Ensemble::aggregate, Branch).
inline constexpr std::array<std::string_view, 5> kPostNames = {"NONE", "SOFTMAX", "LOGISTIC",
                                                               "SOFTMAX_ZERO", "PROBIT"};
inline constexpr std::array<std::string_view, 4> kAggregateNames = {"AVERAGE", "SUM", "MIN", "MAX"};
inline constexpr std::array<std::string_view, 6> kBranchNames = {
    "BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"};
// The index of `name` in `names`, or -1.
template <std::size_t N>
int name_index(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}
Post post_from_name(const KernelContext& ctx, const std::string& name);
Post post_from_int(const KernelContext& ctx, int64_t v);
// Applies the transform to one row of scores in place.
void apply_post(Post p, double* scores, int64_t n);
double logistic(double x);
double probit(double p);  // sqrt(2) * erfinv(2p - 1)

// ---- attributes ---------------------------------------------------------------------------------

// A tensor-valued attribute decoded; nullopt when absent.
std::optional<Tensor> tensor_attr(const AttrView& attrs, const char* name);
// The list attribute `floats` or, when absent, the tensor attribute `tensor` as doubles; empty
// when neither is set.
std::vector<double> doubles_attr(const KernelContext& ctx, const char* floats, const char* tensor);

// Class labels: classlabels_ints/classlabels_int64s or classlabels_strings (exactly one).
struct Labels {
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  bool is_string = false;
  std::size_t size() const { return is_string ? strings.size() : ints.size(); }
};
Labels read_labels(const KernelContext& ctx, const char* ints_name, const char* strings_name);
// Output 0 of a classifier: labels[index[i]] for each row.
void write_labels(KernelContext& ctx, std::size_t output, const Labels& labels,
                  const std::vector<int64_t>& index, const Shape& shape);

// ---- inference ----------------------------------------------------------------------------------

// N of an [N, C] input, 1 of a [C] input, unknown otherwise.
Dim batch_dim(const InferContext& ctx, std::size_t i);
// The element type a classifier's label output has, from which labels attribute is set.
int32_t label_elem(const InferContext& ctx, const char* strings_name);

// ---- tree ensembles -----------------------------------------------------------------------------

enum class Branch { leq, lt, gte, gt, eq, neq, member, leaf };

struct TreeNode {
  Branch mode = Branch::leaf;
  int64_t feature = 0;
  double split = 0;
  std::vector<double> members;  // BRANCH_MEMBER
  bool missing_true = false;
  int64_t true_child = -1, false_child = -1;  // node index, or leaf index when *_leaf
  bool true_leaf = false, false_leaf = false;
};

// Contributions a leaf makes: (target or class, weight).
struct LeafWeight {
  int64_t target = 0;
  double weight = 0;
};

struct Ensemble {
  std::vector<TreeNode> nodes;
  std::vector<int64_t> roots;                   // node index of each tree's root
  std::vector<std::vector<LeafWeight>> leaves;  // by leaf index
  int64_t targets = 1;
  int aggregate = 1;  // 0 AVERAGE, 1 SUM, 2 MIN, 3 MAX
  std::vector<double> base;
};

// Builds the ensemble of TreeEnsemble-5 (nodes_* and leaf_* tensors) or of the older
// regressor/classifier (nodes_* lists with LEAF nodes, target_* or class_* lists).
Ensemble ensemble_v5(const KernelContext& ctx);
Ensemble ensemble_legacy(const KernelContext& ctx, const char* prefix);  // "target" or "class"

// Per row, per target: the aggregated leaf weights plus base values (rows * targets), and for
// each target whether any leaf contributed.
std::vector<double> evaluate(const KernelContext& ctx, const Ensemble& e, const Features& x,
                             std::vector<char>* touched = nullptr);

}  // namespace onnxtool::ops::ml
