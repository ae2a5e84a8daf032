// SPDX-License-Identifier: Apache-2.0
// ScatterND: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The output is data's type and shape.
void infer_scatter_nd(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 2});
  const Dims* data = input_shape(ctx, 0);
  const Dims* indices = input_shape(ctx, 1);
  const Dims* updates = input_shape(ctx, 2);
  if (data && indices && updates && !indices->empty() && indices->back().is_known()) {
    const int64_t k = indices->back().value();
    const std::size_t expected = indices->size() - 1 + data->size() - static_cast<std::size_t>(k);
    if (k > static_cast<int64_t>(data->size()) || updates->size() != expected)
      infer_fail("updates have rank " + std::to_string(updates->size()) + ", expected " +
                 std::to_string(expected) + " for indices " + dims_to_string(*indices) +
                 " into data " + dims_to_string(*data));
  }
  set_output_tensor(ctx, 0, elem, data ? std::optional<Dims>(*data) : std::nullopt);
}

// Each index tuple addresses one contiguous slice of the output, which receives the matching
// slice of updates (combined by the reduction).
void scatter_nd_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& ind = ctx.input(1);
  const Tensor& upd = ctx.input(2);
  if (ind.rank() < 1) ctx.fail("indices must have rank at least 1");
  if (upd.dtype() != x.dtype()) ctx.fail("updates must have data's element type");
  const int64_t k = ind.shape().back();
  if (k > x.rank() || k < 0)
    ctx.fail("indices " + shape_to_string(ind.shape()) + " hold tuples longer than data's rank " +
             std::to_string(x.rank()));
  Shape expected(ind.shape().begin(), ind.shape().end() - 1);
  expected.insert(expected.end(), x.shape().begin() + k, x.shape().end());
  if (upd.shape() != expected)
    ctx.fail("updates have shape " + shape_to_string(upd.shape()) + ", expected " +
             shape_to_string(expected));
  const Reduction r = since(ctx) >= 16 ? read_reduction(ctx) : Reduction::none;
  const std::vector<int64_t> idx = read_ints(ctx, ind, "indices");
  const auto strides = contiguous_strides(x.shape());
  const int64_t slice = shape_product(x.shape(), static_cast<std::size_t>(k));
  const int64_t tuples = shape_product(ind.shape(), 0, static_cast<std::size_t>(ind.rank() - 1));
  std::vector<Move> moves;
  moves.reserve(static_cast<std::size_t>(tuples));
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; ++j) {
      const auto at = static_cast<std::size_t>(t * k + j), axis = static_cast<std::size_t>(j);
      off += checked_index_at(ctx, idx[at], x.shape()[axis], at, axis) * strides[axis];
    }
    moves.push_back(Move{off, t * slice, slice});
  }
  Tensor y = x.clone();
  apply_moves(ctx, y, upd, moves, r);
  ctx.set_output(0, Value(std::move(y)));
}

}  // namespace

void define_ScatterND(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("data", "T")
      .input("indices", "tensor(int64)")
      .input("updates", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .input("data", "T", D::differentiable)
      .input("indices", "tensor(int64)", D::non_differentiable)
      .input("updates", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(16)
      .attr("reduction", AttrType::s, "none")
      .input("data", "T", D::differentiable)
      .input("indices", "tensor(int64)", D::non_differentiable)
      .input("updates", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(18)
      .attr("reduction", AttrType::s, "none")
      .input("data", "T", D::differentiable)
      .input("indices", "tensor(int64)", D::non_differentiable)
      .input("updates", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_scatter_nd).kernel(scatter_nd_kernel);
  op.at(18).downgrade(convert::refuse_values("reduction", {"max", "min"}));
}

}  // namespace onnxtool::ops
