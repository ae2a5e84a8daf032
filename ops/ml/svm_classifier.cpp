// SPDX-License-Identifier: Apache-2.0
// SVMClassifier: the ai.onnx.ml operator. With support vectors (vectors_per_class), libsvm's
// one-versus-one scheme: a decision value per pair of classes, each voting for a class; with
// prob_a/prob_b the pairwise values become probabilities (Platt scaling) coupled into class
// probabilities, which then pick the label. Without support vectors, a linear model per class
// (coefficients . x + rho). Scores are post-transformed. With two classes and no probabilities
// the single decision value d becomes one score per class, (-d, d), before the transform, as in
// the ONNX reference (op_svm_classifier.py) and ONNX Runtime.
#include <algorithm>
#include <cmath>

#include "ops/ml/svm_common.h"

namespace onnxtool::ops {

namespace {

int64_t class_count(const AttrView& a) {
  return static_cast<int64_t>(std::max(a.get_ints("classlabels_ints", {}).size(),
                                       a.get_strings("classlabels_strings", {}).size()));
}

bool uses_probabilities(const AttrView& a) {
  return !a.get_floats("prob_a", {}).empty();
}

void infer_svm_classifier(InferContext& ctx) {
  const Dim n = ml::batch_dim(ctx, 0);
  set_output_tensor(ctx, 0, ml::label_elem(ctx, "classlabels_strings"), Dims{n});
  const int64_t classes = class_count(ctx.attrs());
  const bool svc = !ctx.attrs().get_ints("vectors_per_class", {}).empty();
  // Two classes, one decision value: (-d, d), one score per class.
  const int64_t width = !svc || uses_probabilities(ctx.attrs()) ? classes
                        : classes == 2                          ? 2
                                                                : classes * (classes - 1) / 2;
  set_output_tensor(ctx, 1, static_cast<int32_t>(DataType::float32), Dims{n, Dim::value(width)});
}

// libsvm's coupling of pairwise probabilities r[i][j] into class probabilities.
std::vector<double> couple(const std::vector<std::vector<double>>& r, int64_t k) {
  std::vector<std::vector<double>> q(static_cast<std::size_t>(k),
                                     std::vector<double>(static_cast<std::size_t>(k)));
  std::vector<double> p(static_cast<std::size_t>(k), 1.0 / static_cast<double>(k)), qp(p.size());
  const auto uk = static_cast<std::size_t>(k);
  for (std::size_t t = 0; t < uk; ++t) {
    for (std::size_t j = 0; j < t; ++j) {
      q[t][t] += r[j][t] * r[j][t];
      q[t][j] = q[j][t];
    }
    for (std::size_t j = t + 1; j < uk; ++j) {
      q[t][t] += r[j][t] * r[j][t];
      q[t][j] = -r[j][t] * r[t][j];
    }
  }
  const double eps = 0.005 / static_cast<double>(k);
  for (int64_t iter = 0; iter < std::max<int64_t>(100, k); ++iter) {
    double pqp = 0;
    for (std::size_t t = 0; t < uk; ++t) {
      qp[t] = 0;
      for (std::size_t j = 0; j < uk; ++j) qp[t] += q[t][j] * p[j];
      pqp += p[t] * qp[t];
    }
    double max_error = 0;
    for (std::size_t t = 0; t < uk; ++t) max_error = std::max(max_error, std::abs(qp[t] - pqp));
    if (max_error < eps) break;
    for (std::size_t t = 0; t < uk; ++t) {
      const double diff = (-qp[t] + pqp) / q[t][t];
      p[t] += diff;
      pqp = (pqp + diff * (diff * q[t][t] + 2 * qp[t])) / (1 + diff) / (1 + diff);
      for (std::size_t j = 0; j < uk; ++j) {
        qp[j] = (qp[j] + diff * q[t][j]) / (1 + diff);
        p[j] /= (1 + diff);
      }
    }
  }
  return p;
}

double platt(double dec, double a, double b) {
  const double f = dec * a + b;
  return f >= 0 ? std::exp(-f) / (1 + std::exp(-f)) : 1 / (1 + std::exp(f));
}

struct Svc {
  ml::SvmKernel kernel;
  std::vector<int64_t> per_class, start;
  std::vector<float> coef, sv, rho, prob_a, prob_b;
  int64_t classes = 0, vectors = 0;
};

// One row: the label index and the scores written to z.
int64_t classify_svc(const Svc& m, const double* x, int64_t cols, std::vector<double>& z) {
  std::vector<double> k(static_cast<std::size_t>(m.vectors));
  for (int64_t v = 0; v < m.vectors; ++v)
    k[static_cast<std::size_t>(v)] = m.kernel(x, m.sv.data() + v * cols, cols);
  std::vector<int64_t> votes(static_cast<std::size_t>(m.classes));
  std::vector<double> dec;
  const auto uc = static_cast<std::size_t>(m.classes);
  std::vector<std::vector<double>> r(uc, std::vector<double>(uc));
  std::size_t pair = 0;
  for (int64_t i = 0; i < m.classes; ++i)
    for (int64_t j = i + 1; j < m.classes; ++j, ++pair) {
      double s = 0;
      const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
      for (int64_t v = 0; v < m.per_class[ui]; ++v)
        s += m.coef[static_cast<std::size_t>((j - 1) * m.vectors + m.start[ui] + v)] *
             k[static_cast<std::size_t>(m.start[ui] + v)];
      for (int64_t v = 0; v < m.per_class[uj]; ++v)
        s += m.coef[static_cast<std::size_t>(i * m.vectors + m.start[uj] + v)] *
             k[static_cast<std::size_t>(m.start[uj] + v)];
      s += m.rho[pair];
      dec.push_back(s);
      ++votes[s > 0 ? ui : uj];
      if (!m.prob_a.empty()) {
        const double p = std::clamp(platt(s, m.prob_a[pair], m.prob_b[pair]), 1e-7, 1 - 1e-7);
        r[ui][uj] = p;
        r[uj][ui] = 1 - p;
      }
    }
  if (!m.prob_a.empty()) {
    z = couple(r, m.classes);
    return std::max_element(z.begin(), z.end()) - z.begin();
  }
  // Two classes: the one decision value d as (-d, d), as the ONNX reference and ONNX Runtime write
  // it, although d > 0 votes for class 0 (the label still follows the votes).
  z = m.classes == 2 ? std::vector<double>{-dec[0], dec[0]} : dec;
  return std::max_element(votes.begin(), votes.end()) - votes.begin();
}

Svc read_svc(const KernelContext& ctx, int64_t cols) {
  Svc m;
  m.kernel = ml::read_svm_kernel(ctx);
  m.per_class = ctx.attrs().get_ints("vectors_per_class", {});
  m.classes = static_cast<int64_t>(m.per_class.size());
  for (int64_t c : m.per_class) {
    m.start.push_back(m.vectors);
    m.vectors += c;
  }
  m.coef = ctx.attrs().get_floats("coefficients", {});
  m.sv = ctx.attrs().get_floats("support_vectors", {});
  m.rho = ctx.attrs().get_floats("rho", {});
  m.prob_a = ctx.attrs().get_floats("prob_a", {});
  m.prob_b = ctx.attrs().get_floats("prob_b", {});
  const auto pairs = static_cast<std::size_t>(m.classes * (m.classes - 1) / 2);
  if (static_cast<int64_t>(m.sv.size()) != m.vectors * cols ||
      static_cast<int64_t>(m.coef.size()) != (m.classes - 1) * m.vectors || m.rho.size() != pairs ||
      (!m.prob_a.empty() && (m.prob_a.size() != pairs || m.prob_b.size() != pairs)))
    ctx.fail("the support vectors, coefficients, rho and prob_a/prob_b do not fit " +
             std::to_string(m.classes) + " classes with " + std::to_string(m.vectors) +
             " support vectors");
  return m;
}

void svm_classifier_kernel(KernelContext& ctx) {
  const ml::Features x = ml::read_features(ctx, ctx.input(0));
  const ml::Labels labels = ml::read_labels(ctx, "classlabels_ints", "classlabels_strings");
  const ml::Post post = ml::post_from_name(ctx, ctx.attrs().get_string("post_transform", "NONE"));
  const bool svc = !ctx.attrs().get_ints("vectors_per_class", {}).empty();
  std::vector<int64_t> label(static_cast<std::size_t>(x.rows));
  std::vector<double> z_all;
  int64_t width = 0;
  if (svc) {
    const Svc m = read_svc(ctx, x.cols);
    std::vector<double> z;
    for (int64_t r = 0; r < x.rows; ++r) {
      label[static_cast<std::size_t>(r)] = classify_svc(m, x.row(r), x.cols, z);
      ml::apply_post(post, z.data(), static_cast<int64_t>(z.size()));
      width = static_cast<int64_t>(z.size());
      z_all.insert(z_all.end(), z.begin(), z.end());
    }
  } else {
    const ml::SvmKernel kernel = ml::read_svm_kernel(ctx);
    const std::vector<float> coef = ctx.attrs().get_floats("coefficients", {});
    const std::vector<float> rho = ctx.attrs().get_floats("rho", {});
    if (x.cols == 0 || coef.size() % static_cast<std::size_t>(x.cols))
      ctx.fail("coefficients do not fit the features");
    width = static_cast<int64_t>(coef.size()) / x.cols;
    for (int64_t r = 0; r < x.rows; ++r) {
      std::vector<double> z(static_cast<std::size_t>(width));
      for (int64_t c = 0; c < width; ++c)
        z[static_cast<std::size_t>(c)] =
            kernel(x.row(r), coef.data() + c * x.cols, x.cols) +
            (rho.empty() ? 0.0 : rho[static_cast<std::size_t>(c) % rho.size()]);
      ml::apply_post(post, z.data(), width);
      label[static_cast<std::size_t>(r)] = std::max_element(z.begin(), z.end()) - z.begin();
      z_all.insert(z_all.end(), z.begin(), z.end());
    }
  }
  if (labels.size() > 0)
    for (int64_t l : label)
      if (l >= static_cast<int64_t>(labels.size())) ctx.fail("more classes than class labels");
  ml::write_labels(ctx, 0, labels, label, {x.rows});
  misc::write_output<double>(ctx, 1, DataType::float32, {x.rows, width}, z_all);
}

}  // namespace

void define_ml_SVMClassifier(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classlabels_ints", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .attr_optional("coefficients", AttrType::floats)
      .attr_optional("kernel_params", AttrType::floats)
      .attr("kernel_type", AttrType::s, "LINEAR")
      .attr("post_transform", AttrType::s, "NONE")
      .attr_optional("prob_a", AttrType::floats)
      .attr_optional("prob_b", AttrType::floats)
      .attr_optional("rho", AttrType::floats)
      .attr_optional("support_vectors", AttrType::floats)
      .attr_optional("vectors_per_class", AttrType::ints)
      .input("X", "T1")
      .output("Y", "T2")
      .output("Z", "tensor(float)")
      .constraint("T1", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_svm_classifier).kernel(svm_classifier_kernel);
}

}  // namespace onnxtool::ops
