// SPDX-License-Identifier: Apache-2.0
// GatherND: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Output: indices' dims but the last, then data's dims after batch_dims + the index length.
void infer_gather_nd(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* data = input_shape(ctx, 0);
  const Dims* indices = input_shape(ctx, 1);
  const int64_t b = ctx.attrs().get_int("batch_dims", 0);
  if (!data || !indices || indices->empty() || !indices->back().is_known()) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto r = static_cast<int64_t>(data->size()), q = static_cast<int64_t>(indices->size());
  const int64_t k = indices->back().value();
  if (b < 0 || b >= std::min(r, q))
    infer_fail("batch_dims " + std::to_string(b) + " must be less than both ranks");
  if (k < 1 || b + k > r)
    infer_fail("an index of length " + std::to_string(k) + " does not fit data of rank " +
               std::to_string(r) + " after " + std::to_string(b) + " batch dims");
  Dims out(indices->begin(), indices->end() - 1);
  for (int64_t i = 0; i < b; ++i)
    out[static_cast<std::size_t>(i)] = unify_dim(out[static_cast<std::size_t>(i)],
                                                 (*data)[static_cast<std::size_t>(i)], "batch dim");
  out.insert(out.end(), data->begin() + b + k, data->end());
  set_output_tensor(ctx, 0, elem, out);
}

// Each index tuple picks one contiguous slice of data (inside its batch).
void gather_nd_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& ind = ctx.input(1);
  const int64_t b = ctx.attrs().get_int("batch_dims", 0);
  const int64_t r = x.rank(), q = ind.rank();
  if (q < 1 || r < 1) ctx.fail("data and indices must have rank at least 1");
  const int64_t k = ind.shape().back();
  if (b < 0 || b >= std::min(r, q))
    ctx.fail("batch_dims " + std::to_string(b) + " must be less than both ranks");
  if (b + k > r || k < 1)
    ctx.fail("indices " + shape_to_string(ind.shape()) + " hold tuples of " + std::to_string(k) +
             ", too long for data " + shape_to_string(x.shape()) + " after " + std::to_string(b) +
             " batch dims");
  for (int64_t i = 0; i < b; ++i)
    if (x.shape()[static_cast<std::size_t>(i)] != ind.shape()[static_cast<std::size_t>(i)])
      ctx.fail("batch dim " + std::to_string(i) + " differs between data " +
               shape_to_string(x.shape()) + " and indices " + shape_to_string(ind.shape()));
  Shape out(ind.shape().begin(), ind.shape().end() - 1);
  out.insert(out.end(), x.shape().begin() + b + k, x.shape().end());
  Tensor& y = ctx.output(0, x.dtype(), out);
  const auto bs = static_cast<std::size_t>(b);
  const int64_t batches = shape_product(x.shape(), 0, bs);
  const int64_t batch_size = shape_product(x.shape(), bs);
  const int64_t slice = shape_product(x.shape(), bs + static_cast<std::size_t>(k));
  const int64_t tuples =
      batches == 0 ? 0 : shape_product(ind.shape(), 0, static_cast<std::size_t>(q - 1)) / batches;
  const std::vector<int64_t> idx = read_ints(ctx, ind, "indices");
  const auto strides = contiguous_strides(x.shape());
  for (int64_t t = 0; t < batches * tuples; ++t) {
    int64_t off = t / tuples * batch_size;
    for (int64_t j = 0; j < k; ++j) {
      const auto at = static_cast<std::size_t>(t * k + j), axis = bs + static_cast<std::size_t>(j);
      off += checked_index_at(ctx, idx[at], x.shape()[axis], at, axis) * strides[axis];
    }
    copy_elements(x, off, y, t * slice, slice);
  }
}

}  // namespace

void define_GatherND(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("data", "T")
      .input("indices", "tensor(int64)")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(12)
      .attr("batch_dims", AttrType::i, int64_t{0})
      .input("data", "T")
      .input("indices", "tensor(int64)")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr("batch_dims", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("indices", "tensor(int64)", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_gather_nd).kernel(gather_nd_kernel);
}

}  // namespace onnxtool::ops
