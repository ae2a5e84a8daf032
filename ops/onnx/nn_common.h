// SPDX-License-Identifier: Apache-2.0
// What the neural-network operators share (Conv, ConvTranspose, the pools, the normalisations,
// Softmax, Gemm, MatMul): element conversion to a compute type, dispatch over the float types,
// the run-time geometry of a convolution or pooling window, splitting a shape at an axis, and
// the inference of the pools.
//
// Narrow float types (float16, bfloat16, float8) are computed in float and rounded back once per
// result; double is computed in double. The heavy kernels convert whole tensors to float32
// (to_float32) and run their float path, which is what ONNX allows for those types.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/exec/blas.h"
#include "core/kernels/epilogue.h"
#include "core/types/float_formats.h"
#include "ops/op.h"

namespace onnxtool::ops::nn {

// ---- element conversion ----------------------------------------------------------------------

// The type a kernel computes in for storage type T.
template <class T>
using acc_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <class T>
inline acc_t<T> load(T v) {
  if constexpr (is_narrow_float_v<T>)
    return to_float(v);
  else
    return static_cast<acc_t<T>>(v);
}

template <class T>
inline T store(acc_t<T> v) {
  if constexpr (is_narrow_float_v<T>)
    return narrow_float<T>(v);
  else
    return static_cast<T>(v);
}

// Calls f(T{}) for a floating element type (float, double, float16, bfloat16, and the four
// float8 types when `float8` is set); fails the node for any other.
template <class F>
void visit_float(const KernelContext& ctx, DataType t, F&& f, bool float8 = false) {
  switch (t) {
    case DataType::float32:
      return f(float{});
    case DataType::float64:
      return f(double{});
    case DataType::float16:
      return f(Float16{});
    case DataType::bfloat16:
      return f(BFloat16{});
    default:
      break;
  }
  if (float8) {
    switch (t) {
      case DataType::float8e4m3fn:
        return f(Float8E4M3FN{});
      case DataType::float8e4m3fnuz:
        return f(Float8E4M3FNUZ{});
      case DataType::float8e5m2:
        return f(Float8E5M2{});
      case DataType::float8e5m2fnuz:
        return f(Float8E5M2FNUZ{});
      default:
        break;
    }
  }
  ctx.fail("element type " + std::string(type_name(t)) + " is not supported here");
}

// A float32 tensor with x's values: x itself when it is float32 already (no copy).
Tensor to_float32(const Tensor& x);
// Writes float32 values into `out` (same element count), rounding to out's element type.
void store_float32(const float* values, Tensor& out);
// The same two across ctx's threads (float16 and bfloat16 in blocks, the rest as above).
Tensor to_float32(const KernelContext& ctx, const Tensor& x);
// x's float16 or bfloat16 values as float32 into out (x.numel() floats) across ctx's threads;
// false, and nothing written, for any other type.
bool widen_half_floats(const KernelContext& ctx, const Tensor& x, float* out);
void store_float32(const KernelContext& ctx, const float* values, Tensor& out);
// For float16 and bfloat16 `out` and `residual` of its type and size: out = act(round(
// float(round(values)) + float(residual))), a node's rounding to out's type, then an Add's in
// that type (its sum in float, rounded once) and a clamp or leaky activation after it. A fused
// residual thus gives the bits of the nodes as written.
void store_float32_plus(const KernelContext& ctx, const float* values, const Tensor& residual,
                        const kernels::Epilogue& act, Tensor& out);
// The summand a residual fusion gave a node as its input `input` (-1: none, then null), checked
// to be of Y's type (float32, float16 or bfloat16) and shape, as the pass made sure.
const Tensor* residual_summand(const KernelContext& ctx, int64_t input, const Tensor& y);
// Reads any float or integer tensor's element i as double (attributes given as tensors: ratio).
double element_as_double(const Tensor& t, int64_t i);
// Every element of a float or integer tensor as double, in order.
std::vector<double> doubles_of(const Tensor& t);

// Row-major GEMM in float or double through core/exec/blas.h: C = alpha*op(A)*op(B) + beta*C.
// Without a context on the calling thread only; with one, split over the node's threads.
template <class F>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, F alpha, const F* a, int64_t lda,
          const F* b, int64_t ldb, F beta, F* c, int64_t ldc) {
  if constexpr (std::is_same_v<F, float>)
    blas::sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  else
    blas::dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <class F>
void gemm(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, F alpha,
          const F* a, int64_t lda, const F* b, int64_t ldb, F beta, F* c, int64_t ldc) {
  if constexpr (std::is_same_v<F, float>)
    blas::sgemm(ctx, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  else
    blas::dgemm(ctx, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// C = alpha*op(A)*op(B) + beta*C over the node's threads (F float or double). A single row
// (m == 1: a fully connected layer on one sample) runs as a matrix-vector product that reads B
// once, streaming, where BLAS would first pack all of B.
template <class F>
void matmul(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, F alpha,
            const F* a, int64_t lda, const F* b, int64_t ldb, F beta, F* c, int64_t ldc);

// C = op(A) * op(B) for integer types, wrapping on overflow as the hardware does (the sums are
// taken in the unsigned type of the same width). Overwrites C.
template <class T>
void int_matmul(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
                const T* b, int64_t ldb, T* c, int64_t ldc) {
  using U = std::make_unsigned_t<T>;
  std::vector<U> row(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), U(0));
    for (int64_t p = 0; p < k; ++p) {
      const U av = static_cast<U>(ta ? a[p * lda + i] : a[i * lda + p]);
      if (tb)
        for (int64_t j = 0; j < n; ++j)
          row[static_cast<std::size_t>(j)] += av * static_cast<U>(b[j * ldb + p]);
      else
        for (int64_t j = 0; j < n; ++j)
          row[static_cast<std::size_t>(j)] += av * static_cast<U>(b[p * ldb + j]);
    }
    for (int64_t j = 0; j < n; ++j)
      c[i * ldc + j] = static_cast<T>(row[static_cast<std::size_t>(j)]);
  }
}

// A weight converted once per node (float16 weights to float32, say): kept while the node's
// input is the same storage. The slot holds a shallow copy of the source, so that storage stays
// alive and unchanged (writers detach shared storage): the same address means the same values.
// Something worked out from the shapes of inputs 0 and 1 (a conv geometry, a product plan):
// in the prepare step when inference knows both shapes, else (and for other shapes) when the
// node runs. A problem found at planning is left to the run, which reports it with the shapes it
// is given.
template <class Plan>
class ShapePlan {
 public:
  template <class Compute>
  void prepare(const PrepareContext& ctx, Compute compute) {
    auto a = ctx.static_shape(0), b = ctx.static_shape(1);
    if (!a || !b) return;
    try {
      plan_ = compute(*a, *b);
      a_ = std::move(a);
      b_ = std::move(b);
    } catch (const KernelFailure&) {
    }
  }
  template <class Compute>
  Plan get(const Shape& a, const Shape& b, Compute compute) const {
    if (a_ && a == *a_ && b == *b_) return plan_;
    return compute(a, b);
  }
  // The plan made at planning, or nullptr when the shapes were not known then.
  const Plan* planned() const { return a_ ? &plan_ : nullptr; }

 private:
  std::optional<Shape> a_, b_;
  Plan plan_{};
};

// Conv and ConvTranspose operands: X of rank 3 or more, W of X's rank.
void require_conv_operands(const NodeInfo& ctx, const Shape& x, const Shape& w);

// Input i converted to float32 at planning when it is a float16/bfloat16 constant (weights);
// nullopt otherwise.
std::optional<Tensor> prepared_float32(const PrepareContext& ctx, std::size_t i);
// The float32 form of t: the prepared one when there is one, else converted now.
Tensor float32_of(const std::optional<Tensor>& prepared, const Tensor& t);

// ---- work counts (OpVersion::macs, for --profile)
// ------------------------------------------------

// A convolution: every element of `each` (Y for Conv, X for ConvTranspose) takes one weight
// filter's worth of multiply-accumulates, W's size over its first dim. 0 when a shape is absent.
double filter_macs(const WorkShapes& s, std::size_t each_output, std::size_t w_input,
                   bool each_is_input = false);
// A matrix product: every element of Y takes k multiply-accumulates, k being A's last dim
// (its first when `k_first`, Gemm's transA).
double product_macs(const WorkShapes& s, std::size_t a_input, bool k_first = false);

// Floating-point operations (OpVersion::flops, for info --cost) by convention:
//   a pooling window: every element of Y reads its window (kernel_shape) once;
FlopsFn window_flops();
//   `per_element` operations on every element of input 0: reductions and global pools 1,
//   softmax 3 (exponential, sum, division), batch normalisation 2 (scale and shift, its
//   statistics fixed), RMS 4, the other normalisations 5 (mean, variance, normalise, scale,
//   shift), Lp normalisation 3.
FlopsFn input_flops(double per_element);

// ---- shapes ----------------------------------------------------------------------------------

// Product of dims [begin, end).
int64_t product(std::span<const int64_t> dims, std::size_t begin, std::size_t end);

// A shape seen as [outer, axis, inner] around one axis.
struct AxisSplit {
  int64_t outer = 1, axis = 1, inner = 1;
};
AxisSplit split_at(const Shape& shape, int64_t axis);

// axis in [-rank, rank) -> [0, rank); fails the node otherwise.
int64_t kernel_axis(const KernelContext& ctx, int64_t axis, int64_t rank,
                    const char* what = "axis");

// Work per parallel_for item below which splitting costs more than it saves.
inline constexpr int64_t kGrainElements = 16384;
// A grain (items per chunk) so that each chunk holds at least kGrainElements of work.
inline int64_t grain_for(int64_t work_per_item) {
  return work_per_item >= kGrainElements ? 1
                                         : kGrainElements / (work_per_item > 0 ? work_per_item : 1);
}

// [begin, end) of piece `i` of `count` over `extent` cut at multiples of `quantum`: the units
// (quanta) shared out so that pieces differ by at most one unit. count <= units.
inline std::pair<int64_t, int64_t> piece_bounds(int64_t extent, int64_t count, int64_t quantum,
                                                int64_t i) {
  const int64_t units = (extent + quantum - 1) / quantum;
  return {std::min(extent, i * units / count * quantum),
          std::min(extent, (i + 1) * units / count * quantum)};
}

// one(i, parallel) for every item of a batch of independent products: with at least two items
// a thread, the items go across the threads, each on one (parallel false); with fewer, one
// after the other, each product split across the threads itself (parallel true).
template <class Fn>
void for_each_product(const KernelContext& ctx, int64_t items, int64_t grain, Fn&& one) {
  if (items >= 2 * ctx.threads()) {
    ctx.parallel_for(items, grain, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) one(i, false);
    });
    return;
  }
  for (int64_t i = 0; i < items; ++i) one(i, true);
}

