// SPDX-License-Identifier: Apache-2.0
// Softmax: the ai.onnx operator (see softmax_common.h for the axis rule of each version).
#include "ops/onnx/softmax_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void softmax_kernel(KernelContext& ctx) {
  nn::softmax_kernel(ctx, nn::SoftmaxKind::softmax);
}

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
  op.all().infer(nn::infer_softmax).kernel(softmax_kernel);
}

}  // namespace onnxtool::ops
