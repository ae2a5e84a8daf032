// SPDX-License-Identifier: Apache-2.0
#include "core/edit/extract.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/infer/type.h"
#include "core/ir/graph.h"
#include "core/ir/location.h"
#include "core/ir/order.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

[[noreturn]] void refuse(const Model& m, const std::string& rule, const std::string& message) {
  throw Error(ErrorKind::usage, rule, m.name, "", message);
}

// What the main graph defines, by name.
struct MainGraphNames {
  std::unordered_set<std::string> inputs, initializers, sparse;
};

MainGraphNames names_of(const onnx::GraphProto& g) {
  MainGraphNames n;
  for (const auto& v : g.input()) n.inputs.insert(v.name());
  for (const auto& t : g.initializer()) n.initializers.insert(t.name());
  for (const auto& s : g.sparse_initializer()) n.sparse.insert(s.values().name());
  return n;
}

void require_distinct(const Model& m, const std::vector<std::string>& names, const char* what) {
  std::set<std::string> seen;
  for (const auto& n : names) {
    if (n.empty()) refuse(m, "extract.empty-name", std::string("an empty name among the ") + what);
    if (!seen.insert(n).second)
      refuse(m, "extract.repeated", quoted_name(n) + " is given twice among the " + what);
  }
}

// The cut: which nodes (by position), initializers and graph inputs the outputs need.
struct Selection {
  std::vector<bool> node;
  std::set<std::string> initializers;     // dense and sparse, kept as initializers
  std::set<std::string> needed_inputs;    // requested inputs some output depends on
  std::vector<std::string> model_inputs;  // the model's own inputs the cut reads (inputs not given)
};

class Selector {
 public:
  Selector(const Model& m, const ir::Graph& g, const MainGraphNames& names,
           const ExtractRequest& req)
      : m_(m),
        g_(g),
        names_(names),
        given_inputs_(req.inputs.begin(), req.inputs.end()),
        inputs_given_(!req.inputs.empty()) {
    sel_.node.assign(g.node_count(), false);
  }

  Selection select(const std::vector<std::string>& outputs) {
    for (const auto& o : outputs) need(o, "");
    while (!pending_.empty()) {
      auto [value, reader] = pending_.back();
      pending_.pop_back();
      visit(value, reader);
    }
    return std::move(sel_);
  }

 private:
  void need(const std::string& value, const std::string& reader) {
    if (!value.empty() && seen_.insert(value).second) pending_.emplace_back(value, reader);
  }

  void visit(const std::string& value, const std::string& reader) {
    if (given_inputs_.count(value)) {
      sel_.needed_inputs.insert(value);
      return;
    }
    if (names_.initializers.count(value) || names_.sparse.count(value)) {
      sel_.initializers.insert(value);
      return;
    }
    if (names_.inputs.count(value)) {
      if (inputs_given_)
        refuse(m_, "extract.input-missing",
               "the cut needs graph input " + quoted_name(value) + " (read by " + reader +
                   "), which the inputs do not list: add it to --inputs");
      sel_.model_inputs.push_back(value);
      return;
    }
    const ir::Node* producer = g_.producer(value);
    if (!producer)
      refuse(m_, "extract.undefined",
             "the cut needs " + quoted_name(value) + " (read by " + reader +
                 "), which nothing in the model defines");
    keep(*producer);
  }

  void keep(const ir::Node& n) {
    const int index = g_.index_of(n);
    if (sel_.node[static_cast<std::size_t>(index)]) return;
    sel_.node[static_cast<std::size_t>(index)] = true;
    const std::string where = node_location("graph.", index, n.proto());
    for (const auto& out : n.outputs())
      if (given_inputs_.count(out))
        refuse(m_, "extract.input-computed",
               "input " + quoted_name(out) + " is also computed inside the cut, by " + where +
                   ", which the outputs need: it cannot be both");
    for (const auto& in : n.inputs()) need(in, where);
    for (const auto& sub : n.subgraphs())
      for (const auto& name : sub.graph->outer_references()) need(name, where);
  }

  const Model& m_;
  const ir::Graph& g_;
  const MainGraphNames& names_;
  std::unordered_set<std::string> given_inputs_;
  bool inputs_given_;
  Selection sel_;
  std::unordered_set<std::string> seen_;
  std::vector<std::pair<std::string, std::string>> pending_;  // (value, who reads it)
};

// ---- functions ---------------------------------------------------------------------------

using FunctionKey = std::tuple<std::string, std::string, std::string>;  // domain, name, overload

void collect_calls(const onnx::NodeProto& n, std::set<FunctionKey>& calls);

void collect_calls(const onnx::GraphProto& g, std::set<FunctionKey>& calls) {
  for (const auto& n : g.node()) collect_calls(n, calls);
}

