// SPDX-License-Identifier: Apache-2.0
#include "core/ir/walk.h"

#include "core/ir/location.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

using GraphFn = std::function<void(const GraphVisit&)>;
using NodeFn = std::function<void(const NodeVisit&)>;

void visit_graph(const onnx::GraphProto& g, const std::string& prefix, int depth, const GraphFn& f);

void visit_node_subgraphs(const onnx::NodeProto& node, const std::string& node_loc, int depth,
                          const GraphFn& f) {
  for (const auto& a : node.attribute()) {
    if (a.has_g()) visit_graph(a.g(), subgraph_prefix(node_loc, a.name()), depth + 1, f);
    for (int k = 0; k < a.graphs_size(); ++k)
      visit_graph(a.graphs(k), subgraph_prefix(node_loc, a.name(), k), depth + 1, f);
  }
}

void visit_graph(const onnx::GraphProto& g, const std::string& prefix, int depth,
                 const GraphFn& f) {
  f(GraphVisit{g, prefix, depth});
  for (int i = 0; i < g.node_size(); ++i)
    visit_node_subgraphs(g.node(i), node_location(prefix, i, g.node(i)), depth, f);
}

std::string training_prefix(int i, const char* which) {
  return "training_info[" + std::to_string(i) + "]." + which + ".";
}

void visit_nodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                 const std::string& prefix, int depth, bool in_function, const NodeFn& f) {
  for (int i = 0; i < nodes.size(); ++i) {
    const auto& node = nodes.Get(i);
    const std::string loc = node_location(prefix, i, node);
    f(NodeVisit{node, loc, depth, in_function});
    for (const auto& a : node.attribute()) {
      if (a.has_g())
        visit_nodes(a.g().node(), subgraph_prefix(loc, a.name()), depth + 1, in_function, f);
      for (int k = 0; k < a.graphs_size(); ++k)
        visit_nodes(a.graphs(k).node(), subgraph_prefix(loc, a.name(), k), depth + 1, in_function,
                    f);
    }
  }
}

void tensors_in_attribute(onnx::AttributeProto& a, const std::string& where, const TensorFn& f);

void tensors_in_sparse(onnx::SparseTensorProto& s, const std::string& where, TensorRole role,
                       const TensorFn& f) {
  if (s.has_values()) f(*s.mutable_values(), where + " values", role);
  if (s.has_indices()) f(*s.mutable_indices(), where + " indices", role);
}

void tensors_in_graph(onnx::GraphProto& g, const std::string& prefix, const TensorFn& f) {
  for (int i = 0; i < g.initializer_size(); ++i)
    f(*g.mutable_initializer(i), item_location(prefix, "initializer", i, g.initializer(i).name()),
      TensorRole::initializer);
  for (int i = 0; i < g.sparse_initializer_size(); ++i) {
    auto& s = *g.mutable_sparse_initializer(i);
    tensors_in_sparse(s, item_location(prefix, "sparse_initializer", i, s.values().name()),
                      TensorRole::sparse_initializer, f);
  }
  for (int i = 0; i < g.node_size(); ++i) {
    auto& node = *g.mutable_node(i);
    const std::string loc = node_location(prefix, i, node);
    for (auto& a : *node.mutable_attribute()) tensors_in_attribute(a, loc, f);
  }
}

void tensors_in_attribute(onnx::AttributeProto& a, const std::string& node_loc, const TensorFn& f) {
  const std::string where = node_loc + " attribute " + a.name();
  const auto role = TensorRole::attribute;
  if (a.has_t()) f(*a.mutable_t(), where, role);
  for (int k = 0; k < a.tensors_size(); ++k)
    f(*a.mutable_tensors(k), where + "[" + std::to_string(k) + "]", role);
  if (a.has_sparse_tensor()) tensors_in_sparse(*a.mutable_sparse_tensor(), where, role, f);
  for (int k = 0; k < a.sparse_tensors_size(); ++k)
    tensors_in_sparse(*a.mutable_sparse_tensors(k), where + "[" + std::to_string(k) + "]", role, f);
  if (a.has_g()) tensors_in_graph(*a.mutable_g(), subgraph_prefix(node_loc, a.name()), f);
  for (int k = 0; k < a.graphs_size(); ++k)
    tensors_in_graph(*a.mutable_graphs(k), subgraph_prefix(node_loc, a.name(), k), f);
}

}  // namespace

void for_each_graph(const onnx::ModelProto& model, const GraphFn& f) {
  if (model.has_graph()) visit_graph(model.graph(), kMainGraphPrefix, 0, f);
  for (int i = 0; i < model.training_info_size(); ++i) {
    const auto& t = model.training_info(i);
    if (t.has_initialization())
      visit_graph(t.initialization(), training_prefix(i, "initialization"), 0, f);
    if (t.has_algorithm()) visit_graph(t.algorithm(), training_prefix(i, "algorithm"), 0, f);
  }
  // Subgraphs inside function bodies.
  for (int i = 0; i < model.functions_size(); ++i) {
    const auto& fn = model.functions(i);
    const std::string prefix = function_location(i, fn) + ": ";
    for (int n = 0; n < fn.node_size(); ++n)
      visit_node_subgraphs(fn.node(n), node_location(prefix, n, fn.node(n)), 0, f);
  }
}

void for_each_node(const onnx::ModelProto& model, const NodeFn& f) {
  if (model.has_graph()) visit_nodes(model.graph().node(), kMainGraphPrefix, 0, false, f);
  for (int i = 0; i < model.training_info_size(); ++i) {
    const auto& t = model.training_info(i);
    if (t.has_initialization())
      visit_nodes(t.initialization().node(), training_prefix(i, "initialization"), 0, false, f);
    if (t.has_algorithm())
      visit_nodes(t.algorithm().node(), training_prefix(i, "algorithm"), 0, false, f);
  }
  for (int i = 0; i < model.functions_size(); ++i) {
    const auto& fn = model.functions(i);
    visit_nodes(fn.node(), function_location(i, fn) + ": ", 0, true, f);
  }
}

void for_each_tensor(onnx::ModelProto& model, const TensorFn& f) {
  if (model.has_graph()) tensors_in_graph(*model.mutable_graph(), kMainGraphPrefix, f);
  for (int i = 0; i < model.training_info_size(); ++i) {
    auto& t = *model.mutable_training_info(i);
    if (t.has_initialization())
      tensors_in_graph(*t.mutable_initialization(), training_prefix(i, "initialization"), f);
    if (t.has_algorithm())
      tensors_in_graph(*t.mutable_algorithm(), training_prefix(i, "algorithm"), f);
  }
  for (int i = 0; i < model.functions_size(); ++i) {
    auto& fn = *model.mutable_functions(i);
    const std::string prefix = function_location(i, fn) + ": ";
    for (int n = 0; n < fn.node_size(); ++n) {
      auto& node = *fn.mutable_node(n);
      const std::string loc = node_location(prefix, n, node);
      for (auto& a : *node.mutable_attribute()) tensors_in_attribute(a, loc, f);
    }
    for (auto& a : *fn.mutable_attribute_proto())
      tensors_in_attribute(a, function_location(i, fn) + " default", f);
  }
}

void for_each_tensor(const onnx::ModelProto& model, const ConstTensorFn& f) {
  // The mutable walk never modifies anything itself; the callback here only reads.
  for_each_tensor(
      const_cast<onnx::ModelProto&>(model),
      [&](onnx::TensorProto& t, const std::string& where, TensorRole role) { f(t, where, role); });
}

}  // namespace onnxtool
