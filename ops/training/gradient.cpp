// SPDX-License-Identifier: Apache-2.0
// Gradient: the ai.onnx.preview.training operator. Output i is dy/dxs[i]: a tensor of xs[i]'s
// shape. Inputs are the xs values followed by the zs values, so output i has input i's shape.
// There is no kernel: computing it means differentiating the graph that produces y, which the
// executor does not do.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_gradient(InferContext& ctx) {
  const std::vector<std::string> xs = ctx.attrs().get_strings("xs");
  const std::vector<std::string> zs = ctx.attrs().get_strings("zs", {});
  if (ctx.num_inputs() != xs.size() + zs.size())
    infer_fail("the inputs must be the " + std::to_string(xs.size()) + " xs followed by the " +
               std::to_string(zs.size()) + " zs");
  if (ctx.num_outputs() != xs.size())
    infer_fail("one output per xs entry expected, got " + std::to_string(ctx.num_outputs()));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const Type& t = ctx.input_type(i);
    if (!t.is_tensor()) continue;
    const auto e = static_cast<DataType>(t.elem);
    if (t.elem != 0 && e != DataType::float16 && e != DataType::float32 && e != DataType::float64)
      infer_fail("xs[" + std::to_string(i) + "] is " + type_name_or_number(t.elem) +
                 ": gradients are float16, float or double");
    ctx.set_output_type(i, t);
  }
}

}  // namespace

void define_training_Gradient(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("xs", AttrType::strings)
      .attr_required("y", AttrType::s)
      .attr_optional("zs", AttrType::strings)
      .input_variadic("Inputs", "T1", 1, false)
      .output_variadic("Outputs", "T2", 1, false)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_gradient);
}

}  // namespace onnxtool::ops
