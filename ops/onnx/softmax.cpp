// SPDX-License-Identifier: Apache-2.0
// Softmax: the ai.onnx operator (see softmax_common.h for the axis rule of each version).
#include "ops/onnx/nn_common.h"
#include "ops/onnx/softmax_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void softmax_kernel(KernelContext& ctx) {
  nn::softmax_kernel(ctx, nn::SoftmaxKind::softmax);
}

}  // namespace

namespace {
// Softmax-13 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kSoftmaxBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Softmax <axis> (input) => (output) {
  axis_scalar = Constant <value_int: int = @axis> ()
  zero = Constant <value_ints = [0]> ()
  axes = Unsqueeze (axis_scalar, zero)
  peak = ReduceMax <keepdims = 1> (input, axes)
  shifted = Sub (input, peak)
  e = Exp (shifted)
  total = ReduceSum <keepdims = 1> (e, axes)
  output = Div (e, total)
}
)onnx";
}  // namespace

void define_Softmax(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .is_function({13, 18})
      .attr("axis", AttrType::i, int64_t{-1})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(13).function(kSoftmaxBody, 18);
  op.all().trait(Trait::float_generic);
  op.all().infer(nn::infer_softmax).kernel(softmax_kernel);
  nn::add_softmax_adapters(op);
  op.all().flops(nn::input_flops(3));
}

}  // namespace onnxtool::ops
