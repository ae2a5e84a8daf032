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

// Where an output is made in place: a region of an assembly (see Assembly).
struct Placement {
  int assembly = -1;  // -1: the output gets memory of its own
  int part = 0;       // which region (the assembling node's input index)
};

// A node whose output 0 is its inputs' bytes one after another (a concatenation along an axis
// with only 1s before it: each input is one block of the output), made without copying: its
// output's memory exists from the first time a producer of one of its inputs runs, and those
// producers write their outputs straight into their regions. The node itself then copies only
// the inputs that are not in place (a graph input, a producer that handed on another tensor),
// and its output is that memory. Planned only where every shape is known and every region
// starts and ends on a 64-byte boundary, so that a region is what the kernels' own allocations
// are to them: aligned, and nothing past its end to read or write.
struct Assembly {
  int node = -1;  // the assembling node (index in GraphPlan::nodes)
  DataType dtype = DataType::undefined;
  Shape shape;
  std::size_t bytes = 0;
  struct Part {
    Shape shape;
    std::size_t offset = 0;  // bytes from the start of the output
    std::size_t bytes = 0;
  };
  std::vector<Part> parts;  // one per input of the node
  // When the node's output is itself a region of a later assembly (nested concatenations).
  Placement within;
};

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
  // Per output (empty: none placed): where the output is made in place.
  std::vector<Placement> placements;
  int assembles = -1;  // the Assembly this node completes, -1: none
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
  std::vector<Assembly> assemblies;
  bool timed = false;  // profile this graph's nodes
};

struct Frame {
  const GraphPlan* plan = nullptr;
  std::vector<Value> slots;
  const Frame* parent = nullptr;  // the enclosing graph's frame (subgraphs only)
  // Told of every value the frame's nodes produce (and, through their frames, subgraphs').
  const ValueObserver* observer = nullptr;
  // Each assembly's memory while it is being filled (made on first use, by the node running;
  // mutable since kernels see the frame as const).
  mutable std::vector<std::shared_ptr<Storage>> assembly_storage{};
};

}  // namespace exec_detail
}  // namespace onnxtool