void collect_calls(const onnx::NodeProto& n, std::set<FunctionKey>& calls) {
  calls.emplace(n.domain(), n.op_type(), n.overload());
  for (const auto& a : n.attribute()) {
    if (a.has_g()) collect_calls(a.g(), calls);
    for (const auto& sub : a.graphs()) collect_calls(sub, calls);
  }
}

// The model-local functions the kept nodes use, and those they call in turn (by position).
std::vector<bool> used_functions(const onnx::ModelProto& m, std::set<FunctionKey> calls) {
  std::map<FunctionKey, int> index;
  for (int i = 0; i < m.functions_size(); ++i) {
    const auto& f = m.functions(i);
    index.emplace(FunctionKey{f.domain(), f.name(), f.overload()}, i);
  }
  std::vector<bool> used(static_cast<std::size_t>(m.functions_size()), false);
  std::vector<FunctionKey> pending(calls.begin(), calls.end());
  while (!pending.empty()) {
    const FunctionKey key = pending.back();
    pending.pop_back();
    const auto it = index.find(key);
    if (it == index.end() || used[static_cast<std::size_t>(it->second)]) continue;
    used[static_cast<std::size_t>(it->second)] = true;
    std::set<FunctionKey> inner;
    for (const auto& n : m.functions(it->second).node()) collect_calls(n, inner);
    for (const auto& k : inner)
      if (calls.insert(k).second) pending.push_back(k);
  }
  return used;
}

// ---- types of the new interface ----------------------------------------------------------

// What the model already says of a value's type: its graph input or output declaration, or its
// value_info entry (the first that has a type).
const onnx::ValueInfoProto* declared(const onnx::GraphProto& g, const std::string& name) {
  for (const auto* list : {&g.input(), &g.output(), &g.value_info()})
    for (const auto& v : *list)
      if (v.name() == name && v.has_type()) return &v;
  return nullptr;
}

// The value as a graph input or output of the piece: its declaration when the model has one
// (inferred detail added where the declaration lacks it), else what inference found, else the
// initializer's own type.
onnx::ValueInfoProto interface_value(const Model& m, const onnx::GraphProto& g,
                                     const std::string& name, const InferResult& types,
                                     const char* role) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  if (const auto* d = declared(g, name)) v = *d;
  const ValueRecord* r = types.find(name);
  const bool inferred_known =
      r && !r->type.is_unknown() && !(r->type.is_tensor() && r->type.elem == 0);
  if (inferred_known && (!v.has_type() || !is_fully_known(type_from_proto(v.type()))))
    type_to_proto(r->type, *v.mutable_type());
  if (!v.has_type())
    for (const auto& t : g.initializer())
      if (t.name() == name) {
        auto* tt = v.mutable_type()->mutable_tensor_type();
        tt->set_elem_type(t.data_type());
        for (int64_t d : t.dims()) tt->mutable_shape()->add_dim()->set_dim_value(d);
      }
  if (!v.has_type())
    refuse(m, "extract.untyped",
           std::string("the type of ") + role + " " + quoted_name(name) +
               " is unknown: the model does not declare it and shape inference cannot tell it");
  return v;
}

uint64_t stored_bytes(const onnx::TensorProto& t) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    for (const auto& e : t.external_data())
      if (e.key() == "length") return std::strtoull(e.value().c_str(), nullptr, 10);
  return static_cast<uint64_t>(t.ByteSizeLong());
}

// The values the kept nodes (and their subgraphs) name, for value_info.
void collect_names(const onnx::NodeProto& n, std::unordered_set<std::string>& names) {
  for (const auto& s : n.input()) names.insert(s);
  for (const auto& s : n.output()) names.insert(s);
}

}  // namespace

