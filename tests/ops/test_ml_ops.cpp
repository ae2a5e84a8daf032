// SPDX-License-Identifier: Apache-2.0
// The ai.onnx.ml operators against values worked out by hand from Operators-ml.md: each
// operator on its own, the legacy tree ensembles under their post transforms, the unified
// TreeEnsemble (ai.onnx.ml 5) under each aggregate function, and small
// scikit-learn-style pipelines (Scaler -> LinearClassifier -> ZipMap, OneHotEncoder ->
// TreeEnsembleRegressor, LabelEncoder string -> int -> string).
#include <doctest/doctest.h>

#include <cmath>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

std::string ml_model(const std::string& body, int ml_opset = 3) {
  return "<ir_version: 8, opset_import: [\"\" : 17, \"ai.onnx.ml\" : " + std::to_string(ml_opset) +
         "]>\n" + body;
}

std::vector<std::string> strings_of(const Value& v) {
  return v.tensor().strings();
}

// A one-tree ensemble on feature 0: x <= 0.5 goes to leaf 1, else to leaf 2.
const char* kTreeNodes =
    "nodes_treeids = [0, 0, 0], nodes_nodeids = [0, 1, 2], nodes_featureids = [0, 0, 0], "
    "nodes_values = [0.5, 0.0, 0.0], nodes_modes = [\"BRANCH_LEQ\", \"LEAF\", \"LEAF\"], "
    "nodes_truenodeids = [1, 0, 0], nodes_falsenodeids = [2, 0, 0]";

}  // namespace

TEST_CASE("ml: Scaler subtracts the offset, then multiplies by the scale, per feature") {
  const auto out = run(ml_model(R"(g (float[2,2] x) => (float[2,2] y) {
    y = ai.onnx.ml.Scaler <offset = [1.0, 2.0], scale = [2.0, 0.5]> (x)
  })"),
                       {{"x", f32({2, 2}, {1, 2, 3, 4})}});
  check_close(out[0].tensor(), {2, 2}, {0, 0, 4, 1});
}

TEST_CASE("ml: Binarizer gives 1 above the threshold only") {
  const auto out = run(ml_model(R"(g (float[4] x) => (float[4] y) {
    y = ai.onnx.ml.Binarizer <threshold = 1.5> (x)
  })"),
                       {{"x", f32({4}, {1, 2, 1.5f, -3})}});
  check_close(out[0].tensor(), {4}, {0, 1, 0, 0});
}

TEST_CASE("ml: Normalizer L1 and L2, row by row") {
  const auto out = run(ml_model(R"(g (float[2,2] x) => (float[2,2] l1, float[2,2] l2) {
    l1 = ai.onnx.ml.Normalizer <norm = "L1"> (x)
    l2 = ai.onnx.ml.Normalizer <norm = "L2"> (x)
  })"),
                       {{"x", f32({2, 2}, {3, -4, 1, 1})}});
  check_close(out[0].tensor(), {2, 2}, {3.0 / 7, -4.0 / 7, 0.5, 0.5});
  check_close(out[1].tensor(), {2, 2}, {0.6, -0.8, 1 / std::sqrt(2.0), 1 / std::sqrt(2.0)});
}

