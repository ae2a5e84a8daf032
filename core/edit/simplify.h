// SPDX-License-Identifier: Apache-2.0
// Making a model smaller and cleaner without changing what it computes (onnxtool simplify), in
// rounds until nothing changes, on the main graph:
//   1. values shape inference knows exactly (Shape of a bound input, what data propagation
//      computes from it: Gather, Concat, arithmetic on shapes) become initializers;
//   2. nodes that read only constants are computed with the executor's kernels and become
//      initializers (subgraphs too), unless their outputs would outgrow max_folded_bytes, or
//      they are dequantizations (a QDQ model keeps its quantized weights and their
//      DequantizeLinear: int8 runtimes read that form);
//   3. nodes that give their input back (Identity, Dropout in inference mode, Cast to the type
//      it has: OpVersion::passes_through) are bypassed;
//   4. nodes nothing reads are removed, and so are initializers nothing reads;
//   5. initializers with the same type, shape and bytes become one, and so do nodes with the
//      same operator, attributes and inputs (common subexpressions).
// Graph inputs and outputs keep their names and order. value_info is refreshed at the end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/infer/engine.h"
#include "core/model/model.h"

namespace onnxtool {

struct SimplifyOptions {
  uint64_t max_folded_bytes = 16ull << 20;
  // --dim / --input-shape: fixed into the model's input types first, so that shapes propagate.
  InferOptions bindings;
};

struct SimplifyReport {
  std::size_t nodes_before = 0, nodes_after = 0;
  std::size_t initializers_before = 0, initializers_after = 0;
  uint64_t bytes_before = 0, bytes_after = 0;  // the model, serialized (external data not counted)
  int64_t from_shapes = 0;                     // nodes replaced by values inference knows
  int64_t folded = 0;                          // nodes computed into initializers
  int64_t too_large = 0;                       // left by max_folded_bytes
  int64_t passed_through = 0;                  // Identity-like nodes bypassed
  int64_t dead = 0;                            // nodes nothing read
  int64_t unused_initializers = 0;
  int64_t duplicate_initializers = 0;
  int64_t common_subexpressions = 0;
  int rounds = 0;
};

SimplifyReport simplify_model(Model& model, const SimplifyOptions& options);

}  // namespace onnxtool
