// SPDX-License-Identifier: Apache-2.0
#include "core/edit/simplify.h"

#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/convert/value_info.h"
#include "core/diag/error.h"
#include "core/exec/fold.h"
#include "core/ir/graph.h"
#include "core/registry/attrs.h"
#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "core/types/dtype.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

bool is_graph_output(const ir::Graph& g, const std::string& name) {
  for (const auto& o : g.outputs())
    if (o.name() == name) return true;
  return false;
}

bool is_graph_input(const ir::Graph& g, const std::string& name) {
  for (const auto& i : g.inputs())
    if (i.name() == name) return true;
  return false;
}

// ---- 1. values inference knows ---------------------------------------------------------------

// The tensor inference computed for a value: an integer tensor of known shape whose every
// element data propagation knows.
std::optional<Tensor> known_value(const InferResult& types, const std::string& name) {
  const ValueRecord* r = types.find(name);
  if (!r || !r->values || !r->type.is_tensor() || !is_fully_known(r->type)) return std::nullopt;
  const bool int64 = r->type.elem == onnx::TensorProto::INT64;
  if (!int64 && r->type.elem != onnx::TensorProto::INT32) return std::nullopt;
  Shape shape;
  int64_t count = 1;
  for (const Dim& d : *r->type.shape) {
    shape.push_back(d.value());
    count *= d.value();
  }
  if (count != static_cast<int64_t>(r->values->size())) return std::nullopt;
  std::vector<int64_t> v;
  for (const Dim& d : *r->values) {
    if (!d.is_known()) return std::nullopt;
    v.push_back(d.value());
  }
  if (int64) return Tensor::from_vector<int64_t>(shape, v);
  return Tensor::from_vector<int32_t>(shape, std::vector<int32_t>(v.begin(), v.end()));
}

int64_t materialize_known_values(ir::Graph& g, const InferResult& types) {
  int64_t replaced = 0;
  for (ir::Node* n : g.node_list()) {
    if (!n->subgraphs().empty() || n->outputs().empty()) continue;
    std::vector<std::pair<std::string, Tensor>> values;
    bool all = true;
    for (const auto& out : n->outputs()) {
      if (out.empty()) continue;
      auto t = known_value(types, out);
      if (!t) {
        all = false;
        break;
      }
      values.emplace_back(out, std::move(*t));
    }
    if (!all || values.empty()) continue;
    (void)g.remove_node(*n, ir::Graph::Removal::force);
    for (auto& [name, t] : values) (void)g.add_initializer(name, std::move(t));
    ++replaced;
  }
  return replaced;
}

// ---- 3. nodes that give their input back ------------------------------------------------------

struct Operators {
  const Registry& registry;
  OpsetMap opsets;
  LocalFunctions functions;

  // Binding reads the node's domain, op_type and overload only: its stored proto serves, without
  // a copy (which would copy Constant tensors too).
  const OpVersion* schema(const ir::Node& n) const {
    const OpResolution r = resolve_operator(registry, opsets, &functions, n.proto());
    return r.function ? nullptr : r.schema;  // a model-local function of that name wins
  }
};

int64_t bypass_pass_through(ir::Graph& g, const InferResult& types, const Operators& ops) {
  int64_t bypassed = 0;
  for (ir::Node* n : g.node_list()) {
    if (n->inputs().empty() || n->inputs()[0].empty() || n->outputs().empty()) continue;
    const OpVersion* schema = ops.schema(*n);
    if (!schema || !schema->passes_through) continue;
    std::vector<bool> named;
    for (const auto& in : n->inputs()) named.push_back(!in.empty());
    const ValueRecord* r = types.find(n->inputs()[0]);
    const int32_t elem = r && r->type.is_tensor() ? r->type.elem : 0;
    const AttrView attrs(n->proto(), schema);
    if (!schema->passes_through(attrs, named, elem)) continue;
    const std::string in = n->inputs()[0], out = n->outputs()[0];
    if (is_graph_output(g, out)) continue;  // the interface keeps its names
    bool others_read = false;
    for (std::size_t k = 1; k < n->outputs().size(); ++k)
      others_read = others_read || (!n->outputs()[k].empty() && g.is_used(n->outputs()[k]));
    if (others_read || !g.replace_all_uses(out, in).ok()) continue;
    (void)g.remove_node(*n, ir::Graph::Removal::force);
    ++bypassed;
  }
  return bypassed;
}

