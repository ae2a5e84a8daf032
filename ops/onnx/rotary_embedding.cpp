// SPDX-License-Identifier: Apache-2.0
// RotaryEmbedding: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_RotaryEmbedding(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(23)
      .is_function({23})
      .attr("interleaved", AttrType::i, int64_t{0})
      .attr_optional("num_heads", AttrType::i)
      .attr("rotary_embedding_dim", AttrType::i, int64_t{0})
      .input("X", "T")
      .input("cos_cache", "T")
      .input("sin_cache", "T")
      .input_optional("position_ids", "M")
      .output("Y", "T")
      .constraint("T", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"})
      .constraint("M", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
