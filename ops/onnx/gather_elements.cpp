// SPDX-License-Identifier: Apache-2.0
// GatherElements: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The output has the indices' shape; data and indices have the same rank.
void infer_gather_elements(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* data = input_shape(ctx, 0);
  const Dims* indices = input_shape(ctx, 1);
  if (data && indices && data->size() != indices->size())
    infer_fail("data has rank " + std::to_string(data->size()) + " but indices rank " +
               std::to_string(indices->size()) + " (expected equal)");
  if (data) normalize_axis(ctx.attrs().get_int("axis", 0), static_cast<int64_t>(data->size()));
  set_output_tensor(ctx, 0, elem, indices ? std::optional<Dims>(*indices) : std::nullopt);
}

// out[i...] = data[i... with i[axis] replaced by indices[i...]]: one walk over the indices.
void gather_elements_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& ind = ctx.input(1);
  if (x.rank() != ind.rank() || x.rank() == 0)
    ctx.fail("data " + shape_to_string(x.shape()) + " and indices " + shape_to_string(ind.shape()) +
             " must have the same rank, at least 1");
  const auto axis =
      static_cast<std::size_t>(kernel_axis(ctx, ctx.attrs().get_int("axis", 0), x.rank()));
  for (std::size_t k = 0; k < x.shape().size(); ++k)
    if (k != axis && ind.shape()[k] > x.shape()[k])
      ctx.fail("indices " + shape_to_string(ind.shape()) + " exceed data " +
               shape_to_string(x.shape()) + " on axis " + std::to_string(k));
  const std::vector<int64_t> idx = read_ints(ctx, ind, "indices");
  Tensor& y = ctx.output(0, x.dtype(), ind.shape());
  std::vector<int64_t> strides = contiguous_strides(x.shape());
  const int64_t axis_stride = strides[axis], dim = x.shape()[axis];
  strides[axis] = 0;
  // Elements of 4 or 8 bytes move as such (a copy_elements call each took most of the time).
  const std::size_t width = x.dtype() == DataType::string ? 0 : elem_width(x.dtype());
  auto gather = [&](auto tag) {
    using E = decltype(tag);
    const auto* from = reinterpret_cast<const E*>(x.raw());
    auto* to = reinterpret_cast<E*>(y.mutable_raw());
    walk_offsets(ind.shape(), strides, [&](int64_t flat, int64_t off) {
      const auto f = static_cast<std::size_t>(flat);
      to[flat] = from[off + checked_index_at(ctx, idx[f], dim, f, axis) * axis_stride];
    });
  };
  if (width == 4) return gather(uint32_t{});
  if (width == 8) return gather(uint64_t{});
  walk_offsets(ind.shape(), strides, [&](int64_t flat, int64_t off) {
    const auto f = static_cast<std::size_t>(flat);
    const int64_t i = checked_index_at(ctx, idx[f], dim, f, axis);
    copy_elements(x, off + i * axis_stride, y, flat, 1);
  });
}

}  // namespace

void define_GatherElements(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
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
  op.all().infer(infer_gather_elements).kernel(gather_elements_kernel);
}

}  // namespace onnxtool::ops
