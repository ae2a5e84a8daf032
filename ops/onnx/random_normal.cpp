// SPDX-License-Identifier: Apache-2.0
// RandomNormal: the ai.onnx operator. A tensor of the `shape` attribute filled with samples of
// N(mean, scale^2), of element type dtype (float by default).
#include "ops/onnx/random_common.h"

namespace onnxtool::ops {

namespace {

void random_normal_kernel(KernelContext& ctx, const rnd::Generator& generator) {
  const DataType t = rnd::output_dtype(ctx, DataType::float32, rnd::float_outputs());
  const Shape shape = rnd::shape_attribute(ctx);
  std::normal_distribution<double> dist(ctx.attrs().get_float("mean", 0.0f),
                                        ctx.attrs().get_float("scale", 1.0f));
  std::vector<double> v(static_cast<std::size_t>(misc::shape_size(shape)));
  rnd::Draws draws(generator);
  auto& gen = draws.engine();
  for (double& e : v) e = dist(gen);
  misc::write_output<double>(ctx, 0, t, shape, v);
}

}  // namespace

void define_RandomNormal(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("dtype", AttrType::i, int64_t{1})
      .attr("mean", AttrType::f, 0.0f)
      .attr("scale", AttrType::f, 1.0f)
      .attr_optional("seed", AttrType::f)
      .attr_required("shape", AttrType::ints)
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("dtype", AttrType::i, int64_t{1})
      .attr("mean", AttrType::f, 0.0f)
      .attr("scale", AttrType::f, 1.0f)
      .attr_optional("seed", AttrType::f)
      .attr_required("shape", AttrType::ints)
      .output("output", "T")
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  // Random draws: never folded at load.
  op.all()
      .infer(rnd::infer_from_shape_attribute)
      .kernel(prepared_kernel(rnd::prepare_generator, random_normal_kernel))
      .trait(Trait::nondeterministic);
}

}  // namespace onnxtool::ops
