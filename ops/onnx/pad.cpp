// SPDX-License-Identifier: Apache-2.0
// Pad: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Pad(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("mode", AttrType::s, "constant")
      .attr_required("paddings", AttrType::ints)
      .attr("value", AttrType::f, 0.0f)
      .input("data", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(2)
      .attr("mode", AttrType::s, "constant")
      .attr_required("pads", AttrType::ints)
      .attr("value", AttrType::f, 0.0f)
      .input("data", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T")
      .input("pads", "tensor(int64)")
      .input_optional("constant_value", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(18)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(19)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(21)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(23)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(24)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(25)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
