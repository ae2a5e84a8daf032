// SPDX-License-Identifier: Apache-2.0
// TopK: the ai.onnx operator.
#include <cmath>
#include <numeric>

#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

std::optional<int64_t> infer_k(const InferContext& ctx) {
  if (since(ctx) < 10) return ctx.attrs().get_int("k");
  return input_int(ctx, 1);
}

// Values and Indices: the input's shape with the axis dim replaced by k.
void infer_top_k(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const auto int64 = dtype_code(DataType::int64);
  const Dims* in = input_shape(ctx, 0);
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    set_output_tensor(ctx, 1, int64);
    return;
  }
  const auto axis = static_cast<std::size_t>(
      normalize_axis(ctx.attrs().get_int("axis", -1), static_cast<int64_t>(in->size())));
  const auto k = infer_k(ctx);
  Dims out = *in;
  if (k) {
    const Dim& d = (*in)[axis];
    if (*k < 0 || (d.is_known() && *k > d.value()))
      infer_fail("k = " + std::to_string(*k) + " is out of range for axis " + std::to_string(axis) +
                 " of size " + d.to_string());
    out[axis] = Dim::value(*k);
  } else {
    out[axis] = Dim();
    ctx.explain(0, "k is not known");
  }
  set_output_tensor(ctx, 0, elem, out);
  set_output_tensor(ctx, 1, int64, out);
}

// Orders (value, index) pairs: the larger (or smaller) value first, ties by the lower index;
// NaN counts as larger than any number.
template <class A>
bool before(A a, int64_t ia, A b, int64_t ib, bool largest) {
  if constexpr (std::is_floating_point_v<A>) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) {
      if (na && nb) return ia < ib;
      return largest ? na : nb;
    }
  }
  if (a != b) return largest ? a > b : a < b;
  return ia < ib;
}

template <class T>
void top_k_typed(KernelContext& ctx, const Tensor& x, Tensor& values, Tensor& indices,
                 std::size_t axis, int64_t k, bool largest) {
  using A = arith_t<T>;
  const int64_t dim = x.shape()[axis];
  const int64_t outer = shape_product(x.shape(), 0, axis),
                inner = shape_product(x.shape(), axis + 1);
  const T* src = x.data<T>();
  T* vout = values.mutable_data<T>();
  int64_t* iout = indices.mutable_data<int64_t>();
  parallel_rows(&ctx, outer * inner, dim * 16, [&](int64_t b, int64_t e) {
    std::vector<int64_t> order(static_cast<std::size_t>(dim));
    std::vector<A> v(static_cast<std::size_t>(dim));
    for (int64_t s = b; s < e; ++s) {
      const int64_t base = s / inner * dim * inner + s % inner;
      for (int64_t i = 0; i < dim; ++i)
        v[static_cast<std::size_t>(i)] = load(src[base + i * inner]);
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t p, int64_t q) {
        return before<A>(v[static_cast<std::size_t>(p)], p, v[static_cast<std::size_t>(q)], q,
                         largest);
      });
      const int64_t obase = s / inner * k * inner + s % inner;
      for (int64_t j = 0; j < k; ++j) {
        const int64_t i = order[static_cast<std::size_t>(j)];
        vout[obase + j * inner] = src[base + i * inner];
        iout[obase + j * inner] = i;
      }
    }
  });
}

// The k largest (or smallest) along axis, sorted (also when sorted=0: any order is allowed).
void top_k_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("TopK needs an input of rank at least 1");
  const auto axis =
      static_cast<std::size_t>(kernel_axis(ctx, ctx.attrs().get_int("axis", -1), x.rank()));
  const int64_t k =
      since(ctx) < 10 ? ctx.attrs().get_int("k") : read_scalar_int(ctx, ctx.input(1), "K");
  if (k < 0 || k > x.shape()[axis])
    ctx.fail("k = " + std::to_string(k) + " is out of range for axis " + std::to_string(axis) +
             " of size " + std::to_string(x.shape()[axis]));
  const bool largest = since(ctx) < 11 || ctx.attrs().get_int("largest", 1) != 0;
  Shape out = x.shape();
  out[axis] = k;
  Tensor& values = ctx.output(0, x.dtype(), out);
  Tensor& indices = ctx.output(1, DataType::int64, out);
  visit_type(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_real_v<T> && !std::is_same_v<T, bool>)
      top_k_typed<T>(ctx, x, values, indices, axis, k, largest);
    else
      ctx.fail("TopK does not order " + std::string(type_name(x.dtype())));
  });
}

}  // namespace

void define_TopK(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr_required("k", AttrType::i)
      .input("X", "T")
      .output("Values", "T")
      .output("Indices", "I")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(10)
      .attr("axis", AttrType::i, int64_t{-1})
      .input("X", "T")
      .input("K", "tensor(int64)")
      .output("Values", "T")
      .output("Indices", "I")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("largest", AttrType::i, int64_t{1})
      .attr("sorted", AttrType::i, int64_t{1})
      .input("X", "T", D::differentiable)
      .input("K", "tensor(int64)", D::non_differentiable)
      .output("Values", "T", D::differentiable)
      .output("Indices", "I", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("largest", AttrType::i, int64_t{1})
      .attr("sorted", AttrType::i, int64_t{1})
      .input("X", "T", D::differentiable)
      .input("K", "tensor(int64)", D::non_differentiable)
      .output("Values", "T", D::differentiable)
      .output("Indices", "I", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("I", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_top_k).kernel(top_k_kernel);
  // Version 10 takes k as an input; 11 counts a negative axis from the end.
  op.at(10)
      .upgrade(convert::int_attribute_to_input("k", 1))
      .downgrade(convert::input_to_attribute("k", 1, /*scalar=*/true));
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
}

}  // namespace onnxtool::ops
