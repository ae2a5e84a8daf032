// SPDX-License-Identifier: Apache-2.0
#include "core/convert/value_info.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/infer/type.h"
#include "core/ir/order.h"
#include "core/model/model.h"
#include "onnx.pb.h"

namespace onnxtool::convert {

namespace {

using Stash = std::unordered_map<onnx::GraphProto*, std::vector<onnx::ValueInfoProto>>;

// Takes every graph's value_info out, so that inference sees only what the nodes say.
void take_value_info(onnx::GraphProto& g, Stash& stash) {
  if (g.value_info_size() > 0) {
    auto& kept = stash[&g];
    for (auto& vi : *g.mutable_value_info()) kept.push_back(std::move(vi));
    g.clear_value_info();
  }
  for (auto& node : *g.mutable_node())
    for (auto& a : *node.mutable_attribute()) {
      if (a.has_g()) take_value_info(*a.mutable_g(), stash);
      for (auto& sub : *a.mutable_graphs()) take_value_info(sub, stash);
    }
}

bool dim_known(const onnx::TensorShapeProto::Dimension& d) {
  return d.has_dim_value() || (d.has_dim_param() && !d.dim_param().empty());
}

// The declared tensor type, with what inference knows put over it.
bool merge_tensor(const onnx::TypeProto::Tensor& inferred, onnx::TypeProto::Tensor& declared) {
  bool changed = false;
  if (inferred.elem_type() != 0 && inferred.elem_type() != declared.elem_type()) {
    declared.set_elem_type(inferred.elem_type());
    changed = true;
  }
  if (!inferred.has_shape()) return changed;
  const auto& in = inferred.shape();
  if (!declared.has_shape() || declared.shape().dim_size() != in.dim_size()) {
    *declared.mutable_shape() = in;
    return true;
  }
  for (int i = 0; i < in.dim_size(); ++i) {
    auto& d = *declared.mutable_shape()->mutable_dim(i);
    if (!dim_known(in.dim(i))) continue;
    const bool same = in.dim(i).has_dim_value()
                          ? d.has_dim_value() && d.dim_value() == in.dim(i).dim_value()
                          : d.has_dim_param() && d.dim_param() == in.dim(i).dim_param();
    if (same) continue;
    // A symbolic name inference made up does not replace a number or a name the model gave.
    if (in.dim(i).has_dim_param() && dim_known(d)) continue;
    d = in.dim(i);
    changed = true;
  }
  return changed;
}

void put_back(onnx::GraphProto& g, std::vector<onnx::ValueInfoProto>& entries,
              const InferResult* all, const GraphResult* result, ValueInfoRefresh& counts) {
  for (auto& vi : entries) {
    const ValueRecord* r = result ? all->find_in_scope(*result, vi.name()).second : nullptr;
    if (result && !r) {
      ++counts.dropped;
      continue;
    }
    if (r && !type_spec(r->type).empty()) {
      onnx::TypeProto inferred;
      type_to_proto(r->type, inferred);
      bool changed = false;
      if (inferred.has_tensor_type() && vi.type().has_tensor_type())
        changed = merge_tensor(inferred.tensor_type(), *vi.mutable_type()->mutable_tensor_type());
      else if (inferred.value_case() != vi.type().value_case() || !vi.has_type()) {
        *vi.mutable_type() = inferred;
        changed = true;
      }
      if (changed) ++counts.updated;
    }
    *g.add_value_info() = std::move(vi);
  }
}

}  // namespace

ValueInfoRefresh refresh_value_info(Model& model) {
  ValueInfoRefresh counts;
  onnx::ModelProto& proto = *model.proto;
  Stash stash;
  take_value_info(*proto.mutable_graph(), stash);
  for (auto& t : *proto.mutable_training_info()) {
    if (t.has_initialization()) take_value_info(*t.mutable_initialization(), stash);
    if (t.has_algorithm()) take_value_info(*t.mutable_algorithm(), stash);
  }
  if (stash.empty()) return counts;
  std::optional<InferResult> result;
  try {
    DiagSink quiet;
    result = infer_model(model, {}, quiet);
  } catch (const Error&) {
    // Inference gave up: the entries go back as they were.
  }
  for (auto& [graph, entries] : stash) {
    const GraphResult* r = result ? result->graph_of(graph) : nullptr;
    put_back(*graph, entries, result ? &*result : nullptr, r, counts);
  }
  return counts;
}

ExposedValues expose_values(Model& model, const std::function<bool(const std::string&)>& wanted) {
  DiagSink sink(0);
  const InferResult types = infer_model(model, {}, sink);
  const GraphResult& main = types.graphs.front();
  onnx::GraphProto& g = *model.proto->mutable_graph();
  std::unordered_set<std::string> outputs;
  for (const auto& o : g.output()) outputs.insert(o.name());
  ExposedValues out;
  for (int i : order_or_stored(g.node())) {
    for (const auto& name : g.node(i).output()) {
      if (name.empty() || outputs.count(name) || !wanted(name)) continue;
      const ValueRecord* r = main.find(name);
      if (!r || r->type.is_unknown() || (r->type.is_tensor() && r->type.elem == 0)) {
        out.untyped.push_back(name);
        continue;
      }
      auto* v = g.add_output();
      v->set_name(name);
      type_to_proto(r->type, *v->mutable_type());
      outputs.insert(name);
      ++out.added;
    }
  }
  return out;
}

}  // namespace onnxtool::convert
