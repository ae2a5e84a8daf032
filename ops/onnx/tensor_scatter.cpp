// SPDX-License-Identifier: Apache-2.0
// TensorScatter: the ai.onnx operator. The cache with `update` written along `axis` at each
// batch entry's write index (0 when write_indices is omitted); in circular mode the positions
// wrap around the cache's length.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_tensor_scatter(InferContext& ctx) {
  const Dims* past = misc::input_dims(ctx, 0);
  const Dims* update = misc::input_dims(ctx, 1);
  const int32_t elem = unify_input_elem_types(ctx, {0, 1});
  if (past && update) {
    if (past->size() != update->size()) infer_fail("past_cache and update must have the same rank");
    const int64_t axis =
        ctx.normalize_axis(ctx.attrs().get_int("axis", -2), static_cast<int64_t>(past->size()));
    if (axis == 0) infer_fail("axis cannot be 0 (the batch dimension)");
    for (std::size_t i = 0; i < past->size(); ++i)
      if (static_cast<int64_t>(i) != axis)
        ctx.unify_dims((*past)[i], (*update)[i], "dim " + std::to_string(i));
  }
  if (const Dims* w = misc::input_dims(ctx, 2)) {
    if (w->size() != 1) infer_fail("write_indices must be 1-D (batch_size)");
    if (past) ctx.unify_dims((*w)[0], (*past)[0], "batch size");
  }
  set_output_tensor(ctx, 0, elem, past ? std::optional<Dims>(*past) : std::nullopt);
}

void tensor_scatter_kernel(KernelContext& ctx) {
  const Tensor& past = ctx.input(0);
  const Tensor& update = ctx.input(1);
  const int64_t rank = past.rank();
  int64_t axis = ctx.attrs().get_int("axis", -2);
  if (axis < -rank || axis >= rank) ctx.fail("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += rank;
  if (axis == 0) ctx.fail("axis cannot be 0 (the batch dimension)");
  const std::string mode = ctx.attrs().get_string("mode", "linear");
  if (mode != "linear" && mode != "circular") ctx.fail("mode must be linear or circular");
  const auto a = static_cast<std::size_t>(axis);
  bool same = update.dtype() == past.dtype() && update.rank() == rank;
  for (std::size_t d = 0; same && d < past.shape().size(); ++d)
    same = d == a || update.shape()[d] == past.shape()[d];
  if (!same)
    ctx.fail("update " + shape_to_string(update.shape()) + " must match past_cache " +
             shape_to_string(past.shape()) + " except along axis " + std::to_string(axis));
  const int64_t batch = past.shape()[0], max_len = past.shape()[a], len = update.shape()[a];
  std::vector<int64_t> where(static_cast<std::size_t>(batch), 0);
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    const Tensor& w = ctx.input(2);
    if (w.shape() != Shape{batch})
      ctx.fail("write_indices must have shape [" + std::to_string(batch) + "]");
    where = misc::values_as<int64_t>(ctx, w, "write_indices");
  }
  Tensor out = past.clone();
  const int64_t inner = misc::shape_size(past.shape(), a + 1);
  const int64_t per_batch = misc::shape_size(past.shape(), 1, a);  // prefixes per batch entry
  const int64_t width = past.dtype() == DataType::string ? 0 : type_info(past.dtype()).mem_bytes;
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t start = where[static_cast<std::size_t>(b)];
    if (mode == "linear" && (start < 0 || start + len > max_len))
      ctx.fail("write index " + std::to_string(start) + " + " + std::to_string(len) +
               " updates exceeds the cache length " + std::to_string(max_len));
    for (int64_t p = 0; p < per_batch; ++p) {
      const int64_t prefix = b * per_batch + p;
      for (int64_t s = 0; s < len; ++s) {
        int64_t at = start + s;
        if (mode == "circular") at = ((at % max_len) + max_len) % max_len;
        const int64_t dst = (prefix * max_len + at) * inner, src = (prefix * len + s) * inner;
        if (past.dtype() == DataType::string)
          std::copy_n(update.strings().begin() + src, inner, out.mutable_strings().begin() + dst);
        else
          std::copy_n(update.raw() + src * width, inner * width, out.mutable_raw() + dst * width);
      }
    }
  }
  ctx.set_output(0, out);
}

}  // namespace

void define_TensorScatter(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(24)
      .attr("axis", AttrType::i, int64_t{-2})
      .attr("mode", AttrType::s, "linear")
      .input("past_cache", "T", D::differentiable)
      .input("update", "T", D::differentiable)
      .input_optional("write_indices", "tensor(int64)", D::non_differentiable)
      .output("present_cache", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_tensor_scatter).kernel(tensor_scatter_kernel);
}

}  // namespace onnxtool::ops
