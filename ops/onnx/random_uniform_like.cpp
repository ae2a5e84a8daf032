// SPDX-License-Identifier: Apache-2.0
// RandomUniformLike: the ai.onnx operator. A tensor of the input's shape filled with samples
// uniform in [low, high), of element type dtype (the input's type when dtype is absent).
#include "ops/onnx/random_common.h"

namespace onnxtool::ops {

namespace {

void infer_random_uniform_like(InferContext& ctx) {
  const int32_t t = rnd::output_dtype(ctx, ctx.input_elem_type(0), rnd::float_outputs());
  propagate_shape(ctx, 0, 0, t);
}

void random_uniform_like_kernel(KernelContext& ctx, const rnd::Generator& generator) {
  const Tensor& x = ctx.input(0);
  const DataType t = rnd::output_dtype(ctx, x.dtype(), rnd::float_outputs());
  const double low = ctx.attrs().get_float("low", 0.0f), high = ctx.attrs().get_float("high", 1.0f);
  if (!(low <= high)) ctx.fail("low must not be above high");
  std::uniform_real_distribution<double> dist(low, high);
  std::vector<double> v(static_cast<std::size_t>(x.numel()));
  rnd::Draws draws(generator);
  auto& gen = draws.engine();
  for (double& e : v) e = dist(gen);
  misc::write_output<double>(ctx, 0, t, x.shape(), v);
}

}  // namespace

void define_RandomUniformLike(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("dtype", AttrType::i)
      .attr("high", AttrType::f, 1.0f)
      .attr("low", AttrType::f, 0.0f)
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr_optional("dtype", AttrType::i)
      .attr("high", AttrType::f, 1.0f)
      .attr("low", AttrType::f, 0.0f)
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  // Random draws: never folded at load.
  op.all()
      .infer(infer_random_uniform_like)
      .kernel(prepared_kernel(rnd::prepare_generator, random_uniform_like_kernel))
      .trait(Trait::nondeterministic);
}

}  // namespace onnxtool::ops
