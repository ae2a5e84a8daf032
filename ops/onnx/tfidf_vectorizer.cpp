// SPDX-License-Identifier: Apache-2.0
// TfIdfVectorizer: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_TfIdfVectorizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_required("max_gram_length", AttrType::i)
      .attr_required("max_skip_count", AttrType::i)
      .attr_required("min_gram_length", AttrType::i)
      .attr_required("mode", AttrType::s)
      .attr_required("ngram_counts", AttrType::ints)
      .attr_required("ngram_indexes", AttrType::ints)
      .attr_optional("pool_int64s", AttrType::ints)
      .attr_optional("pool_strings", AttrType::strings)
      .attr_optional("weights", AttrType::floats)
      .input("X", "T", D::non_differentiable)
      .output("Y", "T1", D::non_differentiable)
      .constraint("T", {"tensor(string)", "tensor(int32)", "tensor(int64)"})
      .constraint("T1", {"tensor(float)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