// ---- convolution and pooling windows ---------------------------------------------------------

// The geometry of one conv/pool node on one input, all spatial axes resolved: auto_pad turned
// into explicit pads, ceil_mode into the output size.
struct Window {
  std::vector<int64_t> in, out, kernel, stride, dilation, pad_begin, pad_end;
  std::size_t rank() const { return in.size(); }
  int64_t in_size() const { return product(in, 0, in.size()); }
  int64_t out_size() const { return product(out, 0, out.size()); }
  int64_t kernel_size() const { return product(kernel, 0, kernel.size()); }
  // No padding, stride 1, kernel of ones: a 1x1 convolution is a plain matrix product.
  bool is_pointwise() const;
};

// Reads strides, dilations, pads and auto_pad of the node for the spatial dims `in` and the
// given kernel; `ceil_mode` as MaxPool-10+ defines it. Fails the node on wrong list lengths,
// non-positive strides, kernels or dilations, negative pads, and a window larger than the
// padded input.
Window make_window(const KernelContext& ctx, std::span<const int64_t> in,
                   const std::vector<int64_t>& kernel, bool ceil_mode = false);

// The attributes make_window reads, decoded once (by a prepare step); checked by make_window.
struct WindowAttrs {
  std::optional<std::vector<int64_t>> strides, dilations, pads;
  std::string auto_pad = "NOTSET";
};
WindowAttrs window_attrs(const NodeInfo& ctx);
Window make_window(const NodeInfo& ctx, const WindowAttrs& attrs, std::span<const int64_t> in,
                   const std::vector<int64_t>& kernel, bool ceil_mode = false);

// Fails unless x has rank >= 3 ([N, C, D1, ...]).
void require_spatial_input(const KernelContext& ctx, const Tensor& x, const char* what = "X");

// ---- inference -------------------------------------------------------------------------------

// MaxPool, AveragePool, LpPool: [N, C, window output dims]; a second output (MaxPool's Indices)
// gets the same shape as int64.
void infer_pool(InferContext& ctx);
// GlobalAveragePool and friends: [N, C, 1, ..., 1].
void infer_global_pool(InferContext& ctx);
// The input's shape with its rank checked to be at least `min_rank` (fails otherwise).
std::optional<Dims> shape_with_min_rank(InferContext& ctx, std::size_t i, int64_t min_rank);

}  // namespace onnxtool::ops::nn
