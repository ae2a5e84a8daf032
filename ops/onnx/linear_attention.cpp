// SPDX-License-Identifier: Apache-2.0
// LinearAttention: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_LinearAttention(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(27)
      .is_function({27})
      .attr("chunk_size", AttrType::i, int64_t{64})
      .attr_required("kv_num_heads", AttrType::i)
      .attr_required("q_num_heads", AttrType::i)
      .attr("scale", AttrType::f, 0.0f)
      .attr("update_rule", AttrType::s, "gated_delta")
      .input("query", "T", D::differentiable)
      .input("key", "T", D::differentiable)
      .input("value", "T", D::differentiable)
      .input_optional("past_state", "S", D::non_differentiable)
      .input_optional("decay", "T", D::differentiable)
      .input_optional("beta", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .output("present_state", "S", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(bfloat16)", "tensor(float)"})
      .constraint("S", {"tensor(float16)", "tensor(bfloat16)", "tensor(float)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
