// SPDX-License-Identifier: Apache-2.0
// ReduceSumSquare: the ai.onnx operator (axes, keepdims and empty sets: see reduce_common.h).
#include "ops/onnx/nn_common.h"
#include "ops/onnx/reduce_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void reduce_sum_square_kernel(KernelContext& ctx) {
  nn::reduce_kernel(ctx, nn::ReduceKind::sum_square);
}

}  // namespace

namespace {
// ReduceSumSquare-18 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kReduceSumSquareBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
ReduceSumSquare <keepdims, noop_with_empty_axes> (data, axes) => (reduced) {
  squares = Mul (data, data)
  reduced = ReduceSum <keepdims: int = @keepdims, noop_with_empty_axes: int = @noop_with_empty_axes> (squares, axes)
}
)onnx";
}  // namespace

void define_ReduceSumSquare(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axes", AttrType::ints)
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T")
      .output("reduced", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr_optional("axes", AttrType::ints)
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T")
      .output("reduced", "T")
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr_optional("axes", AttrType::ints)
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("data", "T", D::differentiable)
      .output("reduced", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(18)
      .is_function({18})
      .attr("keepdims", AttrType::i, int64_t{1})
      .attr("noop_with_empty_axes", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input_optional("axes", "tensor(int64)", D::non_differentiable)
      .output("reduced", "T", D::differentiable)
      .constraint("T", {"tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(18).function(kReduceSumSquareBody, 18);
  op.all().infer(nn::infer_reduce).kernel(reduce_sum_square_kernel);
  nn::add_reduce_adapters(op, 18);
  op.all().flops(nn::input_flops(1));
}

}  // namespace onnxtool::ops