// ---- 4. what nothing reads ----------------------------------------------------------------

int64_t remove_dead_nodes(ir::Graph& g) {
  int64_t removed = 0;
  const std::vector<ir::Node*> nodes = g.node_list();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    bool read = false;
    for (const auto& out : (*it)->outputs()) read = read || (!out.empty() && g.is_used(out));
    if (!read && g.remove_node(**it, ir::Graph::Removal::force).ok()) ++removed;
  }
  return removed;
}

// Initializers nothing reads. One the model also lists as an input stays (a caller may feed
// it), unless the inputs are the weights themselves (IR < 4): then both go.
int64_t remove_unused_initializers(ir::Graph& g, bool inputs_are_weights) {
  std::vector<std::string> unused;
  for (const auto& init : g.initializers())
    if (!g.is_used(init.name) && (inputs_are_weights || !is_graph_input(g, init.name)))
      unused.push_back(init.name);
  int64_t removed = 0;
  for (const auto& name : unused) {
    if (is_graph_input(g, name) && !g.remove_input(name).ok()) continue;
    removed += g.remove_initializer(name).ok() ? 1 : 0;
  }
  return removed;
}

// Before IR 4 every initializer must also be a graph input: the new ones (folded values) too.
void list_initializers_as_inputs(onnx::ModelProto& m) {
  if (m.ir_version() >= 4) return;
  std::set<std::string> inputs;
  for (const auto& v : m.graph().input()) inputs.insert(v.name());
  for (const auto& t : m.graph().initializer()) {
    if (inputs.count(t.name())) continue;
    onnx::ValueInfoProto& v = *m.mutable_graph()->add_input();
    v.set_name(t.name());
    auto* tt = v.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(t.data_type());
    auto* shape = tt->mutable_shape();
    for (int64_t d : t.dims()) shape->add_dim()->set_dim_value(d);
  }
}

// ---- 5. duplicates ------------------------------------------------------------------------

int64_t merge_duplicate_initializers(ir::Graph& g, const Model& model) {
  struct Seen {
    std::string name;
    Tensor value;
  };
  std::unordered_map<std::size_t, std::vector<Seen>> by_hash;
  std::vector<std::pair<std::string, std::string>> merges;  // duplicate -> kept
  for (const auto& init : g.initializers()) {
    if (is_graph_input(g, init.name) || is_graph_output(g, init.name)) continue;
    std::optional<Tensor> t;
    try {
      if (init.tensor)
        t = *init.tensor;
      else if (init.proto)
        t = model.tensor(*init.proto);  // external data mapped, raw data wrapped
    } catch (const Error&) {
      continue;
    }
    if (!t || t->dtype() == DataType::string) continue;
    const std::string_view bytes(reinterpret_cast<const char*>(t->raw()), t->nbytes());
    const std::size_t h = std::hash<std::string_view>()(bytes) ^
                          (static_cast<std::size_t>(t->dtype()) * 0x9e3779b97f4a7c15ull);
    bool merged = false;
    for (const Seen& s : by_hash[h])
      if (s.value.dtype() == t->dtype() && s.value.shape() == t->shape() &&
          std::memcmp(s.value.raw(), t->raw(), t->nbytes()) == 0) {
        merges.emplace_back(init.name, s.name);
        merged = true;
        break;
      }
    if (!merged) by_hash[h].push_back({init.name, std::move(*t)});
  }
  int64_t done = 0;
  for (const auto& [dup, kept] : merges)
    if (g.replace_all_uses(dup, kept).ok() && g.remove_initializer(dup).ok()) ++done;
  return done;
}

std::string node_key(const ir::Node& n) {
  std::string key = n.domain() + '\n' + n.op_type() + '\n' + n.proto().overload() + '\n';
  for (const auto& in : n.inputs()) key += in + '\n';
  key += std::to_string(n.outputs().size()) + '\n';
  for (const auto& a : n.proto().attribute()) key += a.SerializeAsString();
  return key;
}

