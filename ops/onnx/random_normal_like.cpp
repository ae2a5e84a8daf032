// SPDX-License-Identifier: Apache-2.0
// RandomNormalLike: the ai.onnx operator. A tensor of the input's shape filled with samples of
// N(mean, scale^2), of element type dtype (the input's type when dtype is absent).
#include "ops/onnx/random_common.h"

namespace onnxtool::ops {

namespace {

void infer_random_normal_like(InferContext& ctx) {
  const int32_t t = rnd::output_dtype(ctx, ctx.input_elem_type(0), rnd::float_outputs());
  propagate_shape(ctx, 0, 0, t);
}

void random_normal_like_kernel(KernelContext& ctx, const rnd::Generator& generator) {
  const Tensor& x = ctx.input(0);
  const DataType t = rnd::output_dtype(ctx, x.dtype(), rnd::float_outputs());
  std::normal_distribution<double> dist(ctx.attrs().get_float("mean", 0.0f),
                                        ctx.attrs().get_float("scale", 1.0f));
  std::vector<double> v(static_cast<std::size_t>(x.numel()));
  rnd::Draws draws(generator);
  auto& gen = draws.engine();
  for (double& e : v) e = dist(gen);
  misc::write_output<double>(ctx, 0, t, x.shape(), v);
}

}  // namespace

void define_RandomNormalLike(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("dtype", AttrType::i)
      .attr("mean", AttrType::f, 0.0f)
      .attr("scale", AttrType::f, 1.0f)
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
      .attr("mean", AttrType::f, 0.0f)
      .attr("scale", AttrType::f, 1.0f)
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
      .infer(infer_random_normal_like)
      .kernel(prepared_kernel(rnd::prepare_generator, random_normal_like_kernel))
      .trait(Trait::nondeterministic);
}

}  // namespace onnxtool::ops
