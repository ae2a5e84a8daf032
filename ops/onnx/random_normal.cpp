// SPDX-License-Identifier: Apache-2.0
// RandomNormal: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_RandomNormal(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("dtype", AttrType::i, int64_t{1})
      .attr("mean", AttrType::f, 0.0f)
      .attr("scale", AttrType::f, 1.0f)
      .attr_optional("seed", AttrType::f)
      .attr_required("shape", AttrType::ints)
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("dtype", AttrType::i, int64_t{1})
      .attr("mean", AttrType::f, 0.0f)
      .attr("scale", AttrType::f, 1.0f)
      .attr_optional("seed", AttrType::f)
      .attr_required("shape", AttrType::ints)
      .output("output", "T")
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
