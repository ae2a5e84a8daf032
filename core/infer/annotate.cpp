// SPDX-License-Identifier: Apache-2.0
// Writing inference results back into a model, and explaining where information was lost.
#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>

#include "core/infer/engine.h"
#include "core/ir/location.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

// Only types a checker accepts are written: every element type known.
bool writable(const Type& t) {
  return !type_spec(t).empty();
}

void annotate_graph(onnx::GraphProto& g, const GraphResult& r) {
  for (int i = 0; i < g.output_size() && static_cast<std::size_t>(i) < r.output_types.size(); ++i)
    if (writable(r.output_types[static_cast<std::size_t>(i)]))
      type_to_proto(r.output_types[static_cast<std::size_t>(i)],
                    *g.mutable_output(i)->mutable_type());
  std::unordered_map<std::string, int> existing;
  for (int i = 0; i < g.value_info_size(); ++i) existing[g.value_info(i).name()] = i;
  for (const auto& v : r.values) {
    if (v.provenance.origin != Provenance::Origin::node || v.is_output || !writable(v.type))
      continue;
    auto it = existing.find(v.name);
    onnx::ValueInfoProto* vi =
        it != existing.end() ? g.mutable_value_info(it->second) : g.add_value_info();
    vi->set_name(v.name);
    type_to_proto(v.type, *vi->mutable_type());
  }
}

void annotate_recursive(onnx::GraphProto& g, const InferResult& result) {
  if (const GraphResult* r = result.graph_of(&g)) annotate_graph(g, *r);
  for (auto& node : *g.mutable_node())
    for (auto& a : *node.mutable_attribute()) {
      if (a.has_g()) annotate_recursive(*a.mutable_g(), result);
      for (auto& sub : *a.mutable_graphs()) annotate_recursive(sub, result);
    }
}

}  // namespace

void annotate_model(onnx::ModelProto& model, const InferResult& result, bool refine_inputs) {
  annotate_recursive(*model.mutable_graph(), result);
  // --dim and --input-shape fix the main graph's inputs: the written model says so, so that the
  // model runs and checks with the shapes its outputs were inferred for.
  const GraphResult* main = refine_inputs ? result.graph_of(&model.graph()) : nullptr;
  for (int i = 0; main && i < model.graph().input_size(); ++i) {
    auto& input = *model.mutable_graph()->mutable_input(i);
    const ValueRecord* v = main->find(input.name());
    if (v && v->provenance.origin == Provenance::Origin::input && writable(v->type))
      type_to_proto(v->type, *input.mutable_type());
  }
  for (auto& t : *model.mutable_training_info()) {
    if (t.has_initialization()) annotate_recursive(*t.mutable_initialization(), result);
    if (t.has_algorithm()) annotate_recursive(*t.mutable_algorithm(), result);
  }
}

// ---- explain -------------------------------------------------------------------------------

namespace {

constexpr int kMaxAnnotatedDepth = 12;
constexpr std::size_t kMaxLines = 80;

bool values_known(const ValueRecord& v) {
  if (!v.values) return false;
  return std::all_of(v.values->begin(), v.values->end(), [](const Dim& d) { return d.is_known(); });
}

class Explainer {
 public:
  explicit Explainer(const InferResult& r) : result_(r) {}

  std::vector<std::string> run(const std::string& name) {
    const GraphResult* g = nullptr;
    const ValueRecord* v = nullptr;
    for (const auto& graph : result_.graphs)
      if (!v && (v = graph.find(name))) g = &graph;
    if (!v) return {"no value named " + quoted_name(name) + " in the model"};
    if (is_fully_known(v->type)) return {name + ": " + v->type.to_string() + " (fully known)"};
    value(*g, *v, 0, false);
    return std::move(lines_);
  }

 private:
  void line(int depth, const std::string& text) {
    if (lines_.size() < kMaxLines) lines_.push_back(std::string(2 * depth, ' ') + text);
  }

  std::string header(const ValueRecord& v) const {
    std::string s = v.name + ": " + v.type.to_string();
    if (v.values) s += " values " + dims_to_string(*v.values);
    return s;
  }

  void value(const GraphResult& g, const ValueRecord& v, int depth, bool want_values) {
    line(depth, header(v));
    if (depth >= kMaxAnnotatedDepth) return line(depth + 1, "...");
    if (!seen_.insert(g.prefix + v.name + (want_values ? "#v" : "")).second)
      return line(depth + 1, "(explained above)");
    const Provenance& p = v.provenance;
    if (p.origin == Provenance::Origin::input)
      return line(depth + 1,
                  "an input: its type is as declared (fix dims with --dim or "
                  "--input-shape)");
    if (p.origin == Provenance::Origin::initializer) return line(depth + 1, "an initializer");
    if (!p.declared.empty())
      line(depth + 1, "declared " + p.declared + "; what inference found by itself:");
    node(g, v, depth + 1, want_values);
  }

  void node(const GraphResult& g, const ValueRecord& v, int depth, bool want_values) {
    const Provenance& p = v.provenance;
    const std::string at = p.node + " [" + p.op + "]: ";
    if (!p.reason.empty()) return line(depth, at + p.reason);
    // Inputs whose type is not fully known, whose propagated values are partly unknown, or
    // whose values inference asked for in vain. When dims are wanted and some input's type
    // explains them, values asked for in passing (data propagation probes) are not followed.
    std::vector<std::pair<std::size_t, bool>> unclear;  // (input, follow its values)
    for (std::size_t i = 0; i < p.inputs.size(); ++i) {
      auto [ig, iv] = result_.find_in_scope(g, p.inputs[i]);
      if (!iv) continue;
      if (!is_fully_known(iv->type))
        unclear.emplace_back(i, false);
      else if (iv->values && !values_known(*iv))
        unclear.emplace_back(i, true);
    }
    if (want_values || unclear.empty())
      for (std::size_t i : p.missing_values)
        if (std::none_of(unclear.begin(), unclear.end(),
                         [i](const auto& u) { return u.first == i; }))
          unclear.emplace_back(i, true);
    if (unclear.empty()) {
      if (want_values && !v.values)
        return line(depth, at + "computes no values (no data propagation)");
      return line(depth, at + "its inputs are fully known: the output depends on their values");
    }
    for (auto [i, values] : unclear) {
      const bool none = values && std::find(p.missing_values.begin(), p.missing_values.end(), i) !=
                                      p.missing_values.end();
      line(depth, at + (none ? "input " : "from input ") + std::to_string(i) + " " +
                      quoted_name(p.inputs[i]) +
                      (none     ? " has no known values"
                       : values ? " (its values)"
                                : ""));
      follow(g, p.inputs[i], depth + 1, values);
    }
  }

  void follow(const GraphResult& g, const std::string& name, int depth, bool want_values) {
    auto [ig, iv] = result_.find_in_scope(g, name);
    if (!iv) return line(depth, quoted_name(name) + ": not defined");
    if (want_values && values_known(*iv)) return;
    value(*ig, *iv, depth, want_values);
  }

  const InferResult& result_;
  std::vector<std::string> lines_;
  std::set<std::string> seen_;
};

}  // namespace

std::vector<std::string> explain_value(const InferResult& result, const std::string& value) {
  return Explainer(result).run(value);
}

}  // namespace onnxtool
