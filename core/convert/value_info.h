// SPDX-License-Identifier: Apache-2.0
// After an opset conversion, the value_info a model carries may no longer hold: a step changed
// a value's type (Cast saturate, a narrowed output), or removed the value. Shape inference on
// the converted model says what each value is now.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

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

struct ExposedValues {
  std::size_t added = 0;             // values made graph outputs
  std::vector<std::string> untyped;  // matched, but inference knows no element type
};

// Makes the main graph's node outputs that `wanted` accepts (and that are not outputs yet)
// graph outputs, in the order of the data, each with the type inference gives it, so that any
// runtime returns them (ONNX Runtime needs a type for each output). Values inference cannot type
// are left out and named.
ExposedValues expose_values(Model& model, const std::function<bool(const std::string&)>& wanted);

}  // namespace convert
}  // namespace onnxtool
