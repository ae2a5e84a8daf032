// SPDX-License-Identifier: Apache-2.0
// Watching a run value by value (`run --dump-values`): the runner tells an observer about the
// main graph's inputs as fed, then every value a node of the main graph or of a subgraph (If,
// Loop and Scan bodies, each time they run) produces, in the order they are produced. Function
// bodies are the calls' own business: their insides are not reported, their outputs are (as the
// calling node's).
#pragma once

#include <functional>
#include <string>

#include "core/types/value.h"

namespace onnx {
class NodeProto;
}  // namespace onnx

namespace onnxtool {

struct ProducedValue {
  const std::string& name;       // the value's name in its graph
  const std::string& graph;      // "" for the main graph, else the subgraph's location prefix
  const std::string& node;       // the producing node's location ("" for a graph input)
  const std::string& op;         // its operator, domain-qualified outside ai.onnx
  const onnx::NodeProto* proto;  // the node as planned (its inputs' names); null for an input
  const Value& value;
};

// Called on the thread that runs the graph, one value at a time.
using ValueObserver = std::function<void(const ProducedValue&)>;

}  // namespace onnxtool
