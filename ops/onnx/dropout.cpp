// SPDX-License-Identifier: Apache-2.0
// Dropout: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Dropout(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr("is_test", AttrType::i, int64_t{0})
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("is_test", AttrType::i, int64_t{0})
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(10)
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T1")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(12)
      .attr_optional("seed", AttrType::i)
      .input("data", "T")
      .input_optional("ratio", "T1")
      .input_optional("training_mode", "T2")
      .output("output", "T")
      .output_optional("mask", "T2")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(13)
      .attr_optional("seed", AttrType::i)
      .input("data", "T", D::differentiable)
      .input_optional("ratio", "T1", D::non_differentiable)
      .input_optional("training_mode", "T2", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output_optional("mask", "T2", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(22)
      .attr_optional("seed", AttrType::i)
      .input("data", "T", D::differentiable)
      .input_optional("ratio", "T1", D::non_differentiable)
      .input_optional("training_mode", "T2", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output_optional("mask", "T2", D::non_differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)"})
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
