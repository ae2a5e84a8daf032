// SPDX-License-Identifier: Apache-2.0
// CumSum: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

void infer_cumulative(InferContext& ctx) {
  const Dims* axis = input_shape(ctx, 1);
  if (axis &&
      !(axis->empty() || (axis->size() == 1 && (*axis)[0].is_known() && (*axis)[0].value() == 1)))
    infer_fail("axis must be a scalar, got shape " + dims_to_string(*axis));
  const Dims* in = input_shape(ctx, 0);
  if (in && !in->empty())
    if (auto a = input_int(ctx, 1)) normalize_axis(*a, static_cast<int64_t>(in->size()));
  ctx.set_output_type(0, ctx.input_type(0));
}

namespace {

// One line along the axis: `n` elements `stride` apart, accumulated in the type's arithmetic
// type (float for float16/bfloat16).
template <class T>
void accumulate_line(const T* src, T* dst, int64_t n, int64_t stride, char op, bool exclusive,
                     bool reverse) {
  using A = arith_t<T>;
  A acc = op == '+' ? A(0) : A(1);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t i = (reverse ? n - 1 - j : j) * stride;
    const A x = load(src[i]);
    if (!exclusive) acc = op == '+' ? static_cast<A>(acc + x) : static_cast<A>(acc * x);
    dst[i] = store<T>(acc);
    if (exclusive) acc = op == '+' ? static_cast<A>(acc + x) : static_cast<A>(acc * x);
  }
}

}  // namespace

KernelFn cumulative_kernel(char op) {
  return [op](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() == 0) ctx.fail("the input must have rank at least 1");
    const auto axis = static_cast<std::size_t>(
        kernel_axis(ctx, read_scalar_int(ctx, ctx.input(1), "axis"), x.rank()));
    const bool exclusive = ctx.attrs().get_int("exclusive", 0) != 0;
    const bool reverse = ctx.attrs().get_int("reverse", 0) != 0;
    Tensor& y = ctx.output(0, x.dtype(), x.shape());
    const int64_t n = x.shape()[axis], inner = shape_product(x.shape(), axis + 1);
    const int64_t lines = shape_product(x.shape(), 0, axis) * inner;
    visit_type(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (is_real_v<T> && !std::is_same_v<T, bool>) {
        const T* src = x.data<T>();
        T* dst = y.mutable_data<T>();
        parallel_rows(&ctx, lines, n * 8, [&](int64_t b, int64_t e) {
          for (int64_t l = b; l < e; ++l) {
            const int64_t base = l / inner * n * inner + l % inner;
            accumulate_line<T>(src + base, dst + base, n, inner, op, exclusive, reverse);
          }
        });
      } else {
        ctx.fail("cannot accumulate " + std::string(type_name(x.dtype())));
      }
    });
  };
}

void define_CumSum(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr("exclusive", AttrType::i, int64_t{0})
      .attr("reverse", AttrType::i, int64_t{0})
      .input("x", "T", D::differentiable)
      .input("axis", "T2", D::non_differentiable)
      .output("y", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  op.since(14)
      .attr("exclusive", AttrType::i, int64_t{0})
      .attr("reverse", AttrType::i, int64_t{0})
      .input("x", "T", D::differentiable)
      .input("axis", "T2", D::non_differentiable)
      .output("y", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_cumulative).kernel(cumulative_kernel('+'));
}

}  // namespace onnxtool::ops