TEST_CASE("ml: Normalizer MAX (the default): each row divided by its maximum") {
  const auto out = run(ml_model(R"(g (float[3,3] x, int64[1,2] n, float[3] v, float[2,2] s)
      => (float[3,3] y, float[1,2] m, float[3] w, float[2,2] t) {
    y = ai.onnx.ml.Normalizer <norm = "MAX"> (x)
    m = ai.onnx.ml.Normalizer (n)
    w = ai.onnx.ml.Normalizer <norm = "MAX"> (v)
    t = ai.onnx.ml.Normalizer <norm = "MAX"> (s)
  })"),
                       {{"x", f32({3, 3}, {1, 2, 4, 0, 0, 0, -1, 3, 1.5f})},
                        {"n", i64({1, 2}, {2, 8})},
                        {"v", f32({3}, {2, -1, 4})},
                        {"s", f32({2, 2}, {-2, -4, -3, 0})}});
  // [1,2,4] / 4; [0,0,0] has max 0, so Y == X; [-1,3,1.5] / 3.
  check_close(out[0].tensor(), {3, 3}, {0.25, 0.5, 1, 0, 0, 0, -1.0 / 3, 1, 0.5});
  // norm defaults to MAX; int64 in, float out: [2,8] / 8.
  check_close(out[1].tensor(), {1, 2}, {0.25, 1});
  // A [C] input is one row: [2,-1,4] / 4.
  check_close(out[2].tensor(), {3}, {0.5, -0.25, 1});
  // The spec's max(X) is the signed maximum: [-2,-4] / -2 = [1, 2]; [-3,0] has max 0, so Y == X.
  check_close(out[3].tensor(), {2, 2}, {1, 2, -3, 0});
}

TEST_CASE("ml: Imputer replaces the value it is told (0 by default; NaN matches NaN)") {
  const float nan = std::nanf("");
  const auto out = run(ml_model(R"(g (float[2,2] x, int64[3] n) => (float[2,2] y, float[2,2] z,
                                                                  int64[3] m) {
    y = ai.onnx.ml.Imputer <imputed_value_floats = [9.0, 8.0]> (x)
    z = ai.onnx.ml.Imputer <imputed_value_floats = [7.0], replaced_value_float = nan> (x)
    m = ai.onnx.ml.Imputer <imputed_value_int64s = [5], replaced_value_int64 = -1> (n)
  })"),
                       {{"x", f32({2, 2}, {0, 2, 3, nan})}, {"n", i64({3}, {-1, 4, -1})}});
  // Default: the 0 in column 0 becomes 9, the NaN stays.
  check_close(out[0].tensor(), {2, 2}, {9, 2, 3, nan});
  // One imputed value serves every column.
  check_close(out[1].tensor(), {2, 2}, {0, 2, 3, 7});
  CHECK(vals(out[2].tensor()) == std::vector<double>{5, 4, 5});
}

