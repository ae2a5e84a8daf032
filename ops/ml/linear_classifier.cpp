// SPDX-License-Identifier: Apache-2.0
// LinearClassifier: the ai.onnx.ml operator. Scores = X coefficients^T + intercepts (one row of
// coefficients per class), post-transformed; the label is the class of the highest score. With
// two labels and one row of coefficients (a binary model) the scores are (-s, s) (or (1-p, p)
// after a transform to probabilities) and the label is the second class when s > 0 (p > 0.5).
#include <algorithm>

#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_linear_classifier(InferContext& ctx) {
  const Dim n = ml::batch_dim(ctx, 0);
  const auto labels = std::max(ctx.attrs().get_ints("classlabels_ints", {}).size(),
                               ctx.attrs().get_strings("classlabels_strings", {}).size());
  set_output_tensor(ctx, 0, ml::label_elem(ctx, "classlabels_strings"), Dims{n});
  set_output_tensor(ctx, 1, static_cast<int32_t>(DataType::float32),
                    Dims{n, labels > 0 ? Dim::value(static_cast<int64_t>(labels)) : Dim()});
}

void linear_classifier_kernel(KernelContext& ctx) {
  const ml::Features x = ml::read_features(ctx, ctx.input(0));
  const ml::Labels labels = ml::read_labels(ctx, "classlabels_ints", "classlabels_strings");
  const std::vector<float> coef = ctx.attrs().get_floats("coefficients");
  const std::vector<float> intercepts = ctx.attrs().get_floats("intercepts", {});
  if (x.cols == 0 || coef.size() % static_cast<std::size_t>(x.cols) != 0)
    ctx.fail(std::to_string(coef.size()) + " coefficients do not make rows of " +
             std::to_string(x.cols) + " features");
  const auto classes = static_cast<int64_t>(coef.size()) / x.cols;
  if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != classes)
    ctx.fail("intercepts has " + std::to_string(intercepts.size()) + " values for " +
             std::to_string(classes) + " classes");
  const ml::Post post = ml::post_from_name(ctx, ctx.attrs().get_string("post_transform", "NONE"));
  const bool binary = classes == 1 && labels.size() == 2;
  const int64_t width = binary ? 2 : classes;
  if (!binary && labels.size() != 0 && static_cast<int64_t>(labels.size()) != classes)
    ctx.fail(std::to_string(labels.size()) + " labels for " + std::to_string(classes) +
             " rows of coefficients");
  std::vector<float> z(static_cast<std::size_t>(x.rows * width));
  std::vector<int64_t> label(static_cast<std::size_t>(x.rows));
  std::vector<double> s(static_cast<std::size_t>(classes));
  for (int64_t r = 0; r < x.rows; ++r) {
    for (int64_t c = 0; c < classes; ++c) {
      double v = intercepts.empty() ? 0.0 : intercepts[static_cast<std::size_t>(c)];
      for (int64_t f = 0; f < x.cols; ++f)
        v += coef[static_cast<std::size_t>(c * x.cols + f)] * x.row(r)[f];
      s[static_cast<std::size_t>(c)] = v;
    }
    if (binary) {
      double v = s[0];
      ml::apply_post(post, &v, 1);
      const bool probability = post != ml::Post::none;
      label[static_cast<std::size_t>(r)] = v > (probability ? 0.5 : 0.0) ? 1 : 0;
      z[static_cast<std::size_t>(r * 2)] = static_cast<float>(probability ? 1 - v : -v);
      z[static_cast<std::size_t>(r * 2 + 1)] = static_cast<float>(v);
      continue;
    }
    ml::apply_post(post, s.data(), classes);
    label[static_cast<std::size_t>(r)] = std::max_element(s.begin(), s.end()) - s.begin();
    for (int64_t c = 0; c < classes; ++c)
      z[static_cast<std::size_t>(r * classes + c)] =
          static_cast<float>(s[static_cast<std::size_t>(c)]);
  }
  ml::write_labels(ctx, 0, labels, label, {x.rows});
  ctx.set_output(1, Tensor::from_vector<float>({x.rows, width}, z));
}

}  // namespace

void define_ml_LinearClassifier(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classlabels_ints", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .attr_required("coefficients", AttrType::floats)
      .attr_optional("intercepts", AttrType::floats)
      .attr("multi_class", AttrType::i, int64_t{0})
      .attr("post_transform", AttrType::s, "NONE")
      .input("X", "T1")
      .output("Y", "T2")
      .output("Z", "tensor(float)")
      .constraint("T1", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_linear_classifier).kernel(linear_classifier_kernel);
}

}  // namespace onnxtool::ops
