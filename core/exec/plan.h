// SPDX-License-Identifier: Apache-2.0
// The executor's internal form of a graph (private to core/exec): what planning produces and
// the runner walks. Values live in numbered slots of a Frame, one frame per graph invocation;
// a reference names the frame (how many scopes out) and the slot, or a constant of the plan.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/observer.h"
#include "core/registry/attrs.h"
#include "core/types/value.h"

namespace onnx {
class NodeProto;
class GraphProto;
}  // namespace onnx

namespace onnxtool {

struct OpVersion;
struct KernelState;

namespace exec_detail {

struct ValueRef {
  int depth = 0;          // 0: this graph's frame; 1: the enclosing graph's; ...
  bool constant = false;  // in the plan's constants rather than the frame's slots
  int index = -1;
};

struct GraphPlan;

struct PlanNode {
  const onnx::NodeProto* node = nullptr;
  std::string location;               // graph.node[3] "name" (Op), nested for subgraphs
  const OpVersion* schema = nullptr;  // null only for calls of model-local functions
  int64_t opset = 0;
  std::optional<AttrView> attrs;
  std::vector<std::optional<ValueRef>> inputs;  // nullopt: omitted optional input
  std::vector<int> outputs;                     // slots; -1: omitted output
  std::vector<int> release;  // slots whose last use is this node: dropped right after it
  // Per output: true where nothing reads it (no node, subgraph or graph output), so that the
  // kernel need not compute it (KernelContext::has_output says no). Only with the fusions on:
  // without them (--dump-values) every value the graph names is made.
  std::vector<bool> unread_outputs;
  // Per input: element types the schema allows, one bit per DataType (0: not checked).
  std::vector<uint64_t> allowed_types;
  // Graph-valued attributes, planned with this node's graph as their outer scope.
  std::map<const onnx::GraphProto*, std::unique_ptr<GraphPlan>> subgraphs;
  // Set when the node runs a function body (model-local, or the spec's) instead of a kernel.
  std::unique_ptr<GraphPlan> function;

  // What the operator's prepare step built (immutable: runs on several threads share it), or
  // what it threw, rethrown each time the node runs.
  std::shared_ptr<const KernelState> state;
  std::exception_ptr prepare_error;

  // --profile: accumulated by concurrent runs.
  struct Timing {
    std::atomic<int64_t> calls{0}, total_ns{0};
    std::atomic<int64_t> macs{0};  // multiply-accumulates, when the operator counts them
    int32_t trace_index = -1;      // its place in Session::profile(), for traces; -1: none
  };
  std::unique_ptr<Timing> timing = std::make_unique<Timing>();
};

struct GraphPlan {
  std::string prefix;  // location prefix of the nodes ("graph." for the main graph)
  int num_slots = 0;
  std::vector<std::string> slot_names;
  std::vector<int> input_slots;                    // formal inputs, in order
  std::vector<std::optional<int>> input_defaults;  // constant index, for inputs with initializers
  std::vector<ValueRef> outputs;                   // formal outputs, in order
  std::vector<std::string> output_names;
  std::vector<Value> constants;  // initializers (views of the model) and folded values
  std::vector<PlanNode> nodes;
  // Nodes rewritten for a function call (attributes substituted); PlanNode::node points here.
  std::vector<std::unique_ptr<onnx::NodeProto>> owned_nodes;
  std::shared_ptr<const void> keep_alive;  // e.g. a parsed function body
  bool timed = false;                      // profile this graph's nodes
};

struct Frame {
  const GraphPlan* plan = nullptr;
  std::vector<Value> slots;
  const Frame* parent = nullptr;  // the enclosing graph's frame (subgraphs only)
  // Told of every value the frame's nodes produce (and, through their frames, subgraphs').
  const ValueObserver* observer = nullptr;
};

}  // namespace exec_detail
}  // namespace onnxtool
