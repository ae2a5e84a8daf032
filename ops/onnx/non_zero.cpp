// SPDX-License-Identifier: Apache-2.0
// NonZero: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// [rank, number of non-zero elements]; a scalar counts as a 1-D tensor of one element (as
// numpy.nonzero and ONNX Runtime treat it).
void infer_non_zero(InferContext& ctx) {
  const Dims* in = input_shape(ctx, 0);
  const auto int64 = dtype_code(DataType::int64);
  Dim rank = in ? Dim::value(std::max<int64_t>(1, static_cast<int64_t>(in->size()))) : Dim();
  Dim count;
  if (in && std::any_of(in->begin(), in->end(),
                        [](const Dim& d) { return d.is_known() && d.value() == 0; }))
    count = Dim::value(0);
  set_output_tensor(ctx, 0, int64, Dims{rank, count});
  if (!count.is_known())
    ctx.explain(0, "the number of non-zero elements depends on the input's values");
}

template <class T>
bool non_zero(const T& v) {
  if constexpr (std::is_same_v<T, std::string>)
    return !v.empty();
  else if constexpr (is_complex_v<T>)
    return v != T{};
  else
    return load(v) != 0;
}

// The coordinates of the non-zero elements in row-major order, one row per axis.
void non_zero_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  std::vector<int64_t> hits;
  visit_type(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>) {
      for (int64_t i = 0; i < x.numel(); ++i)
        if (non_zero(x.strings()[static_cast<std::size_t>(i)])) hits.push_back(i);
    } else {
      const T* p = x.data<T>();
      for (int64_t i = 0; i < x.numel(); ++i)
        if (non_zero<T>(p[i])) hits.push_back(i);
    }
  });
  const Shape shape = x.rank() == 0 ? Shape{1} : x.shape();
  const auto r = static_cast<int64_t>(shape.size()), n = static_cast<int64_t>(hits.size());
  Tensor& y = ctx.output(0, DataType::int64, {r, n});
  int64_t* out = y.mutable_data<int64_t>();
  for (int64_t j = 0; j < n; ++j) {
    int64_t rem = hits[static_cast<std::size_t>(j)];
    for (int64_t k = r; k-- > 0;) {
      out[k * n + j] = rem % shape[static_cast<std::size_t>(k)];
      rem /= shape[static_cast<std::size_t>(k)];
    }
  }
}

}  // namespace

void define_NonZero(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("X", "T")
      .output("Y", "tensor(int64)")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .input("X", "T", D::non_differentiable)
      .output("Y", "tensor(int64)", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_non_zero).kernel(non_zero_kernel);
}

}  // namespace onnxtool::ops
