// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/softmax_common.h"

#include <cmath>
#include <limits>

#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops::nn {

namespace {

// The rows the operation runs over, as [outer, axis, inner]: the coerced 2-D view before 13.
AxisSplit softmax_split(const KernelContext& ctx, const Shape& shape) {
  const auto rank = static_cast<int64_t>(shape.size());
  // The schema gives each version's default axis.
  const int64_t axis = ctx.attrs().get_int("axis");
  if (ctx.schema().since >= 13) {
    if (rank == 0) return {};
    return split_at(shape, kernel_axis(ctx, axis, rank));
  }
  // Coerced to 2-D; axis may equal the rank (one element per row), or be 0 for a scalar.
  if (axis < -rank || axis > rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
  return {product(shape, 0, a), product(shape, a, shape.size()), 1};
}

// One [axis, inner] block: max, then exponentials and their sum, then the normalisation, each
// pass running along `inner` (contiguous) for every position on the axis.
template <class T>
void softmax_block(SoftmaxKind kind, const T* x, T* y, int64_t len, int64_t inner,
                   std::vector<acc_t<T>>& scratch) {
  using A = acc_t<T>;
  scratch.assign(static_cast<std::size_t>(2 * inner), A(0));
  A* mx = scratch.data();
  A* sum = mx + inner;
  std::fill(mx, mx + inner, -std::numeric_limits<A>::infinity());
  std::vector<int64_t> arg(kind == SoftmaxKind::hardmax ? static_cast<std::size_t>(inner) : 0, 0);
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      const A v = load<T>(x[r * inner + i]);
      if (v > mx[i]) {
        mx[i] = v;
        if (kind == SoftmaxKind::hardmax) arg[static_cast<std::size_t>(i)] = r;
      }
    }
  if (kind == SoftmaxKind::hardmax) {
    for (int64_t r = 0; r < len; ++r)
      for (int64_t i = 0; i < inner; ++i)
        y[r * inner + i] = store<T>(arg[static_cast<std::size_t>(i)] == r ? A(1) : A(0));
    return;
  }
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      const A e = std::exp(load<T>(x[r * inner + i]) - mx[i]);
      sum[i] += e;
      if (kind == SoftmaxKind::softmax) y[r * inner + i] = store<T>(e);
    }
  if (kind == SoftmaxKind::softmax) {
    for (int64_t i = 0; i < inner; ++i) sum[i] = A(1) / sum[i];
    if constexpr (std::is_same_v<T, A>) {
      for (int64_t r = 0; r < len; ++r)
        for (int64_t i = 0; i < inner; ++i) y[r * inner + i] *= sum[i];
      return;
    } else {
      // Narrow types: recompute rather than round twice.
      for (int64_t r = 0; r < len; ++r)
        for (int64_t i = 0; i < inner; ++i)
          y[r * inner + i] = store<T>(std::exp(load<T>(x[r * inner + i]) - mx[i]) * sum[i]);
      return;
    }
  }
  for (int64_t i = 0; i < inner; ++i) sum[i] = mx[i] + std::log(sum[i]);
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i)
      y[r * inner + i] = store<T>(load<T>(x[r * inner + i]) - sum[i]);
}

}  // namespace

void infer_softmax(InferContext& ctx) {
  const Type& t = ctx.input_type(0);
  if (t.has_shape() && ctx.schema().since >= 13 && t.rank() > 0)
    ctx.normalize_axis(ctx.attrs().get_int("axis", -1), t.rank());
  propagate_elem_type(ctx, 0, 0);
  propagate_shape(ctx, 0, 0);
}

void softmax_kernel(KernelContext& ctx, SoftmaxKind kind) {
  const Tensor& x = ctx.input(0);
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  if (x.numel() == 0) return;
  const AxisSplit s = softmax_split(ctx, x.shape());
  visit_float(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = y.mutable_data<T>();
    const int64_t block = s.axis * s.inner;
    ctx.parallel_for(s.outer, grain_for(block * 4), [&](int64_t lo, int64_t hi) {
      std::vector<acc_t<T>> scratch;
      for (int64_t o = lo; o < hi; ++o)
        softmax_block<T>(kind, src + o * block, dst + o * block, s.axis, s.inner, scratch);
    });
  });
}

}  // namespace onnxtool::ops::nn
