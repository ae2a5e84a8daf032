// SPDX-License-Identifier: Apache-2.0
// Visiting every graph and every stored tensor of a model, wherever it sits: main graph,
// subgraphs in attributes (at any depth), model-local functions, training info. Recursion depth
// is bounded by protobuf's parse limit, so deep nesting cannot exhaust the stack here.
#pragma once

#include <functional>
#include <string>

namespace onnx {
class ModelProto;
class GraphProto;
class TensorProto;
class NodeProto;
}  // namespace onnx

namespace onnxtool {

struct GraphVisit {
  const onnx::GraphProto& graph;
  std::string prefix;  // location prefix of the graph's contents ("graph." for the main graph)
  int depth;           // 0 for main graph, function bodies and training graphs
};

// Calls f for the main graph, each training graph, and every subgraph (depth-first, parents
// first). Function bodies are not graphs; use for_each_node to reach their nodes.
void for_each_graph(const onnx::ModelProto& model, const std::function<void(const GraphVisit&)>& f);

struct NodeVisit {
  const onnx::NodeProto& node;
  std::string location;  // node_location(...)
  int depth;             // subgraph nesting depth of the node
  bool in_function;
};
// Every node in the model: graphs (including subgraphs) and function bodies (and their
// subgraphs).
void for_each_node(const onnx::ModelProto& model, const std::function<void(const NodeVisit&)>& f);

enum class TensorRole { initializer, sparse_initializer, attribute };

// Every TensorProto stored in the model: initializers, sparse initializers (values and
// indices), tensor-valued attributes (and their lists, and sparse ones), function attribute
// defaults, in all graphs and functions. `location` names it for diagnostics.
using TensorFn = std::function<void(onnx::TensorProto&, const std::string&, TensorRole)>;
using ConstTensorFn = std::function<void(const onnx::TensorProto&, const std::string&, TensorRole)>;
void for_each_tensor(onnx::ModelProto& model, const TensorFn& f);
void for_each_tensor(const onnx::ModelProto& model, const ConstTensorFn& f);

}  // namespace onnxtool