TEST_CASE("ml: LabelEncoder maps strings to integers and back, with defaults") {
  const auto out = run(ml_model(R"(g (string[3] x) => (int64[3] y, string[3] z) {
    y = ai.onnx.ml.LabelEncoder <keys_strings = ["a", "b"], values_int64s = [1, 2],
                                 default_int64 = -1> (x)
    z = ai.onnx.ml.LabelEncoder <keys_int64s = [1, 2], values_strings = ["one", "two"],
                                 default_string = "?"> (y)
  })"),
                       {{"x", strs({3}, {"a", "c", "b"})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{1, -1, 2});
  CHECK(strings_of(out[1]) == std::vector<std::string>{"one", "?", "two"});
}

TEST_CASE("ml: CategoryMapper maps both ways with its defaults") {
  const auto out = run(ml_model(R"(g (string[2] x, int64[2] n) => (int64[2] y, string[2] s) {
    y = ai.onnx.ml.CategoryMapper <cats_strings = ["a", "b"], cats_int64s = [10, 20],
                                   default_int64 = -1> (x)
    s = ai.onnx.ml.CategoryMapper <cats_strings = ["a", "b"], cats_int64s = [10, 20],
                                   default_string = "none"> (n)
  })"),
                       {{"x", strs({2}, {"b", "z"})}, {"n", i64({2}, {10, 30})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{20, -1});
  CHECK(strings_of(out[1]) == std::vector<std::string>{"a", "none"});
}

TEST_CASE("ml: LinearRegressor: one row of coefficients per target, plus its intercept") {
  const auto out = run(ml_model(R"(g (float[2,2] x) => (float[2,2] y) {
    y = ai.onnx.ml.LinearRegressor <coefficients = [1.0, 2.0, 3.0, 4.0], intercepts = [0.5, -1.0],
                                    targets = 2> (x)
  })"),
                       {{"x", f32({2, 2}, {1, 1, 2, 0})}});
  // [1,1]: 1+2+0.5, 3+4-1; [2,0]: 2+0.5, 6-1.
  check_close(out[0].tensor(), {2, 2}, {3.5, 6, 2.5, 5});
}

TEST_CASE("ml: LinearClassifier scores, labels, and its softmax") {
  const std::string body = R"(g (float[2,2] x) => (int64[2] label, float[2,3] scores) {
    label, scores = ai.onnx.ml.LinearClassifier <coefficients = [1.0, 0.0, 0.0, 1.0, -1.0, -1.0],
        intercepts = [0.0, 0.0, 0.5], classlabels_ints = [7, 8, 9], post_transform = "POST"> (x)
  })";
  const Feeds feeds = {{"x", f32({2, 2}, {2, 1, -1, -2})}};
  auto none = body;
  none.replace(none.find("POST"), 4, "NONE");
  auto out = run(ml_model(none), feeds);
  // [2,1] -> [2, 1, -2.5]: class 7; [-1,-2] -> [-1, -2, 3.5]: class 9.
  CHECK(vals(out[0].tensor()) == std::vector<double>{7, 9});
  check_close(out[1].tensor(), {2, 3}, {2, 1, -2.5, -1, -2, 3.5});
  auto softmax = body;
  softmax.replace(softmax.find("POST"), 4, "SOFTMAX");
  out = run(ml_model(softmax), feeds);
  const double e0 = std::exp(2.0), e1 = std::exp(1.0), e2 = std::exp(-2.5);
  const double s = e0 + e1 + e2;
  const double f0 = std::exp(-1.0), f1 = std::exp(-2.0), f2 = std::exp(3.5);
  const double t = f0 + f1 + f2;
  check_close(out[1].tensor(), {2, 3}, {e0 / s, e1 / s, e2 / s, f0 / t, f1 / t, f2 / t});
  CHECK(vals(out[0].tensor()) == std::vector<double>{7, 9});
}

TEST_CASE("ml: ArrayFeatureExtractor picks columns of the last axis") {
  const auto out = run(ml_model(R"(g (float[2,3] x, int64[2] i) => (float[2,2] y) {
    y = ai.onnx.ml.ArrayFeatureExtractor (x, i)
  })"),
                       {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"i", i64({2}, {2, 0})}});
  check_close(out[0].tensor(), {2, 2}, {3, 1, 6, 4});
}

TEST_CASE("ml: OneHotEncoder: a category per element, unknown ones all zero") {
  const auto out = run(ml_model(R"(g (int64[1,2] x) => (float[1,2,3] y) {
    y = ai.onnx.ml.OneHotEncoder <cats_int64s = [1, 3, 5], zeros = 1> (x)
  })"),
                       {{"x", i64({1, 2}, {3, 7})}});
  check_close(out[0].tensor(), {1, 2, 3}, {0, 1, 0, 0, 0, 0});
  CHECK(run_error(ml_model(R"(g (int64[1,2] x) => (float[1,2,3] y) {
    y = ai.onnx.ml.OneHotEncoder <cats_int64s = [1, 3, 5], zeros = 0> (x)
  })"),
                  {{"x", i64({1, 2}, {3, 7})}}) != "");
}

TEST_CASE("ml: FeatureVectorizer joins its inputs' columns in order") {
  const auto out = run(ml_model(R"(g (float[2,1] a, float[2,2] b) => (float[2,3] y) {
    y = ai.onnx.ml.FeatureVectorizer <inputdimensions = [1, 2]> (a, b)
  })"),
                       {{"a", f32({2, 1}, {1, 2})}, {"b", f32({2, 2}, {3, 4, 5, 6})}});
  check_close(out[0].tensor(), {2, 3}, {1, 3, 4, 2, 5, 6});
}

