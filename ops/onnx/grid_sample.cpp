// SPDX-License-Identifier: Apache-2.0
// GridSample: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_GridSample(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(16)
      .attr("align_corners", AttrType::i, int64_t{0})
      .attr("mode", AttrType::s, "bilinear")
      .attr("padding_mode", AttrType::s, "zeros")
      .input("X", "T1", D::differentiable)
      .input("grid", "T2", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(20)
      .attr("align_corners", AttrType::i, int64_t{0})
      .attr("mode", AttrType::s, "linear")
      .attr("padding_mode", AttrType::s, "zeros")
      .input("X", "T1", D::differentiable)
      .input("grid", "T2", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("align_corners", AttrType::i, int64_t{0})
      .attr("mode", AttrType::s, "linear")
      .attr("padding_mode", AttrType::s, "zeros")
      .input("X", "T1", D::differentiable)
      .input("grid", "T2", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
