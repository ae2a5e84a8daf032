// SPDX-License-Identifier: Apache-2.0
// Det: the ai.onnx operator. The determinant of each square matrix in X [*, M, M], by LU
// decomposition with partial pivoting in double (the product of the pivots, its sign flipped
// per row swap); narrow float types are read and rounded back once.
#include <cmath>
#include <utility>

#include "ops/onnx/misc_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_det(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const auto x = ctx.input_type(0).shape;
  if (!x) return set_output_tensor(ctx, 0, elem);
  if (x->size() < 2) infer_fail("X must have rank >= 2, not " + std::to_string(x->size()));
  unify_dim((*x)[x->size() - 2], (*x)[x->size() - 1], "X's last two dims (square matrices)");
  set_output_tensor(ctx, 0, elem, Dims(x->begin(), x->end() - 2));
}

// Destroys the n x n matrix a (row-major).
double determinant(double* a, int64_t n) {
  double det = 1;
  for (int64_t c = 0; c < n; ++c) {
    // The largest pivot in the column keeps the elimination stable.
    int64_t pivot = c;
    for (int64_t r = c + 1; r < n; ++r)
      if (std::fabs(a[r * n + c]) > std::fabs(a[pivot * n + c])) pivot = r;
    if (a[pivot * n + c] == 0) return 0;  // singular (exactly, or lost to rounding)
    if (pivot != c) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[c * n + j], a[pivot * n + j]);
      det = -det;
    }
    const double p = a[c * n + c];
    det *= p;
    for (int64_t r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / p;
      if (f == 0) continue;
      for (int64_t j = c + 1; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
    }
  }
  return det;
}

void det_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  misc::require_float(ctx, x, "X");
  const Shape& s = x.shape();
  if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2])
    ctx.fail("X must be [*, M, M] (square matrices), not " + shape_to_string(s));
  const int64_t n = s.back();
  std::vector<double> v = misc::values_as<double>(ctx, x, "X");
  const Shape out(s.begin(), s.end() - 2);
  const int64_t items = misc::shape_size(out);
  std::vector<double> d(static_cast<std::size_t>(items));
  ctx.parallel_for(items, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, n * n * n)),
                   [&](int64_t lo, int64_t hi) {
                     for (int64_t i = lo; i < hi; ++i)
                       d[static_cast<std::size_t>(i)] = determinant(v.data() + i * n * n, n);
                   });
  misc::write_output<double>(ctx, 0, x.dtype(), out, d);
}

}  // namespace

void define_Det(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_det).kernel(det_kernel);
}

}  // namespace onnxtool::ops
