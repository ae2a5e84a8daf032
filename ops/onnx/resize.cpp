// SPDX-License-Identifier: Apache-2.0
// Resize: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Resize(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("mode", AttrType::s, "nearest")
      .input("X", "T")
      .input("scales", "tensor(float)")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1")
      .input("roi", "T2")
      .input("scales", "tensor(float)")
      .input_optional("sizes", "tensor(int64)")
      .output("Y", "T1")
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1", D::differentiable)
      .input_optional("roi", "T2", D::non_differentiable)
      .input_optional("scales", "tensor(float)", D::non_differentiable)
      .input_optional("sizes", "tensor(int64)", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(18)
      .attr("antialias", AttrType::i, int64_t{0})
      .attr_optional("axes", AttrType::ints)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("keep_aspect_ratio_policy", AttrType::s, "stretch")
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1", D::differentiable)
      .input_optional("roi", "T2", D::non_differentiable)
      .input_optional("scales", "tensor(float)", D::non_differentiable)
      .input_optional("sizes", "tensor(int64)", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(19)
      .attr("antialias", AttrType::i, int64_t{0})
      .attr_optional("axes", AttrType::ints)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("keep_aspect_ratio_policy", AttrType::s, "stretch")
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1", D::differentiable)
      .input_optional("roi", "T2", D::non_differentiable)
      .input_optional("scales", "tensor(float)", D::non_differentiable)
      .input_optional("sizes", "tensor(int64)", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
