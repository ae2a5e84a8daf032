// SPDX-License-Identifier: Apache-2.0
#include "core/infer/cost.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/infer/engine.h"
#include "core/ir/location.h"
#include "core/registry/attrs.h"
#include "core/registry/binding.h"
#include "core/types/dtype.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

using Dims64 = std::vector<int64_t>;

// A value's shape when inference knows every dim of it.
std::optional<Dims64> known_shape(const InferResult& types, const std::string& name) {
  const ValueRecord* r = types.find(name);
  if (!r || !r->type.is_tensor() || !r->type.shape) return std::nullopt;
  Dims64 dims;
  for (const Dim& d : *r->type.shape) {
    if (!d.is_known()) return std::nullopt;
    dims.push_back(d.value());
  }
  return dims;
}

std::optional<uint64_t> known_bytes(const InferResult& types, const std::string& name) {
  const ValueRecord* r = types.find(name);
  const auto shape = known_shape(types, name);
  if (!shape) return std::nullopt;
  const auto type = data_type_from_int(r->type.elem);
  const auto n = element_count(*shape);
  if (!type || !n) return std::nullopt;
  return wire_bytes(*type, static_cast<uint64_t>(*n));
}

void collect_subgraph_reads(const onnx::GraphProto& g, std::unordered_set<std::string>& reads) {
  for (const auto& n : g.node()) {
    reads.insert(n.input().begin(), n.input().end());
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collect_subgraph_reads(a.g(), reads);
      for (const auto& sub : a.graphs()) collect_subgraph_reads(sub, reads);
    }
  }
  for (const auto& o : g.output()) reads.insert(o.name());
}

// Every name a node reads: its inputs and what its subgraphs read (captures among them).
std::unordered_set<std::string> reads_of(const onnx::NodeProto& n, bool& has_subgraphs) {
  std::unordered_set<std::string> reads(n.input().begin(), n.input().end());
  has_subgraphs = false;
  for (const auto& a : n.attribute()) {
    if (a.has_g()) collect_subgraph_reads(a.g(), reads);
    for (const auto& sub : a.graphs()) collect_subgraph_reads(sub, reads);
    has_subgraphs = has_subgraphs || a.has_g() || a.graphs_size() > 0;
  }
  reads.erase("");
  return reads;
}

struct Initializers {
  std::unordered_map<std::string, const onnx::TensorProto*> dense;
  std::unordered_set<std::string> counted;
};

// The node's arithmetic, as its operator declares it for these shapes: MACs (products), or
// FLOPs of another kind (pools, reductions, normalisations); {0, nullopt} when it declares none.
struct DeclaredWork {
  double macs = 0;
  std::optional<double> flops;
};

DeclaredWork declared_work(const onnx::NodeProto& n, const OpVersion* schema,
                           const InferResult& types, bool& unknown) {
  DeclaredWork w;
  if (!schema || (!schema->macs && !schema->flops)) return w;
  std::vector<std::optional<Dims64>> in, out;
  WorkShapes shapes;
  for (const auto& name : n.input())
    in.push_back(name.empty() ? std::nullopt : known_shape(types, name));
  for (const auto& name : n.output()) {
    out.push_back(name.empty() ? std::nullopt : known_shape(types, name));
    unknown = unknown || (!name.empty() && !out.back());
  }
  for (const auto& s : in) shapes.inputs.push_back(s ? &*s : nullptr);
  for (const auto& s : out) shapes.outputs.push_back(s ? &*s : nullptr);
  if (unknown) return w;
  const AttrView attrs(n, schema);
  if (schema->macs) w.macs = schema->macs(shapes, attrs);
  if (w.macs <= 0 && schema->flops) w.flops = schema->flops(shapes, attrs);
  return w;
}