TEST_CASE("ml: DictVectorizer and CastMap turn maps into tensors") {
  const auto dv = run(ml_model(R"(g (map(string, float) m) => (float[?,3] y) {
    y = ai.onnx.ml.DictVectorizer <string_vocabulary = ["x", "y", "z"]> (m)
  })"),
                      {{"m", Value::map(strs({2}, {"z", "y"}), f32({2}, {3, 2}))}});
  CHECK(vals(dv[0].tensor()) == std::vector<double>{0, 2, 3});
  const std::string cast = R"(g (map(int64, float) m) => (float[1,?] y) {
    y = ai.onnx.ml.CastMap <cast_to = "TO_FLOAT", map_form = "FORM", max_map = 4> (m)
  })";
  const Feeds feeds = {{"m", Value::map(i64({2}, {3, 1}), f32({2}, {7, 5}))}};
  auto dense = cast;
  dense.replace(dense.find("FORM"), 4, "DENSE");
  CHECK(vals(run(ml_model(dense), feeds)[0].tensor()) == std::vector<double>{5, 7});
  auto sparse = cast;
  sparse.replace(sparse.find("FORM"), 4, "SPARSE");
  CHECK(vals(run(ml_model(sparse), feeds)[0].tensor()) == std::vector<double>{0, 5, 0, 7});
}

TEST_CASE("ml: SVMRegressor with a linear kernel: coefficients times dot products, plus rho") {
  const auto out = run(ml_model(R"(g (float[2,2] x) => (float[2,1] y) {
    y = ai.onnx.ml.SVMRegressor <kernel_type = "LINEAR", support_vectors = [1.0, 0.0, 0.0, 1.0],
                                 coefficients = [1.0, 2.0], rho = [0.5], n_supports = 2> (x)
  })"),
                       {{"x", f32({2, 2}, {3, 4, -1, 1})}});
  check_close(out[0].tensor(), {2, 1}, {11.5, 1.5});
}

// Three classes with one support vector each: sv0 = [1, 0], sv1 = [0, 1], sv2 = [-1, -1]. In
// libsvm's one-versus-one layout (as the ONNX reference op_svm_classifier.py reads it),
// coefficients is (classes - 1) x vectors = [[1, -1, -1], [1, 1, -1]], and pair (i, j), in the
// order (0,1), (0,2), (1,2), decides by
//   d_ij = coef[j-1][sv of i] * K(x, sv of i) + coef[i][sv of j] * K(x, sv of j) + rho[pair]
// so d01 = K0 - K1 + 0, d02 = K0 - K2 + 0.5, d12 = K1 - K2 - 0.5. d_ij > 0 votes for i, otherwise
// for j; the label is the class with the most votes and Z holds the three decision values.
namespace {
const char* kSvc3 =
    "vectors_per_class = [1, 1, 1], support_vectors = [1.0, 0.0, 0.0, 1.0, -1.0, -1.0], "
    "coefficients = [1.0, -1.0, -1.0, 1.0, 1.0, -1.0], rho = [0.0, 0.5, -0.5]";
}  // namespace

