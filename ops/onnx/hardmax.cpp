// SPDX-License-Identifier: Apache-2.0
// Hardmax: the ai.onnx operator (see softmax_common.h for the axis rule of each version).
#include "ops/onnx/softmax_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void hardmax_kernel(KernelContext& ctx) {
  nn::softmax_kernel(ctx, nn::SoftmaxKind::hardmax);
}

}  // namespace

void define_Hardmax(OpDef& op) {
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
      .attr("axis", AttrType::i, int64_t{-1})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(nn::infer_softmax).kernel(hardmax_kernel);
  nn::add_softmax_adapters(op);
}

}  // namespace onnxtool::ops
