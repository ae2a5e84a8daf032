// SPDX-License-Identifier: Apache-2.0
// The order of a graph's nodes by their data: what runs before what, whatever order the file
// lists them in. IR.md requires graphs to be topologically sorted, but real exports break the
// rule (a pytorch 2.0 fp16 export listed 79 readers before their producers); the checker reports
// it, while the executor, shape inference and `convert --toposort` follow the data instead.
//
// A node depends on the producers (in the same list) of its inputs and of the values its
// subgraphs read from enclosing scopes. Among the nodes ready to go, the one listed first goes
// first, so a sorted list keeps its order exactly.
#pragma once

#include <string>
#include <vector>

#include <google/protobuf/repeated_ptr_field.h>

namespace onnx {
class GraphProto;
class ModelProto;
class NodeProto;
}  // namespace onnx

namespace onnxtool {

// An order of nodes 0..n-1, or a cycle that prevents one.
struct DependencyOrder {
  std::vector<int> order;  // every node, producers before readers (empty when there is a cycle)
  std::vector<int> cycle;  // nodes of one cycle, each producing what the next reads
  bool sorted() const { return cycle.empty(); }
};

// Kahn's algorithm over `dependencies[i]` (the nodes node i reads from; repeats and self
// references allowed), taking the earliest listed ready node first.
DependencyOrder order_by_dependencies(const std::vector<std::vector<int>>& dependencies);

// The dependencies of a node list (a graph's or a function body's nodes): node i's producers in
// the list. A name produced twice counts its first producer.
std::vector<std::vector<int>> node_dependencies(
    const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes);

// The order of a node list by its data.
DependencyOrder node_order(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes);

// How many nodes depend on a node at or after their own place (0: the list is sorted); the first
// such node's index in *first.
int late_count(const std::vector<std::vector<int>>& dependencies, int* first = nullptr);

// The order by the data, or the stored one (0, 1, ...) when a cycle prevents it.
std::vector<int> order_or_stored(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes);

// How many nodes read a value that a node listed after them produces (0: sorted).
int late_readers(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes);

// Names a graph (with its subgraphs) reads without defining: what it captures from enclosing
// scopes (or reads undefined), in order of first read.
std::vector<std::string> captured_names(const onnx::GraphProto& graph);

// The outcome of sort_model_nodes.
struct NodeSortReport {
  int graphs_reordered = 0;         // graphs and function bodies whose node order changed
  int late_readers = 0;             // nodes that read a value produced after them, before sorting
  std::string first_late;           // the location of the first of those
  std::vector<std::string> cycles;  // cycle_path of each list that could not be sorted
};

// Reorders, in place (elements swapped, nothing copied), the nodes of the main graph, training
// graphs, every subgraph and every model-local function body by their data. A list with a cycle
// is left as it is and named in the report.
NodeSortReport sort_model_nodes(onnx::ModelProto& model);

// What a message about a cycle starts with, before its cycle_path.
inline constexpr const char* kCycleIntro = "nodes depend on each other in a cycle: ";

// "A -> B -> A" from the locations of a cycle's nodes (producers first).
std::string cycle_path(const std::vector<std::string>& locations);

// "graph.node[3] "a" (Relu) -> graph.node[5] "b" (Add) -> graph.node[3] "a" (Relu)": a cycle
// given by node positions in `nodes`, located under `prefix`.
std::string describe_cycle(const std::string& prefix,
                           const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                           const std::vector<int>& cycle);

}  // namespace onnxtool