TEST_CASE("ml: SVMClassifier, 3 classes, linear kernel: one-versus-one votes; NONE and LOGISTIC") {
  const std::string body = std::string(R"(g (float[3,2] x) => (int64[3] label, float[3,3] z) {
    label, z = ai.onnx.ml.SVMClassifier <kernel_type = "LINEAR", )") +
                           kSvc3 + R"(,
        classlabels_ints = [10, 20, 30], post_transform = "POST"> (x)
  })";
  const Feeds feeds = {{"x", f32({3, 2}, {2, 1, -1, 2, -2, -2})}};
  auto with = [&](const char* transform) {
    auto b = body;
    b.replace(b.find("POST"), 4, transform);
    return run(ml_model(b), feeds);
  };
  // K = x . sv.
  // [2,1]:   K = [2, 1, -3];  d01 = 2-1 = 1 (0), d02 = 2+3+0.5 = 5.5 (0), d12 = 1+3-0.5 = 3.5 (1):
  //          votes [2,1,0] -> 10.
  // [-1,2]:  K = [-1, 2, -1]; d01 = -1-2 = -3 (1), d02 = -1+1+0.5 = 0.5 (0),
  //          d12 = 2+1-0.5 = 2.5 (1): votes [1,2,0] -> 20.
  // [-2,-2]: K = [-2, -2, 4]; d01 = -2+2 = 0 (not > 0: 1), d02 = -2-4+0.5 = -5.5 (2),
  //          d12 = -2-4-0.5 = -6.5 (2): votes [0,1,2] -> 30.
  auto out = with("NONE");
  CHECK(vals(out[0].tensor()) == std::vector<double>{10, 20, 30});
  check_close(out[1].tensor(), {3, 3}, {1, 5.5, 3.5, -3, 0.5, 2.5, 0, -5.5, -6.5});
  // LOGISTIC maps each decision value to 1 / (1 + e^-d); the votes (and labels) stay.
  out = with("LOGISTIC");
  CHECK(vals(out[0].tensor()) == std::vector<double>{10, 20, 30});
  std::vector<double> want;
  for (double d : {1.0, 5.5, 3.5, -3.0, 0.5, 2.5, 0.0, -5.5, -6.5})
    want.push_back(1 / (1 + std::exp(-d)));
  check_close(out[1].tensor(), {3, 3}, want);
}

TEST_CASE("ml: SVMClassifier, 3 classes, RBF kernel, string labels") {
  const auto out = run(ml_model(std::string(R"(g (float[3,2] x) => (string[3] label, float[3,3] z) {
    label, z = ai.onnx.ml.SVMClassifier <kernel_type = "RBF", kernel_params = [0.5, 0.0, 0.0], )") +
                                kSvc3 + R"(,
        classlabels_strings = ["a", "b", "c"]> (x)
  })"),
                       {{"x", f32({3, 2}, {0, 1, -1, -0.5f, 1, 0})}});
  // K = exp(-0.5 |x - sv|^2).
  // [0,1]:      |x-sv|^2 = [2, 0, 5]: K = [e^-1, 1, e^-2.5] = [0.36788, 1, 0.08208];
  //             d01 = -0.63212 (b), d02 = 0.78579 (a), d12 = 0.41792 (b) -> "b".
  // [-1,-0.5]:  |x-sv|^2 = [4.25, 3.25, 0.25]: K = [0.11943, 0.19691, 0.88250];
  //             d01 = -0.07748 (b), d02 = -0.26307 (c), d12 = -1.18559 (c) -> "c".
  // [1,0]:      |x-sv|^2 = [0, 2, 5]: K = [1, e^-1, e^-2.5];
  //             d01 = 0.63212 (a), d02 = 1.41792 (a), d12 = -0.21421 (c) -> "a".
  CHECK(strings_of(out[0]) == std::vector<std::string>{"b", "c", "a"});
  const double e1 = std::exp(-1.0), e25 = std::exp(-2.5);
  const double k0 = std::exp(-2.125), k1 = std::exp(-1.625), k2 = std::exp(-0.125);
  check_close(out[1].tensor(), {3, 3},
              {e1 - 1, e1 - e25 + 0.5, 1 - e25 - 0.5,  //
               k0 - k1, k0 - k2 + 0.5, k1 - k2 - 0.5,  //
               1 - e1, 1 - e25 + 0.5, e1 - e25 - 0.5});
}

