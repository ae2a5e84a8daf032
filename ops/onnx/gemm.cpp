// SPDX-License-Identifier: Apache-2.0
// Gemm: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Gemm(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(11)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input_optional("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(13)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .input_optional("C", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
