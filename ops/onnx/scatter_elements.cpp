// SPDX-License-Identifier: Apache-2.0
// ScatterElements: the ai.onnx operator.
#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

// The output is data's type and shape; indices and updates have one shape, of data's rank.
void infer_scatter_elements(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 2});
  const Dims* data = input_shape(ctx, 0);
  const Dims* indices = input_shape(ctx, 1);
  const Dims* updates = input_shape(ctx, 2);
  if (indices && updates) unify_shapes(*indices, *updates, "indices and updates");
  if (data && indices && data->size() != indices->size())
    infer_fail("data has rank " + std::to_string(data->size()) + " but indices rank " +
               std::to_string(indices->size()) + " (expected equal)");
  if (data) normalize_axis(ctx.attrs().get_int("axis", 0), static_cast<int64_t>(data->size()));
  set_output_tensor(ctx, 0, elem, data ? std::optional<Dims>(*data) : std::nullopt);
}

namespace {

void check_scatter_shapes(const KernelContext& ctx, const Tensor& x, const Tensor& ind,
                          const Tensor& upd, std::size_t axis) {
  if (ind.shape() != upd.shape())
    ctx.fail("indices " + shape_to_string(ind.shape()) + " and updates " +
             shape_to_string(upd.shape()) + " must have the same shape");
  for (std::size_t k = 0; k < x.shape().size(); ++k)
    if (k != axis && ind.shape()[k] > x.shape()[k])
      ctx.fail("indices " + shape_to_string(ind.shape()) + " exceed data " +
               shape_to_string(x.shape()) + " on axis " + std::to_string(k));
}

}  // namespace

// The output starts as a copy of data; updates[i...] goes to i... with i[axis] replaced by
// indices[i...], combined by the reduction (later duplicates win under none).
void scatter_elements_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& ind = ctx.input(1);
  const Tensor& upd = ctx.input(2);
  if (x.rank() != ind.rank() || x.rank() == 0)
    ctx.fail("data " + shape_to_string(x.shape()) + " and indices " + shape_to_string(ind.shape()) +
             " must have the same rank, at least 1");
  if (upd.dtype() != x.dtype()) ctx.fail("updates must have data's element type");
  const auto axis =
      static_cast<std::size_t>(kernel_axis(ctx, ctx.attrs().get_int("axis", 0), x.rank()));
  check_scatter_shapes(ctx, x, ind, upd, axis);
  const Reduction r = since(ctx) >= 16 ? read_reduction(ctx) : Reduction::none;
  const std::vector<int64_t> idx = read_ints(ctx, ind, "indices");
  std::vector<int64_t> strides = contiguous_strides(x.shape());
  const int64_t axis_stride = strides[axis], dim = x.shape()[axis];
  strides[axis] = 0;
  std::vector<Move> moves(idx.size());
  walk_offsets(ind.shape(), strides, [&](int64_t flat, int64_t off) {
    const auto f = static_cast<std::size_t>(flat);
    const int64_t i = checked_index_at(ctx, idx[f], dim, f, axis);
    moves[f] = Move{off + i * axis_stride, flat, 1};
  });
  Tensor y = x.clone();
  apply_moves(ctx, y, upd, moves, r);
  ctx.set_output(0, Value(std::move(y)));
}

namespace {

void scatter_elements_to_scatter(AdapterContext& ctx) {
  ctx.set_op_type("Scatter");
  ctx.describe("ScatterElements -> Scatter (the same inputs)");
}

}  // namespace

void define_ScatterElements(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr("axis", AttrType::i, int64_t{0})
      .input("data", "T")
      .input("indices", "Tind")
      .input("updates", "T")
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
      .input("updates", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(16)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("reduction", AttrType::s, "none")
      .input("data", "T", D::differentiable)
      .input("indices", "Tind", D::non_differentiable)
      .input("updates", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(18)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("reduction", AttrType::s, "none")
      .input("data", "T", D::differentiable)
      .input("indices", "Tind", D::non_differentiable)
      .input("updates", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_scatter_elements).kernel(scatter_elements_kernel);
  // Below 11 ScatterElements is Scatter, which did not count a negative axis from the end.
  op.at(11).downgrade(
      convert::all_of({convert::nonnegative_axes("axis"), scatter_elements_to_scatter}));
  op.at(18).downgrade(convert::refuse_values("reduction", {"max", "min"}));
}

}  // namespace onnxtool::ops
