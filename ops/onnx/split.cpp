// SPDX-License-Identifier: Apache-2.0
// Split: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Split(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr_optional("split", AttrType::ints)
      .input("input", "T")
      .input_optional("split", "T")
      .output_variadic("outputs...", "T", 1)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(2)
      .attr("axis", AttrType::i, int64_t{0})
      .attr_optional("split", AttrType::ints)
      .input("input", "T")
      .output_variadic("outputs", "T", 1)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{0})
      .attr_optional("split", AttrType::ints)
      .input("input", "T")
      .output_variadic("outputs", "T", 1)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{0})
      .input("input", "T", D::differentiable)
      .input_optional("split", "tensor(int64)", D::non_differentiable)
      .output_variadic("outputs", "T", 1, true, D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(18)
      .attr("axis", AttrType::i, int64_t{0})
      .attr_optional("num_outputs", AttrType::i)
      .input("input", "T", D::differentiable)
      .input_optional("split", "tensor(int64)", D::non_differentiable)
      .output_variadic("outputs", "T", 1, true, D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
