// SPDX-License-Identifier: Apache-2.0
// EyeLike: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

int32_t output_elem(const AttrView& attrs, int32_t input_elem) {
  return attrs.has("dtype") ? static_cast<int32_t>(attrs.get_int("dtype")) : input_elem;
}

// The input's 2-D shape, in the dtype attribute's type (else the input's).
void infer_eye_like(InferContext& ctx) {
  const Dims* in = input_shape(ctx, 0);
  if (in && in->size() != 2) infer_fail("the input must be 2-D, got " + dims_to_string(*in));
  const int32_t elem = output_elem(ctx.attrs(), ctx.input_elem_type(0));
  if (elem && !data_type_from_int(elem))
    infer_fail("dtype " + std::to_string(elem) + " is not an element type");
  set_output_tensor(ctx, 0, elem, in ? std::optional<Dims>(*in) : std::nullopt);
}

// Zeros with ones on the k-th diagonal.
void eye_like_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 2) ctx.fail("the input must be 2-D, got " + shape_to_string(x.shape()));
  const auto type = data_type_from_int(output_elem(ctx.attrs(), static_cast<int32_t>(x.dtype())));
  if (!type || *type == DataType::string) ctx.fail("dtype is not a numeric element type");
  const int64_t k = ctx.attrs().get_int("k", 0);
  Tensor& y = ctx.output(0, *type, x.shape());
  const Tensor one = scalar_of(*type, 1);
  const int64_t rows = x.shape()[0], cols = x.shape()[1];
  if (k >= cols || k <= -rows) return;  // the diagonal misses the matrix
  for (int64_t i = k < 0 ? -k : 0; i < rows; ++i) {
    const int64_t j = i + k;
    if (j >= cols) break;
    copy_elements(one, 0, y, i * cols + j, 1);
  }
}

}  // namespace

void define_EyeLike(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_optional("dtype", AttrType::i)
      .attr("k", AttrType::i, int64_t{0})
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"});
  op.since(22)
      .attr_optional("dtype", AttrType::i)
      .attr("k", AttrType::i, int64_t{0})
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_eye_like).kernel(eye_like_kernel);
}

}  // namespace onnxtool::ops