// Two classes, one support vector each: sv0 = [1, 0], sv1 = [0, 1], coefficients (2-1) x 2 =
// [[1, -1]], rho = [0.5]. The one pair (0,1) decides by d = 1 * K0 + (-1) * K1 + 0.5, d > 0
// voting for class 0. Z still has one column per class: (-d, d), then the post transform column
// by column (SOFTMAX over the row), as the ONNX reference op_svm_classifier.py writes it; ONNX
// Runtime 1.30 gives the same for NONE and LOGISTIC (for SOFTMAX it writes (1 - d, d)
// untransformed).
TEST_CASE("ml: SVMClassifier, 2 classes: the one decision value d as Z = (-d, d)") {
  const std::string body = R"(g (float[3,2] x) => (int64[3] label, float[3,2] z) {
    label, z = ai.onnx.ml.SVMClassifier <kernel_type = "LINEAR", vectors_per_class = [1, 1],
        support_vectors = [1.0, 0.0, 0.0, 1.0], coefficients = [1.0, -1.0], rho = [0.5],
        classlabels_ints = [7, 9], post_transform = "POST"> (x)
  })";
  const Feeds feeds = {{"x", f32({3, 2}, {2, 1, 0, 3, 1, 1.5f})}};
  auto with = [&](const char* transform) {
    auto b = body;
    b.replace(b.find("POST"), 4, transform);
    return run(ml_model(b), feeds);
  };
  // K = x . sv = x itself.
  // [2,1]:   d = 2 - 1 + 0.5 = 1.5 > 0: class 0 -> 7;   Z = (-1.5, 1.5).
  // [0,3]:   d = 0 - 3 + 0.5 = -2.5: class 1 -> 9;      Z = (2.5, -2.5).
  // [1,1.5]: d = 1 - 1.5 + 0.5 = 0, not > 0: class 1 -> 9; Z = (-0, 0).
  auto out = with("NONE");
  CHECK(vals(out[0].tensor()) == std::vector<double>{7, 9, 9});
  check_close(out[1].tensor(), {3, 2}, {-1.5, 1.5, 2.5, -2.5, 0, 0});
  // LOGISTIC on each column: (1 / (1 + e^d), 1 / (1 + e^-d)); the labels stay.
  // d = 1.5: (0.18243, 0.81757); d = -2.5: (0.92414, 0.07586); d = 0: (0.5, 0.5).
  out = with("LOGISTIC");
  CHECK(vals(out[0].tensor()) == std::vector<double>{7, 9, 9});
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  check_close(out[1].tensor(), {3, 2},
              {sigmoid(-1.5), sigmoid(1.5), sigmoid(2.5), sigmoid(-2.5), 0.5, 0.5});
  // SOFTMAX over (-d, d): (e^-d, e^d) / (e^-d + e^d) = (sigmoid(-2d), sigmoid(2d)).
  // d = 1.5: (0.04743, 0.95257); d = -2.5: (0.99331, 0.00669); d = 0: (0.5, 0.5).
  out = with("SOFTMAX");
  CHECK(vals(out[0].tensor()) == std::vector<double>{7, 9, 9});
  check_close(out[1].tensor(), {3, 2},
              {sigmoid(-3), sigmoid(3), sigmoid(5), sigmoid(-5), 0.5, 0.5});
}

TEST_CASE("ml: TreeEnsembleRegressor sums leaf weights onto the base value, then transforms") {
  const std::string body = std::string(R"(g (float[2,1] x) => (float[2,1] y) {
    y = ai.onnx.ml.TreeEnsembleRegressor <)") +
                           kTreeNodes + R"(,
        target_treeids = [0, 0], target_nodeids = [1, 2], target_ids = [0, 0],
        target_weights = [1.0, -2.0], n_targets = 1, base_values = [0.5],
        post_transform = "POST"> (x)
  })";
  const Feeds feeds = {{"x", f32({2, 1}, {0, 1})}};
  auto none = body;
  none.replace(none.find("POST"), 4, "NONE");
  check_close(run(ml_model(none), feeds)[0].tensor(), {2, 1}, {1.5, -1.5});
  auto logistic = body;
  logistic.replace(logistic.find("POST"), 4, "LOGISTIC");
  check_close(run(ml_model(logistic), feeds)[0].tensor(), {2, 1},
              {1 / (1 + std::exp(-1.5)), 1 / (1 + std::exp(1.5))});
}

