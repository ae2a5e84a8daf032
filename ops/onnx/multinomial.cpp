// SPDX-License-Identifier: Apache-2.0
// Multinomial: the ai.onnx operator. For each row of unnormalised log-probabilities
// (batch, classes), sample_size class indices drawn with probabilities softmax(row), as int32
// (default) or int64.
#include <cmath>

#include "ops/onnx/random_common.h"

namespace onnxtool::ops {

namespace {

constexpr DataType kOutputs[] = {DataType::int32, DataType::int64};

void infer_multinomial(InferContext& ctx) {
  const int32_t t = rnd::output_dtype(ctx, static_cast<int32_t>(DataType::int32), kOutputs);
  const Dims* x = misc::input_dims(ctx, 0);
  if (x && x->size() != 2) infer_fail("input must be 2-D (batch, classes)");
  set_output_tensor(ctx, 0, t,
                    Dims{misc::dim_at(x, 0), Dim::value(ctx.attrs().get_int("sample_size", 1))});
}

void multinomial_kernel(KernelContext& ctx, const rnd::Generator& generator) {
  const Tensor& x = ctx.input(0);
  misc::require_float(ctx, x, "input");
  if (x.rank() != 2)
    ctx.fail("input must be 2-D (batch, classes), got " + shape_to_string(x.shape()));
  const DataType t = rnd::output_dtype(ctx, DataType::int32, kOutputs);
  const int64_t samples = ctx.attrs().get_int("sample_size", 1);
  if (samples < 0) ctx.fail("sample_size must be >= 0");
  const int64_t batch = x.shape()[0], classes = x.shape()[1];
  if (classes == 0 && samples > 0) ctx.fail("cannot sample from zero classes");
  const std::vector<double> logits = misc::values_as<double>(ctx, x, "input");
  std::vector<double> out(static_cast<std::size_t>(batch * samples));
  rnd::Draws draws(generator);
  auto& gen = draws.engine();
  std::vector<double> w(static_cast<std::size_t>(classes));
  for (int64_t b = 0; b < batch; ++b) {
    double m = -INFINITY;
    for (int64_t c = 0; c < classes; ++c)
      m = std::max(m, logits[static_cast<std::size_t>(b * classes + c)]);
    for (int64_t c = 0; c < classes; ++c)
      w[static_cast<std::size_t>(c)] =
          std::exp(logits[static_cast<std::size_t>(b * classes + c)] - m);
    std::discrete_distribution<int64_t> dist(w.begin(), w.end());
    for (int64_t s = 0; s < samples; ++s)
      out[static_cast<std::size_t>(b * samples + s)] = static_cast<double>(dist(gen));
  }
  misc::write_output<double>(ctx, 0, t, {batch, samples}, out);
}

}  // namespace

void define_Multinomial(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .attr("dtype", AttrType::i, int64_t{6})
      .attr("sample_size", AttrType::i, int64_t{1})
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  op.since(22)
      .attr("dtype", AttrType::i, int64_t{6})
      .attr("sample_size", AttrType::i, int64_t{1})
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  // Random draws: never folded at load.
  op.all()
      .infer(infer_multinomial)
      .kernel(prepared_kernel(rnd::prepare_generator, multinomial_kernel))
      .trait(Trait::nondeterministic);
}

}  // namespace onnxtool::ops
