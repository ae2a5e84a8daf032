// SPDX-License-Identifier: Apache-2.0
// LpNormalization: the ai.onnx operator. y = x / ||x||_p along `axis` (p is 1 or 2). A zero
// vector divides by zero, as the spec's formula does.
#include <cmath>

#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_lp_norm(InferContext& ctx) {
  const Type& x = ctx.input_type(0);
  if (x.has_shape() && x.rank() > 0) ctx.normalize_axis(ctx.attrs().get_int("axis", -1), x.rank());
  const int64_t p = ctx.attrs().get_int("p", 2);
  if (p != 1 && p != 2) ctx.fail("p must be 1 or 2, got " + std::to_string(p));
  set_output_tensor(ctx, 0, ctx.input_elem_type(0), x.shape);
}

template <class T>
void lp_block(const T* x, T* y, int64_t len, int64_t inner, bool l1,
              std::vector<nn::acc_t<T>>& norm) {
  using A = nn::acc_t<T>;
  norm.assign(static_cast<std::size_t>(inner), A(0));
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      const A v = nn::load<T>(x[r * inner + i]);
      norm[static_cast<std::size_t>(i)] += l1 ? std::abs(v) : v * v;
    }
  if (!l1)
    for (A& n : norm) n = std::sqrt(n);
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i)
      y[r * inner + i] =
          nn::store<T>(nn::load<T>(x[r * inner + i]) / norm[static_cast<std::size_t>(i)]);
}

struct LpNormState {
  int64_t axis = -1, p = 2;
};

LpNormState prepare_lp_norm(PrepareContext& ctx) {
  return {ctx.attrs().get_int("axis", -1), ctx.attrs().get_int("p", 2)};
}

void lp_norm_kernel(KernelContext& ctx, const LpNormState& state) {
  const Tensor& x = ctx.input(0);
  const int64_t p = state.p;
  if (p != 1 && p != 2) ctx.fail("p must be 1 or 2, got " + std::to_string(p));
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  if (x.numel() == 0) return;
  if (x.rank() == 0) ctx.fail("the input must have rank >= 1");
  const nn::AxisSplit s = nn::split_at(x.shape(), nn::kernel_axis(ctx, state.axis, x.rank()));
  nn::visit_float(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = y.mutable_data<T>();
    const int64_t block = s.axis * s.inner;
    ctx.parallel_for(s.outer, nn::grain_for(block * 2), [&](int64_t lo, int64_t hi) {
      std::vector<nn::acc_t<T>> norm;
      for (int64_t o = lo; o < hi; ++o)
        lp_block(src + o * block, dst + o * block, s.axis, s.inner, p == 1, norm);
    });
  });
}

}  // namespace

void define_LpNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("p", AttrType::i, int64_t{2})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("p", AttrType::i, int64_t{2})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_lp_norm).kernel(prepared_kernel(prepare_lp_norm, lp_norm_kernel));
  op.all().flops(nn::input_flops(3));
}

}  // namespace onnxtool::ops