TEST_CASE("ml: TreeEnsembleClassifier votes per class; NONE, SOFTMAX and SOFTMAX_ZERO") {
  const std::string body = std::string(R"(g (float[2,1] x) => (int64[2] label, float[2,2] p) {
    label, p = ai.onnx.ml.TreeEnsembleClassifier <)") +
                           kTreeNodes + R"(,
        class_treeids = [0, 0], class_nodeids = [1, 2], class_ids = [0, 1],
        class_weights = [2.0, 1.0], classlabels_int64s = [7, 8], post_transform = "POST"> (x)
  })";
  const Feeds feeds = {{"x", f32({2, 1}, {0, 1})}};
  auto with = [&](const char* transform) {
    auto b = body;
    b.replace(b.find("POST"), 4, transform);
    return run(ml_model(b), feeds);
  };
  auto out = with("NONE");
  CHECK(vals(out[0].tensor()) == std::vector<double>{7, 8});
  check_close(out[1].tensor(), {2, 2}, {2, 0, 0, 1});
  out = with("SOFTMAX");
  const double a = std::exp(2.0) / (std::exp(2.0) + 1), b = std::exp(1.0) / (std::exp(1.0) + 1);
  check_close(out[1].tensor(), {2, 2}, {a, 1 - a, 1 - b, b});
  // SOFTMAX_ZERO leaves zero scores at zero: each row has one non-zero score.
  out = with("SOFTMAX_ZERO");
  check_close(out[1].tensor(), {2, 2}, {1, 0, 0, 1});
}

// TreeEnsemble (ai.onnx.ml 5) on [f0, f1], two trees. Tree 0 (root node 0): f0 <= 1 (BRANCH_LEQ)
// -> leaf 0 (1), else node 1: f1 < 2 (BRANCH_LT) -> leaf 1 (-2), else leaf 2 (30). Tree 1 (root
// node 2): f1 in {1, 4} (BRANCH_MEMBER) -> leaf 3 (10), else leaf 4 (20).
TEST_CASE("ml: TreeEnsemble: LEQ, LT and MEMBER nodes; SUM, AVERAGE, MIN and MAX") {
  // n_targets targets; leaf_targetids as given; aggregate_function as given; no post transform.
  auto run_with = [](int targets, const std::string& leaf_targets, int aggregate) {
    const std::string t = std::to_string(targets);
    const std::string body = "g (float[4,2] x) => (float[4," + t + R"(] y) {
    y = ai.onnx.ml.TreeEnsemble <tree_roots = [0, 2], nodes_modes = uint8[3] {0, 1, 6},
        nodes_featureids = [0, 1, 1], nodes_splits = float[3] {1.0, 2.0, 0.0},
        nodes_truenodeids = [0, 1, 3], nodes_trueleafs = [1, 1, 1],
        nodes_falsenodeids = [1, 2, 4], nodes_falseleafs = [0, 1, 1],
        membership_values = float[3] {1.0, 4.0, nan},
        leaf_weights = float[5] {1.0, -2.0, 30.0, 10.0, 20.0}, post_transform = 0,
        leaf_targetids = )" + leaf_targets +
                             ", n_targets = " + t +
                             ", aggregate_function = " + std::to_string(aggregate) + R"(> (x)
  })";
    return run(ml_model(body, 5), {{"x", f32({4, 2}, {1, 4, 1.5f, 2, 3, 1, 0, 7})}})[0];
  };
  // The leaf each row reaches, tree 0 then tree 1:
  // [1,4]:   1 <= 1: leaf 0 (1);                  4 in {1,4}: leaf 3 (10).
  // [1.5,2]: 1.5 > 1, then 2 < 2 is false: leaf 2 (30); 2 not in {1,4}: leaf 4 (20).
  // [3,1]:   3 > 1, then 1 < 2: leaf 1 (-2);      1 in {1,4}: leaf 3 (10).
  // [0,7]:   0 <= 1: leaf 0 (1);                  7 not in {1,4}: leaf 4 (20).
  const std::string one = "[0, 0, 0, 0, 0]";
  // SUM (1): 1+10, 30+20, -2+10, 1+20.
  check_close(run_with(1, one, 1).tensor(), {4, 1}, {11, 50, 8, 21});
  // AVERAGE (0): the sums over the 2 trees.
  check_close(run_with(1, one, 0).tensor(), {4, 1}, {5.5, 25, 4, 10.5});
  // MIN (2) and MAX (3) of the two leaves.
  check_close(run_with(1, one, 2).tensor(), {4, 1}, {1, 20, -2, 1});
  check_close(run_with(1, one, 3).tensor(), {4, 1}, {10, 30, 10, 20});
  // Tree 0's leaves on target 0, tree 1's on target 1, SUM: each target gets one leaf.
  check_close(run_with(2, "[0, 0, 0, 1, 1]", 1).tensor(), {4, 2}, {1, 10, 30, 20, -2, 10, 1, 20});
}

