// SPDX-License-Identifier: Apache-2.0
// What SVMClassifier and SVMRegressor share: the kernel functions (LINEAR, POLY, RBF, SIGMOID
// with kernel_params gamma, coef0, degree) and reading the support vectors.
#pragma once

#include "ops/ml/ml_common.h"

namespace onnxtool::ops::ml {

struct SvmKernel {
  enum class Type { linear, poly, rbf, sigmoid } type = Type::linear;
  double gamma = 0, coef0 = 0, degree = 0;
  double operator()(const double* a, const float* b, int64_t n) const;
};

SvmKernel read_svm_kernel(const KernelContext& ctx);

}  // namespace onnxtool::ops::ml
