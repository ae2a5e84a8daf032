// SPDX-License-Identifier: Apache-2.0
// LRN: the ai.onnx operator. Local response normalisation across channels:
//   y = x / (bias + alpha / size * sum of x^2 over channels [c - floor((size-1)/2),
//            c + ceil((size-1)/2)])^beta
#include <algorithm>
#include <cmath>

#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_lrn(InferContext& ctx) {
  const auto x = nn::shape_with_min_rank(ctx, 0, 2);
  if (ctx.attrs().get_int("size", 1) <= 0) ctx.fail("size must be positive");
  set_output_tensor(ctx, 0, ctx.input_elem_type(0), x);
}

// base^-beta; the common beta 0.75 without pow.
template <class A>
A inverse_power(A base, A beta) {
  if (beta == A(0.75)) {
    const A r = std::sqrt(base);
    return A(1) / (r * std::sqrt(r));
  }
  return std::pow(base, -beta);
}

template <class T>
void lrn_plane(const T* x, T* y, int64_t c, int64_t channels, int64_t plane, int64_t size,
               float alpha, float beta, float bias, std::vector<nn::acc_t<T>>& sum) {
  using A = nn::acc_t<T>;
  const int64_t lo = std::max<int64_t>(0, c - (size - 1) / 2);
  const int64_t hi = std::min<int64_t>(channels - 1, c + size / 2);  // size/2 = ceil((size-1)/2)
  sum.assign(static_cast<std::size_t>(plane), A(0));
  for (int64_t k = lo; k <= hi; ++k) {
    const T* p = x + (k - c) * plane;
    for (int64_t i = 0; i < plane; ++i) {
      const A v = nn::load<T>(p[i]);
      sum[static_cast<std::size_t>(i)] += v * v;
    }
  }
  const A scale = static_cast<A>(alpha) / static_cast<A>(size);
  for (int64_t i = 0; i < plane; ++i)
    y[i] =
        nn::store<T>(nn::load<T>(x[i]) *
                     inverse_power(static_cast<A>(bias) + scale * sum[static_cast<std::size_t>(i)],
                                   static_cast<A>(beta)));
}

struct LrnState {
  std::optional<int64_t> size;  // required: checked when the node runs
  float alpha = 1e-4f, beta = 0.75f, bias = 1.0f;
};

LrnState prepare_lrn(PrepareContext& ctx) {
  const AttrView& a = ctx.attrs();
  return {a.opt_int("size"), a.get_float("alpha", 1e-4f), a.get_float("beta", 0.75f),
          a.get_float("bias", 1.0f)};
}

void lrn_kernel(KernelContext& ctx, const LrnState& s) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2)
    ctx.fail("X has shape " + shape_to_string(x.shape()) + "; expected [N, C, D1, ...]");
  const int64_t size = s.size ? *s.size : ctx.attrs().get_int("size");
  if (size <= 0) ctx.fail("size must be positive, got " + std::to_string(size));
  const float alpha = s.alpha, beta = s.beta, bias = s.bias;
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  const int64_t channels = x.shape()[1];
  const int64_t plane = nn::product(x.shape(), 2, x.shape().size());
  const int64_t planes = x.shape()[0] * channels;
  if (x.numel() == 0) return;
  nn::visit_float(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = y.mutable_data<T>();
    ctx.parallel_for(planes, nn::grain_for(plane * size), [&](int64_t lo, int64_t hi) {
      std::vector<nn::acc_t<T>> sum;
      for (int64_t p = lo; p < hi; ++p)
        lrn_plane(src + p * plane, dst + p * plane, p % channels, channels, plane, size, alpha,
                  beta, bias, sum);
    });
  });
}

}  // namespace

void define_LRN(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.0001f)
      .attr("beta", AttrType::f, 0.75f)
      .attr("bias", AttrType::f, 1.0f)
      .attr_required("size", AttrType::i)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("alpha", AttrType::f, 0.0001f)
      .attr("beta", AttrType::f, 0.75f)
      .attr("bias", AttrType::f, 1.0f)
      .attr_required("size", AttrType::i)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_lrn).kernel(prepared_kernel(prepare_lrn, lrn_kernel));
}

}  // namespace onnxtool::ops