ExtractSummary extract_model(Model& model, const ExtractRequest& request,
                             const InferResult& types) {
  onnx::ModelProto& src = *model.proto;
  onnx::GraphProto& g = *src.mutable_graph();
  ExtractSummary s;
  s.nodes_before = static_cast<std::size_t>(g.node_size());
  s.initializers_before =
      static_cast<std::size_t>(g.initializer_size() + g.sparse_initializer_size());
  s.functions_before = static_cast<std::size_t>(src.functions_size());

  std::vector<std::string> outputs = request.outputs;
  if (outputs.empty())
    for (const auto& o : g.output()) outputs.push_back(o.name());
  require_distinct(model, request.inputs, "inputs");
  require_distinct(model, outputs, "outputs");

  const MainGraphNames names = names_of(g);
  Selection sel;
  {
    const auto view = ir::Graph::view(g);
    auto defined = [&](const std::string& n) {
      return names.inputs.count(n) || names.initializers.count(n) || names.sparse.count(n) ||
             view->producer(n) != nullptr;
    };
    for (const auto& n : request.inputs)
      if (!defined(n))
        refuse(model, "extract.no-such-value",
               "input " + quoted_name(n) + ": the main graph has no value of that name");
    for (const auto& n : outputs)
      if (!defined(n))
        refuse(model, "extract.no-such-value",
               "output " + quoted_name(n) + ": the main graph has no value of that name");
    sel = Selector(model, *view, names, request).select(outputs);
  }

  // The new interface, typed while the original declarations are still there.
  const std::vector<std::string>& input_names =
      request.inputs.empty() ? sel.model_inputs : request.inputs;
  std::vector<std::string> ordered_inputs = input_names;
  if (request.inputs.empty()) {
    // The model's own inputs keep their declared order.
    ordered_inputs.clear();
    for (const auto& v : g.input())
      if (std::find(input_names.begin(), input_names.end(), v.name()) != input_names.end())
        ordered_inputs.push_back(v.name());
  }
  std::vector<onnx::ValueInfoProto> new_inputs, new_outputs;
  for (const auto& n : ordered_inputs)
    new_inputs.push_back(interface_value(model, g, n, types, "input"));
  for (const auto& n : outputs)
    new_outputs.push_back(interface_value(model, g, n, types, "output"));
  // An initializer the cut keeps that the model also lists as an input (a default the caller may
  // override; before IR 4 every initializer had to be one) stays an input, after the others.
  for (const auto& v : g.input())
    if (sel.initializers.count(v.name()) &&
        std::find(ordered_inputs.begin(), ordered_inputs.end(), v.name()) == ordered_inputs.end())
      new_inputs.push_back(v);

  // Build the piece's graph, moving what it keeps.
  onnx::GraphProto piece;
  piece.set_name(g.name());
  piece.set_doc_string(g.doc_string());
  *piece.mutable_metadata_props() = g.metadata_props();
  std::unordered_set<std::string> used_names;
  std::set<FunctionKey> calls;
  for (int i = 0; i < g.node_size(); ++i) {
    if (!sel.node[static_cast<std::size_t>(i)]) continue;
    collect_names(g.node(i), used_names);
    collect_calls(g.node(i), calls);
    *piece.add_node() = std::move(*g.mutable_node(i));
  }
  const std::set<std::string> as_input(ordered_inputs.begin(), ordered_inputs.end());
  for (auto& t : *g.mutable_initializer())
    if (sel.initializers.count(t.name()) && !as_input.count(t.name())) {
      s.initializer_bytes += stored_bytes(t);
      *piece.add_initializer() = std::move(t);
    }
  for (auto& sp : *g.mutable_sparse_initializer())
    if (sel.initializers.count(sp.values().name()) && !as_input.count(sp.values().name())) {
      s.initializer_bytes += stored_bytes(sp.values()) + stored_bytes(sp.indices());
      *piece.add_sparse_initializer() = std::move(sp);
    }
  for (auto& v : new_inputs) *piece.add_input() = std::move(v);
  for (auto& v : new_outputs) *piece.add_output() = std::move(v);
  std::unordered_set<std::string> interface(ordered_inputs.begin(), ordered_inputs.end());
  interface.insert(outputs.begin(), outputs.end());
  for (auto& v : *g.mutable_value_info())
    if (used_names.count(v.name()) && !interface.count(v.name()))
      *piece.add_value_info() = std::move(v);
  for (auto& a : *g.mutable_quantization_annotation())
    if (used_names.count(a.tensor_name()) || interface.count(a.tensor_name()))
      *piece.add_quantization_annotation() = std::move(a);

  const std::vector<bool> keep_function = used_functions(src, calls);
  google::protobuf::RepeatedPtrField<onnx::FunctionProto> functions;
  for (int i = 0; i < src.functions_size(); ++i)
    if (keep_function[static_cast<std::size_t>(i)])
      *functions.Add() = std::move(*src.mutable_functions(i));
  src.mutable_functions()->Swap(&functions);
  src.clear_training_info();
  src.mutable_graph()->Swap(&piece);

  for (const auto& n : request.inputs)
    if (!sel.needed_inputs.count(n)) s.unused_inputs.push_back(n);
  // Sorted by data only where the original order does not already allow it.
  const NodeSortReport sorted = sort_model_nodes(src);
  s.reordered = sorted.graphs_reordered > 0;
  s.nodes = static_cast<std::size_t>(src.graph().node_size());
  s.initializers = static_cast<std::size_t>(src.graph().initializer_size() +
                                            src.graph().sparse_initializer_size());
  s.functions = static_cast<std::size_t>(src.functions_size());
  for (const auto& v : src.graph().input()) {
    if (sel.initializers.count(v.name()) && !as_input.count(v.name()))
      ++s.initializer_inputs;
    else
      s.inputs.push_back(v.name());
  }
  for (const auto& v : src.graph().output()) s.outputs.push_back(v.name());
  return s;
}

}  // namespace onnxtool
