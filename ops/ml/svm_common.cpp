// SPDX-License-Identifier: Apache-2.0
#include "ops/ml/svm_common.h"

#include <cmath>

namespace onnxtool::ops::ml {

double SvmKernel::operator()(const double* a, const float* b, int64_t n) const {
  if (type == Type::rbf) {
    double d = 0;
    for (int64_t i = 0; i < n; ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
    return std::exp(-gamma * d);
  }
  double dot = 0;
  for (int64_t i = 0; i < n; ++i) dot += a[i] * b[i];
  if (type == Type::poly) return std::pow(gamma * dot + coef0, degree);
  if (type == Type::sigmoid) return std::tanh(gamma * dot + coef0);
  return dot;
}

SvmKernel read_svm_kernel(const KernelContext& ctx) {
  SvmKernel k;
  const std::string t = ctx.attrs().get_string("kernel_type", "LINEAR");
  if (t == "LINEAR")
    k.type = SvmKernel::Type::linear;
  else if (t == "POLY")
    k.type = SvmKernel::Type::poly;
  else if (t == "RBF")
    k.type = SvmKernel::Type::rbf;
  else if (t == "SIGMOID")
    k.type = SvmKernel::Type::sigmoid;
  else
    ctx.fail("kernel_type must be LINEAR, POLY, RBF or SIGMOID, got \"" + t + "\"");
  const std::vector<float> p = ctx.attrs().get_floats("kernel_params", {});
  if (!p.empty()) k.gamma = p[0];
  if (p.size() > 1) k.coef0 = p[1];
  if (p.size() > 2) k.degree = p[2];
  return k;
}

}  // namespace onnxtool::ops::ml
