// SPDX-License-Identifier: Apache-2.0
// After an opset conversion, the value_info a model carries may no longer hold: a step changed
// a value's type (Cast saturate, a narrowed output), or removed the value. Shape inference on
// the converted model says what each value is now.
#pragma once

#include <cstddef>

namespace onnxtool {

struct Model;

namespace convert {

struct ValueInfoRefresh {
  std::size_t updated = 0;  // entries whose type inference now knows better or differently
  std::size_t dropped = 0;  // entries for values the converted graph no longer has
};

// Re-infers the model and, in every graph (subgraphs and training graphs too), makes each
// existing value_info entry agree with inference: an element type or a dimension inference
// knows replaces the declared one; what inference does not know stays as declared; an entry
// naming a value the graph no longer defines is dropped. No entry is added.
ValueInfoRefresh refresh_value_info(Model& model);

}  // namespace convert
}  // namespace onnxtool