NodeCost node_cost(const onnx::NodeProto& n, int index, const OpVersion* schema,
                   const InferResult& types, Initializers& inits) {
  NodeCost c;
  c.location = node_location(kMainGraphPrefix, index, n);
  c.op =
      n.domain().empty() || n.domain() == "ai.onnx" ? n.op_type() : n.domain() + "." + n.op_type();
  for (const auto& name : n.input()) {
    if (name.empty()) continue;
    if (const auto b = known_bytes(types, name))
      c.bytes_read += *b;
    else
      c.unknown = true;
    const auto it = inits.dense.find(name);
    if (it != inits.dense.end() && inits.counted.insert(name).second) {
      int64_t elements = 1;
      for (int64_t d : it->second->dims()) elements *= d;
      c.params += elements;
    }
  }
  double output_elements = 0;
  for (const auto& name : n.output()) {
    if (name.empty()) continue;
    const auto b = known_bytes(types, name);
    const auto shape = known_shape(types, name);
    if (!b || !shape) {
      c.unknown = true;
      continue;
    }
    c.bytes_written += *b;
    output_elements += static_cast<double>(element_count(*shape).value_or(0));
  }
  const DeclaredWork work = declared_work(n, schema, types, c.unknown);
  c.macs = work.macs;
  c.flops = c.macs > 0 ? 2 * c.macs : work.flops.value_or(output_elements);
  return c;
}

// The activation memory over the run: inputs from the start, each node output from its node;
// each freed after its last reader (graph outputs kept to the end).
void simulate_lifetimes(const onnx::GraphProto& g, const InferResult& types,
                        const Initializers& inits, ModelCost& cost) {
  const int n = g.node_size();
  std::unordered_map<std::string, int> last_use;
  for (int i = 0; i < n; ++i) {
    bool subgraphs = false;
    for (const auto& name : reads_of(g.node(i), subgraphs)) last_use[name] = i;
  }
  for (const auto& o : g.output()) last_use[o.name()] = n;
  std::vector<std::vector<std::pair<std::string, uint64_t>>> frees(static_cast<std::size_t>(n) + 1);
  uint64_t live = 0;
  auto hold = [&](const std::string& name, int from) {
    if (name.empty() || inits.dense.count(name)) return;
    const auto b = known_bytes(types, name);
    if (!b) return;
    live += *b;
    const auto it = last_use.find(name);
    const int until = it == last_use.end() ? from : std::max(from, it->second);
    frees[static_cast<std::size_t>(until)].emplace_back(name, *b);
  };
  for (const auto& v : g.input()) hold(v.name(), 0);
  cost.peak_bytes = live;
  for (int i = 0; i < n; ++i) {
    for (const auto& o : g.node(i).output()) {
      hold(o, i);
      if (!o.empty() && !inits.dense.count(o))
        cost.activation_bytes += known_bytes(types, o).value_or(0);
    }
    if (live > cost.peak_bytes) {
      cost.peak_bytes = live;
      cost.peak_after = cost.nodes[static_cast<std::size_t>(i)].location;
    }
    for (const auto& [name, b] : frees[static_cast<std::size_t>(i)]) live -= b;
  }
}

}  // namespace

ModelCost estimate_cost(const Model& model, const InferResult& types, const Registry& registry) {
  ModelCost cost;
  const onnx::GraphProto& g = model.proto->graph();
  const OpsetMap opsets = model_opsets(*model.proto);
  const LocalFunctions functions(*model.proto);
  Initializers inits;
  for (const auto& t : g.initializer()) inits.dense.emplace(t.name(), &t);
  for (const auto& t : g.initializer()) {
    int64_t elements = 1;
    for (int64_t d : t.dims()) elements *= d;
    const auto type = data_type_from_int(t.data_type());
    if (type) cost.param_bytes += wire_bytes(*type, static_cast<uint64_t>(elements)).value_or(0);
  }
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    const OpResolution r = resolve_operator(registry, opsets, &functions, n);
    NodeCost c = node_cost(n, i, r.schema, types, inits);
    reads_of(n, c.has_subgraphs);
    OpTypeCost& by = cost.by_op[c.op];
    ++by.nodes;
    by.macs += c.macs;
    by.flops += c.flops;
    by.params += c.params;
    cost.macs += c.macs;
    cost.flops += c.flops;
    cost.params += c.params;
    cost.bytes_read += c.bytes_read;
    cost.bytes_written += c.bytes_written;
    cost.unknown_nodes += c.unknown ? 1 : 0;
    cost.nodes.push_back(std::move(c));
  }
  simulate_lifetimes(g, types, inits, cost);
  return cost;
}

}  // namespace onnxtool
