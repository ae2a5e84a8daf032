// SPDX-License-Identifier: Apache-2.0
// LabelEncoder: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_LabelEncoder(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classes_strings", AttrType::strings)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  op.since(2)
      .attr("default_float", AttrType::f, -0.0f)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .attr_optional("keys_floats", AttrType::floats)
      .attr_optional("keys_int64s", AttrType::ints)
      .attr_optional("keys_strings", AttrType::strings)
      .attr_optional("values_floats", AttrType::floats)
      .attr_optional("values_int64s", AttrType::ints)
      .attr_optional("values_strings", AttrType::strings)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)", "tensor(float)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)", "tensor(float)"});
  op.since(4)
      .attr("default_float", AttrType::f, -0.0f)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .attr_optional("default_tensor", AttrType::t)
      .attr_optional("keys_floats", AttrType::floats)
      .attr_optional("keys_int64s", AttrType::ints)
      .attr_optional("keys_strings", AttrType::strings)
      .attr_optional("keys_tensor", AttrType::t)
      .attr_optional("values_floats", AttrType::floats)
      .attr_optional("values_int64s", AttrType::ints)
      .attr_optional("values_strings", AttrType::strings)
      .attr_optional("values_tensor", AttrType::t)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)", "tensor(float)", "tensor(int32)",
                         "tensor(int16)", "tensor(double)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)", "tensor(float)", "tensor(int32)",
                         "tensor(int16)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
