// SPDX-License-Identifier: Apache-2.0
// Gather: the ai.onnx operator.
#include <cstring>

#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Gather on a shape vector (Gather(Shape(x), 0)): the picked dims become the output's values.
void gather_shape_values(InferContext& ctx, const Dims& data, int64_t axis) {
  const auto values = input_dims_values(ctx, 0);
  const auto indices = input_ints(ctx, 1);
  const Dims* ishape = input_shape(ctx, 1);
  if (!values || !indices || data.size() != 1 || axis != 0 || !ishape || ishape->size() > 1) return;
  auto picked = gather_values(*values, *indices);
  if (!picked)
    infer_fail("an index is out of range for the " + std::to_string(values->size()) +
               " values of the data");
  set_values(ctx, 0, std::move(*picked), ishape->empty());
}

// The output is data's dims before axis, then the indices' dims, then data's dims after axis.
void infer_gather(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* data = input_shape(ctx, 0);
  const Dims* indices = input_shape(ctx, 1);
  if (!data || !indices) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  if (data->empty()) infer_fail("cannot gather from a scalar");
  const int64_t axis =
      normalize_axis(ctx.attrs().get_int("axis", 0), static_cast<int64_t>(data->size()));
  Dims out(data->begin(), data->begin() + axis);
  out.insert(out.end(), indices->begin(), indices->end());
  out.insert(out.end(), data->begin() + axis + 1, data->end());
  set_output_tensor(ctx, 0, elem, out);
  gather_shape_values(ctx, *data, axis);
}

// Each (outer, index) pair is one contiguous block of the inner dims.
void gather_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& ind = ctx.input(1);
  if (x.rank() == 0) ctx.fail("cannot gather from a scalar");
  const auto axis =
      static_cast<std::size_t>(kernel_axis(ctx, ctx.attrs().get_int("axis", 0), x.rank()));
  const int64_t dim = x.shape()[axis];
  std::vector<int64_t> idx = read_ints(ctx, ind, "indices");
  for (std::size_t j = 0; j < idx.size(); ++j)
    idx[j] = checked_index_at(ctx, idx[j], dim, j, static_cast<std::size_t>(axis));
  Shape out(x.shape().begin(), x.shape().begin() + static_cast<std::ptrdiff_t>(axis));
  out.insert(out.end(), ind.shape().begin(), ind.shape().end());
  out.insert(out.end(), x.shape().begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.shape().end());
  Tensor& y = ctx.output(0, x.dtype(), out);
  const int64_t outer = shape_product(x.shape(), 0, axis),
                inner = shape_product(x.shape(), axis + 1);
  const auto n = static_cast<int64_t>(idx.size());
  const auto w = static_cast<int64_t>(elem_width(x.dtype()));
  if (x.dtype() == DataType::string) {
    for (int64_t r = 0; r < outer * n; ++r)
      copy_elements(x, (r / n * dim + idx[static_cast<std::size_t>(r % n)]) * inner, y, r * inner,
                    inner);
    return;
  }
  const std::byte* src = x.raw();
  std::byte* dst = y.mutable_raw();
  parallel_rows(&ctx, outer * n, inner * w, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t from = (r / n * dim + idx[static_cast<std::size_t>(r % n)]) * inner;
      std::memcpy(dst + r * inner * w, src + from * w, static_cast<std::size_t>(inner * w));
    }
  });
}

}  // namespace

void define_Gather(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("axis", AttrType::i, int64_t{0})
      .input("data", "T")
      .input("indices", "Tind")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{0})
      .input("data", "T")
      .input("indices", "Tind")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("indices", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_gather).kernel(gather_kernel);
  // Version 11 counts a negative axis from the end (negative indices, known only when the
  // model runs, are the caller's to keep in range).
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
}

}  // namespace onnxtool::ops
