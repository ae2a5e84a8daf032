// SPDX-License-Identifier: Apache-2.0
// What the executor's fusion passes share: resolving a node to the operator version whose hooks
// say what fuses (core/registry/fusion.h), the constants a hook sees, and the checks that a
// value between two nodes is theirs alone.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/passes/constant_values.h"
#include "core/infer/dim.h"
#include "core/registry/binding.h"
#include "core/registry/fusion.h"

namespace onnx {
class NodeProto;
}

namespace onnxtool {
struct GraphResult;
struct ValueRecord;
struct OpVersion;
namespace ir {
class Graph;
class Node;
}  // namespace ir
}  // namespace onnxtool

namespace onnxtool::exec_detail {

struct PlanContext;

class FusionSupport {
 public:
  FusionSupport(PlanContext& ctx, OpsetMap opsets)
      : ctx_(ctx), opsets_(std::move(opsets)), constants_(ctx) {}

  // A node as the hooks see it: the operator version it runs as a kernel (nullptr when it does
  // not, or is unknown) and its proto (the node's own, not a copy: the attributes the hooks
  // read; valid until the node is edited).
  struct Resolved {
    const OpVersion* schema = nullptr;
    const onnx::NodeProto* proto = nullptr;
  };
  Resolved resolve(const ir::Node& n) const;
  // The node's inputs as a hook sees them (constants decoded; they live as long as this).
  FusionNode describe(const ir::Graph& g, const ir::Node& n, const Resolved& r,
                      const AttrView& attrs);
  // The tensor `name` holds on every run, as seen from g; nullptr when it is not a constant.
  const Tensor* constant(const ir::Graph& g, const std::string& name);
  // What shape inference found for a value of g: a tensor's element type (a
  // TensorProto::DataType) and dims, when it found both; nullopt otherwise.
  struct TensorFacts {
    int32_t elem = 0;
    Dims dims;
  };
  // (A value widen-float16 made has the facts of the one it widened, as float32.)
  std::optional<TensorFacts> inferred_tensor(const ir::Graph& g, const std::string& value) const;
  // The element type alone (0: unknown).
  int32_t inferred_elem(const ir::Graph& g, const std::string& value) const;
  // Records that `widened` holds `original`'s values as float32 (for the facts above).
  void record_widened(const ir::Graph& g, const std::string& widened, const std::string& original);
  // What shape inference found for g (nullptr: nothing).
  const GraphResult* inferred_graph(const ir::Graph& g) const;
  // The node producing `value` at output 0, its only output, when `reader` is the only reader
  // of value (no other node, no subgraph, no graph output); nullptr otherwise.
  ir::Node* sole_producer_for(ir::Graph& g, const std::string& value, const ir::Node& reader) const;
  // The values of g that something besides its nodes reads: graph outputs, and what its nodes'
  // subgraphs capture.
  static std::set<std::string> read_outside_nodes(const ir::Graph& g);
  // Whether `value` is among them, from a set made once per graph and kept: the passes remove
  // and rewire nodes without subgraphs, which adds no such reader, so a kept set can only refuse
  // a rewrite that a fresh one would allow. (Made again for each candidate, it made the fusion
  // passes quadratic: 1.5 s for a 6000-node chain.)
  bool read_outside(const ir::Graph& g, const std::string& value) const;
  // A node q and the producer p of its input 0, both running kernels, with what fuses them:
  // q's operator passes q_has (it has the hook for q's side), p's passes p_has, and nothing but
  // q reads p's output. nullopt otherwise.
  struct Pair {
    ir::Node* p = nullptr;
    Resolved q_op, p_op;
  };
  std::optional<Pair> pair_with_producer(ir::Graph& g, ir::Node& q, bool (*q_has)(const OpVersion&),
                                         bool (*p_has)(const OpVersion&)) const;
  // Appends `extra` as inputs of p after its formal ones (omitted optional inputs listed as
  // empty), and records the first one's index in p's INT attribute `attribute` (what the
  // fusion attributes of core/registry/fusion.h hold).
  static void append_fused_inputs(ir::Graph& g, ir::Node& p, const OpVersion& schema,
                                  const char* attribute, const std::vector<std::string>& extra);
  // Adds an attribute the fusion passes leave for the kernels (names in core/registry/fusion.h).
  static void add_int_attribute(ir::Node& n, const char* name, int64_t value);
  static void add_floats_attribute(ir::Node& n, const char* name, const std::vector<float>& values);
  // Removes an initializer of g nothing reads any more (not an input's default).
  static void drop_if_unread(ir::Graph& g, const std::string& name);
  // The end of a fusion: q disappears and p, the producer of q's input 0, writes q's output 0;
  // q's other inputs go too when they were constants nothing else reads.
  static void fold_into_producer(ir::Graph& g, ir::Node& q, ir::Node& p);
  // Calls try_fuse(g, node) on every node without subgraphs, in the graphs inside g first (a
  // fusion removes only the node it is given, or one that comes before it: the passes run on
  // graphs in data order, so a producer is listed before its readers); returns how many fused.
  static int64_t fuse_all(ir::Graph& g, const std::function<bool(ir::Graph&, ir::Node&)>& try_fuse);

 private:
  // What inference found for `value`, and whether it is float32 now (a widened value).
  const ValueRecord* inferred_record(const ir::Graph& g, const std::string& value,
                                     bool& widened) const;

  PlanContext& ctx_;
  OpsetMap opsets_;
  ConstantValues constants_;
  mutable std::map<const ir::Graph*, std::set<std::string>> read_outside_;
};

}  // namespace onnxtool::exec_detail