TEST_CASE("ml: ZipMap makes one map per row, keyed by the class labels") {
  const auto out = run(ml_model(R"(g (float[2,2] x) => (seq(map(string, float)) z) {
    z = ai.onnx.ml.ZipMap <classlabels_strings = ["a", "b"]> (x)
  })"),
                       {{"x", f32({2, 2}, {0.1f, 0.9f, 0.6f, 0.4f})}});
  REQUIRE(out[0].is_sequence());
  REQUIRE(out[0].items().size() == 2);
  const Value& row1 = out[0].items()[1];
  REQUIRE(row1.is_map());
  CHECK(strings_of(Value(row1.map_keys())) == std::vector<std::string>{"a", "b"});
  check_close(row1.map_values(), {2}, {0.6, 0.4});
}

TEST_CASE("ml pipeline: Scaler -> LinearClassifier (softmax) -> ZipMap") {
  const auto out = run(ml_model(R"(g (float[1,2] x) => (int64[1] label, seq(map(int64, float)) p) {
    s = ai.onnx.ml.Scaler <offset = [1.0, 1.0], scale = [0.5, 2.0]> (x)
    label, scores = ai.onnx.ml.LinearClassifier <coefficients = [1.0, 0.0, 0.0, 1.0],
        intercepts = [0.0, 0.0], classlabels_ints = [0, 1], post_transform = "SOFTMAX"> (s)
    p = ai.onnx.ml.ZipMap <classlabels_int64s = [0, 1]> (scores)
  })"),
                       {{"x", f32({1, 2}, {5, 2})}});
  // Scaled: [(5-1)*0.5, (2-1)*2] = [2, 2]: a tie, class 0 first.
  CHECK(vals(out[0].tensor()) == std::vector<double>{0});
  check_close(out[1].items()[0].map_values(), {2}, {0.5, 0.5});
}

TEST_CASE("ml pipeline: OneHotEncoder feeding a TreeEnsembleRegressor") {
  const auto out = run(ml_model(std::string(R"(g (int64[2,1] c) => (float[2,1] y) {
    h = ai.onnx.ml.OneHotEncoder <cats_int64s = [4, 6], zeros = 1> (c)
    flat = Constant <value = int64[2] {2, 2}> ()
    f = Reshape (h, flat)
    y = ai.onnx.ml.TreeEnsembleRegressor <)") +
                                kTreeNodes + R"(,
        target_treeids = [0, 0], target_nodeids = [1, 2], target_ids = [0, 0],
        target_weights = [10.0, 20.0], n_targets = 1> (f)
  })"),
                       {{"c", i64({2, 1}, {4, 6})}});
  // Category 4 sets feature 0 (> 0.5: leaf 2, 20); category 6 leaves it 0 (leaf 1, 10).
  check_close(out[0].tensor(), {2, 1}, {20, 10});
}
