// SPDX-License-Identifier: Apache-2.0
// ReverseSequence: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

struct SeqAxes {
  int64_t time = 0, batch = 1;
};

template <class Fail>
SeqAxes seq_axes(const AttrView& attrs, Fail&& fail) {
  SeqAxes a{attrs.get_int("time_axis", 0), attrs.get_int("batch_axis", 1)};
  if (!((a.time == 0 && a.batch == 1) || (a.time == 1 && a.batch == 0)))
    fail("time_axis and batch_axis must be 0 and 1 in some order, got " + std::to_string(a.time) +
         " and " + std::to_string(a.batch));
  return a;
}

void infer_reverse_sequence(InferContext& ctx) {
  const SeqAxes a = seq_axes(ctx.attrs(), [](const std::string& m) { infer_fail(m); });
  const Dims* in = input_shape(ctx, 0);
  const Dims* lens = input_shape(ctx, 1);
  if (in && in->size() < 2) infer_fail("the input must have rank at least 2");
  if (lens && lens->size() != 1) infer_fail("sequence_lens must be 1-D");
  if (in && lens) unify_dim((*in)[static_cast<std::size_t>(a.batch)], (*lens)[0], "the batch dim");
  ctx.set_output_type(0, ctx.input_type(0));
}

// Per batch entry, the first sequence_lens[b] time steps in reverse order, the rest as they
// are; each step is one block of the inner dims.
void reverse_sequence_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const SeqAxes a = seq_axes(ctx.attrs(), [&](const std::string& m) { ctx.fail(m); });
  if (x.rank() < 2)
    ctx.fail("the input must have rank at least 2, got " + shape_to_string(x.shape()));
  const std::vector<int64_t> lens = read_ints(ctx, ctx.input(1), "sequence_lens");
  const auto strides = contiguous_strides(x.shape());
  const int64_t steps = x.shape()[static_cast<std::size_t>(a.time)];
  const int64_t batch = x.shape()[static_cast<std::size_t>(a.batch)];
  const int64_t st = strides[static_cast<std::size_t>(a.time)],
                sb = strides[static_cast<std::size_t>(a.batch)];
  const int64_t inner = shape_product(x.shape(), 2);
  if (static_cast<int64_t>(lens.size()) != batch)
    ctx.fail("sequence_lens has " + std::to_string(lens.size()) + " entries but the batch has " +
             std::to_string(batch));
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t len = lens[static_cast<std::size_t>(b)];
    if (len < 0 || len > steps)
      ctx.fail(indexed("sequence_lens", static_cast<std::size_t>(b)) + " = " + std::to_string(len) +
               " is out of range (0 to " + std::to_string(steps) + ")");
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t from = t < len ? len - 1 - t : t;
      copy_elements(x, from * st + b * sb, y, t * st + b * sb, inner);
    }
  }
}

}  // namespace

void define_ReverseSequence(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("batch_axis", AttrType::i, int64_t{1})
      .attr("time_axis", AttrType::i, int64_t{0})
      .input("input", "T")
      .input("sequence_lens", "tensor(int64)")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_reverse_sequence).kernel(reverse_sequence_kernel);
}

}  // namespace onnxtool::ops
