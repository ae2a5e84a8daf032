// SPDX-License-Identifier: Apache-2.0
// Clip: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Clip(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr_optional("max", AttrType::f)
      .attr_optional("min", AttrType::f)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("max", AttrType::f, 3.40282347e+38f)  // the spec prints max() of float as (3.402823e+38)
      .attr("min", AttrType::f, -3.40282347e+38f)  // the spec prints lowest() of float as (-3.402823e+38)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .input("input", "T")
      .input_optional("min", "T")
      .input_optional("max", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .input("input", "T")
      .input_optional("min", "T")
      .input_optional("max", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .is_function({13})
      .input("input", "T", D::differentiable)
      .input_optional("min", "T", D::non_differentiable)
      .input_optional("max", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