int64_t merge_common_subexpressions(ir::Graph& g, const Operators& ops) {
  std::unordered_map<std::string, ir::Node*> first;
  int64_t merged = 0;
  for (ir::Node* n : g.node_list()) {
    if (!n->subgraphs().empty() || n->outputs().empty()) continue;
    const OpVersion* schema = ops.schema(*n);
    if (!schema || schema->has(Trait::nondeterministic)) continue;
    const auto [it, inserted] = first.emplace(node_key(*n), n);
    if (inserted) continue;
    const ir::Node& kept = *it->second;
    bool interface = false;
    for (const auto& out : n->outputs()) interface = interface || is_graph_output(g, out);
    if (interface) continue;
    bool ok = true;
    for (std::size_t k = 0; k < n->outputs().size() && ok; ++k)
      if (!n->outputs()[k].empty())
        ok = !kept.outputs()[k].empty() &&
             g.replace_all_uses(n->outputs()[k], kept.outputs()[k]).ok();
    if (!ok) continue;
    (void)g.remove_node(*n, ir::Graph::Removal::force);
    ++merged;
  }
  return merged;
}

std::size_t initializer_count(const onnx::ModelProto& m) {
  return static_cast<std::size_t>(m.graph().initializer_size() +
                                  m.graph().sparse_initializer_size());
}

// Fixes --dim / --input-shape into the model's input types, so every later inference sees them.
void bind_inputs(Model& model, const InferOptions& bindings) {
  if (bindings.dims.empty() && bindings.input_shapes.empty()) return;
  DiagSink sink;
  const InferResult r = infer_model(model, bindings, sink);
  annotate_model(*model.proto, r, true);
}

}  // namespace

SimplifyReport simplify_model(Model& model, const SimplifyOptions& options) {
  SimplifyReport rep;
  rep.nodes_before = static_cast<std::size_t>(model.proto->graph().node_size());
  rep.initializers_before = initializer_count(*model.proto);
  rep.bytes_before = model.proto->ByteSizeLong();
  bind_inputs(model, options.bindings);
  const Registry& registry = Registry::standard();
  const bool inputs_are_weights = model.proto->ir_version() < 4;
  for (rep.rounds = 1; rep.rounds <= 8; ++rep.rounds) {
    DiagSink sink;
    const InferResult types = infer_model(model, {}, sink);
    // Taken, not copied (weights included); the model is whole again at the end of the round.
    ir::ModelGraph mg = ir::ModelGraph::from_proto(std::move(*model.proto));
    const Operators ops{registry, model_opsets(mg.header()), LocalFunctions(mg.header())};
    if (!mg.graph()) {
      *model.proto = mg.to_proto();
      break;
    }
    ir::Graph& g = *mg.graph();
    int64_t changes = 0;
    const int64_t known = materialize_known_values(g, types);
    FoldOptions fo;
    fo.max_folded_bytes = options.max_folded_bytes;
    fo.defaults_as_constants = inputs_are_weights;
    const FoldReport folded = fold_constants(model, mg, fo);
    const int64_t bypassed = bypass_pass_through(g, types, ops);
    const int64_t dups = merge_duplicate_initializers(g, model);
    const int64_t cse = merge_common_subexpressions(g, ops);
    const int64_t dead = remove_dead_nodes(g);
    const int64_t unused = remove_unused_initializers(g, inputs_are_weights);
    rep.from_shapes += known;
    rep.folded += folded.nodes;
    rep.too_large = folded.too_large;
    rep.passed_through += bypassed;
    rep.duplicate_initializers += dups;
    rep.common_subexpressions += cse;
    rep.dead += dead;
    rep.unused_initializers += unused;
    changes = known + folded.nodes + bypassed + dups + cse + dead + unused;
    *model.proto = mg.to_proto();
    if (changes == 0) break;
  }
  list_initializers_as_inputs(*model.proto);
  convert::refresh_value_info(model);
  rep.nodes_after = static_cast<std::size_t>(model.proto->graph().node_size());
  rep.initializers_after = initializer_count(*model.proto);
  rep.bytes_after = model.proto->ByteSizeLong();
  return rep;
}

}  // namespace onnxtool
