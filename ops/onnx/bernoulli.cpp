// SPDX-License-Identifier: Apache-2.0
// Bernoulli: the ai.onnx operator. 1 with the probability given by each input element, else 0,
// in the dtype attribute's type (the input's type when absent).
#include "ops/onnx/random_common.h"

namespace onnxtool::ops {

namespace {

constexpr DataType kOutputs[] = {
    DataType::float16, DataType::float32, DataType::float64, DataType::bfloat16, DataType::uint8,
    DataType::uint16,  DataType::uint32,  DataType::uint64,  DataType::int8,     DataType::int16,
    DataType::int32,   DataType::int64,   DataType::boolean};

void infer_bernoulli(InferContext& ctx) {
  propagate_shape(ctx, 0, 0, rnd::output_dtype(ctx, ctx.input_elem_type(0), kOutputs));
}

void bernoulli_kernel(KernelContext& ctx, const rnd::Generator& generator) {
  const Tensor& x = ctx.input(0);
  misc::require_float(ctx, x, "input");
  const DataType t = rnd::output_dtype(ctx, x.dtype(), kOutputs);
  std::vector<double> v = misc::values_as<double>(ctx, x, "input");
  rnd::Draws draws(generator);
  auto& gen = draws.engine();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (double& p : v) {
    if (!(p >= 0 && p <= 1)) ctx.fail("probabilities must be in [0, 1], got " + std::to_string(p));
    p = u(gen) < p ? 1.0 : 0.0;
  }
  misc::write_output<double>(ctx, 0, t, x.shape(), v);
}

}  // namespace

namespace {
// Bernoulli-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kBernoulliBody[] = R"onnx(
<domain: "", opset_import: ["" : 22]>
Bernoulli <dtype, seed> (input) => (output) {
  draw = RandomUniformLike <low = 0.0, high = 1.0, seed: float = @seed> (input)
  hit = Greater (input, draw)
  zero = Constant <value = float {0.0}> ()
  zero_in = CastLike (zero, input)
  like = RandomUniformLike <low = 0.0, high = 0.0, dtype: int = @dtype> (zero_in)
  output = CastLike (hit, like)
}
)onnx";
}  // namespace

void define_Bernoulli(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(15)
      .attr_optional("dtype", AttrType::i)
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)",
                         "tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bool)"});
  op.since(22)
      .is_function({22})
      .attr_optional("dtype", AttrType::i)
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kBernoulliBody, 22);
  // Random draws: never folded at load.
  op.all()
      .infer(infer_bernoulli)
      .kernel(prepared_kernel(rnd::prepare_generator, bernoulli_kernel))
      .trait(Trait::nondeterministic);
}

}  // namespace onnxtool::ops
