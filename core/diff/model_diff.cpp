// SPDX-License-Identifier: Apache-2.0
#include "core/diff/model_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/exec/compare.h"
#include "core/ir/location.h"
#include "core/ir/type_text.h"
#include "core/types/value.h"
#include "onnx.pb.h"

namespace onnxtool {

std::size_t ModelDiff::count(const std::string& section, const std::string& change) const {
  return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [&](const auto& e) {
    return (section.empty() || e.section == section) && (change.empty() || e.change == change);
  }));
}

namespace {

// Values of A matched to values of B.
struct Matches {
  std::unordered_map<std::string, std::string> a2b;
  std::unordered_set<std::string> b_taken;

  const std::string* of(const std::string& a) const {
    const auto it = a2b.find(a);
    return it == a2b.end() ? nullptr : &it->second;
  }
  bool taken(const std::string& b) const { return b_taken.count(b) != 0; }
  void add(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty() || a2b.count(a) || b_taken.count(b)) return;
    a2b.emplace(a, b);
    b_taken.insert(b);
  }
};

std::string short_number(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

template <class List, class F>
std::string list_text(const List& items, F&& text) {
  std::string s = "[";
  int n = 0;
  for (const auto& x : items) {
    if (n == 8) return s + ", ...(" + std::to_string(items.size()) + ")]";
    s += (n++ ? ", " : "") + text(x);
  }
  return s + "]";
}

std::string tensor_header(const onnx::TensorProto& t) {
  std::string s = elem_type_to_string(t.data_type()) + "[";
  for (int i = 0; i < t.dims_size(); ++i) s += (i ? "," : "") + std::to_string(t.dims(i));
  return s + "]";
}

// An attribute's value, short: what a diff line shows.
std::string attribute_text(const onnx::AttributeProto& a) {
  auto num = [](auto v) { return short_number(static_cast<double>(v)); };
  auto str = [](const std::string& v) { return quoted_name(v); };
  if (!a.ref_attr_name().empty()) return "@" + a.ref_attr_name();
  switch (a.type()) {
    case onnx::AttributeProto::INT:
      return std::to_string(a.i());
    case onnx::AttributeProto::FLOAT:
      return num(a.f());
    case onnx::AttributeProto::STRING:
      return str(a.s());
    case onnx::AttributeProto::INTS:
      return list_text(a.ints(), num);
    case onnx::AttributeProto::FLOATS:
      return list_text(a.floats(), num);
    case onnx::AttributeProto::STRINGS:
      return list_text(a.strings(), str);
    case onnx::AttributeProto::TENSOR:
      return "tensor " + tensor_header(a.t());
    case onnx::AttributeProto::GRAPH:
      return "graph " + quoted_name(a.g().name());
    case onnx::AttributeProto::GRAPHS:
      return std::to_string(a.graphs_size()) + " graphs";
    case onnx::AttributeProto::TYPE_PROTO:
      return type_to_string(a.tp());
    default:
      return "(" + std::to_string(a.ByteSizeLong()) + " bytes)";
  }
}

bool has_graph(const onnx::AttributeProto& a) {
  return a.has_g() || a.graphs_size() > 0;
}

// Two attributes equal apart from the subgraphs they hold (diffed on their own).
bool same_attribute(const onnx::AttributeProto& x, const onnx::AttributeProto& y) {
  if (!has_graph(x) && !has_graph(y)) return x.SerializeAsString() == y.SerializeAsString();
  onnx::AttributeProto a = x, b = y;
  a.clear_g(), a.clear_graphs(), b.clear_g(), b.clear_graphs();
  return a.SerializeAsString() == b.SerializeAsString() && x.graphs_size() == y.graphs_size() &&
         x.has_g() == y.has_g();
}

WeightDelta weight_delta(const Comparison& c) {
  WeightDelta w;
  w.elements = c.elements;
  w.differing = c.mismatches;
  w.max_abs = c.max_abs_err;
  w.relative_l2 = c.floating ? c.relative_l2() : 0;
  w.cosine = c.floating ? c.cosine() : 1;
  return w;
}

std::string delta_text(const WeightDelta& w) {
  return std::to_string(w.differing) + " of " + std::to_string(w.elements) +
         " elements differ: max abs " + short_number(w.max_abs) + ", relative L2 " +
         short_number(w.relative_l2) + ", cosine " + short_number(w.cosine);
}

class Differ {
 public:
  Differ(const Model& a, const Model& b, const DiffOptions& o, ModelDiff& out)
      : a_(a), b_(b), o_(o), out_(out) {}

  void graph(const onnx::GraphProto& ga, const onnx::GraphProto& gb, const std::string& pa,
             const std::string& pb, Matches m, const std::string& scope) {
    GraphPair p{ga, gb, pa, pb, std::move(m), scope, {}, {}};
    index_initializers(p);
    match_inputs(p);
    match_nodes(p);
    match_outputs(p);
    report_initializers(p);
    report_renames(p);
    report_value_info(p);
  }

  // Compares two tensors (initializers or tensor attributes), appending to details.
  void tensors(const onnx::TensorProto& ta, const onnx::TensorProto& tb, const std::string& what,
               DiffEntry& e) {
    if (ta.data_type() != tb.data_type() || tensor_header(ta) != tensor_header(tb)) {
      e.details.push_back(what + tensor_header(ta) + " -> " + tensor_header(tb));
      return;
    }
    if (o_.ignore_weights) return;
    // Stored bytes first (raw data compared in place, never copied); decoded one pair at a time
    // only when the stored forms differ: external data is mapped, raw data wrapped.
    const bool external = ta.data_location() == onnx::TensorProto::EXTERNAL ||
                          tb.data_location() == onnx::TensorProto::EXTERNAL;
    if (!external && ta.has_raw_data() && tb.has_raw_data() && ta.raw_data() == tb.raw_data())
      return;
    const Tensor x = a_.tensor(ta), y = b_.tensor(tb);
    const Comparison c = compare_values(Value(y), Value(x), Tolerance{0, 0});
    if (c.ok) return;
    e.weights = weight_delta(c);
    e.details.push_back(what + "values: " + delta_text(*e.weights));
  }

 private:
  struct GraphPair {
    const onnx::GraphProto &a, &b;
    std::string pa, pb;
    Matches m;
    std::string scope;
    std::map<std::string, int> init_a, init_b;  // initializer name -> index
  };

  void add(DiffEntry e, const GraphPair& p) {
    e.scope = p.scope;
    out_.entries.push_back(std::move(e));
  }

  static void index_initializers(GraphPair& p) {
    for (int i = 0; i < p.a.initializer_size(); ++i) p.init_a.emplace(p.a.initializer(i).name(), i);
    for (int i = 0; i < p.b.initializer_size(); ++i) p.init_b.emplace(p.b.initializer(i).name(), i);
    for (const auto& [name, i] : p.init_a)
      if (p.init_b.count(name)) p.m.add(name, name);
  }

  // ---- interface ----------------------------------------------------------------------

  void compare_interface(const onnx::ValueInfoProto& va, const onnx::ValueInfoProto& vb,
                         const char* section, const GraphPair& p) {
    const std::string ta = type_to_string(va.type()), tb = type_to_string(vb.type());
    if (ta == tb) return;
    add({section, "changed", quoted_name(va.name()), quoted_name(vb.name()), {ta + " -> " + tb}},
        p);
  }

  void match_inputs(GraphPair& p) {
    std::vector<const onnx::ValueInfoProto*> left_a, left_b;
    std::set<std::string> names_b;
    for (const auto& v : p.b.input())
      if (!p.init_b.count(v.name())) names_b.insert(v.name());
    for (const auto& v : p.a.input()) {
      if (p.init_a.count(v.name())) continue;
      if (names_b.count(v.name()))
        p.m.add(v.name(), v.name());
      else
        left_a.push_back(&v);
    }
    for (const auto& v : p.b.input())
      if (!p.init_b.count(v.name()) && !p.m.taken(v.name())) left_b.push_back(&v);
    const std::size_t paired = std::min(left_a.size(), left_b.size());
    for (std::size_t i = 0; i < paired; ++i) p.m.add(left_a[i]->name(), left_b[i]->name());
    for (std::size_t i = paired; i < left_a.size(); ++i)
      add({"input",
           "removed",
           quoted_name(left_a[i]->name()),
           "",
           {type_to_string(left_a[i]->type())}},
          p);
    for (std::size_t i = paired; i < left_b.size(); ++i)
      add({"input",
           "added",
           "",
           quoted_name(left_b[i]->name()),
           {type_to_string(left_b[i]->type())}},
          p);
    for (const auto& va : p.a.input())
      if (const std::string* nb = p.m.of(va.name()))
        for (const auto& vb : p.b.input())
          if (vb.name() == *nb && !p.init_a.count(va.name())) compare_interface(va, vb, "input", p);
  }

  void match_outputs(GraphPair& p) {
    std::set<std::string> matched_b;
    std::vector<const onnx::ValueInfoProto*> left_a;
    for (const auto& va : p.a.output()) {
      const std::string* nb = p.m.of(va.name());
      const onnx::ValueInfoProto* vb = nullptr;
      for (const auto& x : p.b.output())
        if (nb && x.name() == *nb) vb = &x;
      if (!vb) {
        left_a.push_back(&va);
        continue;
      }
      matched_b.insert(vb->name());
      compare_interface(va, *vb, "output", p);
    }
    for (const auto* va : left_a)
      add({"output", "removed", quoted_name(va->name()), "", {type_to_string(va->type())}}, p);
    for (const auto& vb : p.b.output())
      if (!matched_b.count(vb.name()))
        add({"output", "added", "", quoted_name(vb.name()), {type_to_string(vb.type())}}, p);
  }

  // ---- nodes ---------------------------------------------------------------------------

  static std::map<std::string, int> unique_names(const onnx::GraphProto& g) {
    std::map<std::string, int> at, count;
    for (int i = 0; i < g.node_size(); ++i) {
      const std::string& n = g.node(i).name();
      if (n.empty()) continue;
      at[n] = i;
      ++count[n];
    }
    for (const auto& [n, c] : count)
      if (c > 1) at.erase(n);
    return at;
  }

  static bool same_op(const onnx::NodeProto& x, const onnx::NodeProto& y) {
    return x.op_type() == y.op_type() && x.domain() == y.domain();
  }

  // Input i of x reads what input i of y reads, through the matches (or two initializers, or
  // two values defined outside, not matched yet).
  static bool same_input(const GraphPair& p, const std::string& x, const std::string& y) {
    if (x.empty() || y.empty()) return x.empty() && y.empty();
    if (const std::string* mapped = p.m.of(x)) return *mapped == y;
    if (p.m.taken(y)) return false;
    return p.init_a.count(x) == p.init_b.count(y);
  }

  static bool same_wiring(const GraphPair& p, const onnx::NodeProto& x, const onnx::NodeProto& y) {
    if (!same_op(x, y) || x.input_size() != y.input_size()) return false;
    for (int i = 0; i < x.input_size(); ++i)
      if (!same_input(p, x.input(i), y.input(i))) return false;
    return true;
  }

  // Once two nodes are paired, what they read and write pair up too.
  static void pair_values(GraphPair& p, const onnx::NodeProto& x, const onnx::NodeProto& y) {
    for (int i = 0; i < std::min(x.input_size(), y.input_size()); ++i)
      if (!p.m.of(x.input(i)) && p.init_a.count(x.input(i)) && p.init_b.count(y.input(i)))
        p.m.add(x.input(i), y.input(i));
    for (int i = 0; i < std::min(x.output_size(), y.output_size()); ++i)
      p.m.add(x.output(i), y.output(i));
  }

  void match_nodes(GraphPair& p) {
    const int na = p.a.node_size(), nb = p.b.node_size();
    std::vector<int> pair_of_a(static_cast<std::size_t>(na), -1);
    std::vector<bool> b_paired(static_cast<std::size_t>(nb), false);
    auto pair = [&](int i, int j) {
      pair_of_a[static_cast<std::size_t>(i)] = j;
      b_paired[static_cast<std::size_t>(j)] = true;
    };
    // By name; their outputs pair at once (names are stable across an edit).
    const auto names_b = unique_names(p.b);
    for (const auto& [name, i] : unique_names(p.a))
      if (const auto it = names_b.find(name); it != names_b.end()) {
        pair(i, it->second);
        for (int k = 0; k < std::min(p.a.node(i).output_size(), p.b.node(it->second).output_size());
             ++k)
          p.m.add(p.a.node(i).output(k), p.b.node(it->second).output(k));
      }
    // In A's order by signature, then what is left by position per operator.
    for (int i = 0; i < na; ++i) {
      const auto& x = p.a.node(i);
      int found = pair_of_a[static_cast<std::size_t>(i)];
      for (int j = 0; found < 0 && j < nb; ++j)
        if (!b_paired[static_cast<std::size_t>(j)] && same_wiring(p, x, p.b.node(j))) {
          found = j;
          pair(i, j);
        }
      if (found >= 0) pair_values(p, x, p.b.node(found));
    }
    for (int i = 0; i < na; ++i) {
      if (pair_of_a[static_cast<std::size_t>(i)] >= 0) continue;
      for (int j = 0; j < nb; ++j)
        if (!b_paired[static_cast<std::size_t>(j)] && same_op(p.a.node(i), p.b.node(j))) {
          pair(i, j);
          pair_values(p, p.a.node(i), p.b.node(j));
          break;
        }
    }
    for (int i = 0; i < na; ++i) {
      const int j = pair_of_a[static_cast<std::size_t>(i)];
      if (j < 0)
        add({"node", "removed", node_location(p.pa, i, p.a.node(i)), "", {}}, p);
      else
        compare_nodes(p, i, j);
    }
    for (int j = 0; j < nb; ++j)
      if (!b_paired[static_cast<std::size_t>(j)])
        add({"node", "added", "", node_location(p.pb, j, p.b.node(j)), {}}, p);
  }

  void compare_nodes(GraphPair& p, int i, int j) {
    const auto &x = p.a.node(i), &y = p.b.node(j);
    DiffEntry e{"node", "changed", node_location(p.pa, i, x), node_location(p.pb, j, y)};
    if (!same_op(x, y))
      e.details.push_back("operator " + x.domain() + (x.domain().empty() ? "" : ".") + x.op_type() +
                          " -> " + y.domain() + (y.domain().empty() ? "" : ".") + y.op_type());
    if (x.overload() != y.overload())
      e.details.push_back("overload " + quoted_name(x.overload()) + " -> " +
                          quoted_name(y.overload()));
    compare_wiring(p, x, y, e);
    compare_attributes(p, i, j, e);
    if (x.name() != y.name() && !o_.ignore_names) {
      // A node that changed only its name is a rename, like a value's.
      if (e.details.empty()) e.change = "renamed";
      e.details.push_back("name " + quoted_name(x.name()) + " -> " + quoted_name(y.name()));
    }
    if (!e.details.empty()) add(std::move(e), p);
  }

  void compare_wiring(const GraphPair& p, const onnx::NodeProto& x, const onnx::NodeProto& y,
                      DiffEntry& e) {
    for (int k = 0; k < std::max(x.input_size(), y.input_size()); ++k) {
      const std::string xi = k < x.input_size() ? x.input(k) : "";
      const std::string yi = k < y.input_size() ? y.input(k) : "";
      const std::string* mapped = p.m.of(xi);
      if ((mapped && *mapped == yi) || (xi.empty() && yi.empty())) continue;
      if (!mapped && xi == yi && !p.m.taken(yi)) continue;  // an outer value, unmatched here
      e.details.push_back("input " + std::to_string(k) + ": " +
                          (yi.empty() ? std::string("none") : quoted_name(yi)) + " (was " +
                          (xi.empty() ? std::string("none") : quoted_name(xi)) + ")");
    }
    if (x.output_size() != y.output_size())
      e.details.push_back("outputs " + std::to_string(x.output_size()) + " -> " +
                          std::to_string(y.output_size()));
  }

  void compare_attributes(const GraphPair& p, int i, int j, DiffEntry& e) {
    const auto &x = p.a.node(i), &y = p.b.node(j);
    std::map<std::string, const onnx::AttributeProto*> ax, ay;
    for (const auto& a : x.attribute()) ax[a.name()] = &a;
    for (const auto& a : y.attribute()) ay[a.name()] = &a;
    for (const auto& [name, a] : ax) {
      const auto it = ay.find(name);
      if (it == ay.end()) {
        e.details.push_back("attribute " + name + " removed (was " + attribute_text(*a) + ")");
        continue;
      }
      const onnx::AttributeProto& b = *it->second;
      if (a->type() == onnx::AttributeProto::TENSOR && b.type() == onnx::AttributeProto::TENSOR)
        tensors(a->t(), b.t(), "attribute " + name + ": ", e);
      else if (!same_attribute(*a, b))
        e.details.push_back("attribute " + name + ": " + attribute_text(*a) + " -> " +
                            attribute_text(b));
      subgraphs(p, node_location(p.pa, i, x), node_location(p.pb, j, y), *a, b);
    }
    for (const auto& [name, b] : ay)
      if (!ax.count(name))
        e.details.push_back("attribute " + name + " added: " + attribute_text(*b));
  }

  void subgraphs(const GraphPair& p, const std::string& loc_a, const std::string& loc_b,
                 const onnx::AttributeProto& a, const onnx::AttributeProto& b) {
    if (a.has_g() && b.has_g())
      graph(a.g(), b.g(), subgraph_prefix(loc_a, a.name()), subgraph_prefix(loc_b, b.name()), p.m,
            subgraph_prefix(loc_a, a.name()));
    for (int k = 0; k < std::min(a.graphs_size(), b.graphs_size()); ++k)
      graph(a.graphs(k), b.graphs(k), subgraph_prefix(loc_a, a.name(), k),
            subgraph_prefix(loc_b, b.name(), k), p.m, subgraph_prefix(loc_a, a.name(), k));
  }

  // ---- values --------------------------------------------------------------------------

  // Initializers no node pairing reached (read by nothing, or by nodes that did not pair) match
  // when their stored contents are the same: a rename. Up to 16 MiB each (their stored form is
  // the key; larger ones left over are reported as removed and added).
  static void pair_identical_initializers(GraphPair& p) {
    constexpr std::size_t kMaxKeyBytes = 16u << 20;
    std::multimap<std::string, std::string> unmatched_b;  // contents without the name -> name
    auto contents = [](const onnx::TensorProto& stored) -> std::optional<std::string> {
      if (stored.ByteSizeLong() > kMaxKeyBytes) return std::nullopt;
      onnx::TensorProto t = stored;
      t.clear_name();
      return t.SerializeAsString();
    };
    for (const auto& [name, j] : p.init_b)
      if (!p.m.taken(name))
        if (auto key = contents(p.b.initializer(j))) unmatched_b.emplace(std::move(*key), name);
    for (const auto& [name, i] : p.init_a) {
      if (p.m.of(name)) continue;
      const auto key = contents(p.a.initializer(i));
      if (!key) continue;
      const auto it = unmatched_b.find(*key);
      if (it == unmatched_b.end()) continue;
      p.m.add(name, it->second);
      unmatched_b.erase(it);
    }
  }

  void report_initializers(GraphPair& p) {
    pair_identical_initializers(p);
    std::set<std::string> matched_b;
    for (const auto& [name, i] : p.init_a) {
      const std::string* nb = p.m.of(name);
      const auto it = nb ? p.init_b.find(*nb) : p.init_b.end();
      const onnx::TensorProto& ta = p.a.initializer(i);
      if (it == p.init_b.end()) {
        add({"initializer", "removed", quoted_name(name), "", {tensor_header(ta)}}, p);
        continue;
      }
      matched_b.insert(it->first);
      DiffEntry e{"initializer", "changed", quoted_name(name), quoted_name(it->first)};
      tensors(ta, p.b.initializer(it->second), "", e);
      if (!e.details.empty()) add(std::move(e), p);
    }
    for (const auto& [name, j] : p.init_b)
      if (!matched_b.count(name))
        add({"initializer", "added", "", quoted_name(name), {tensor_header(p.b.initializer(j))}},
            p);
  }

  void report_renames(const GraphPair& p) {
    if (o_.ignore_names) return;
    std::vector<std::pair<std::string, std::string>> renamed;
    for (const auto& [a, b] : p.m.a2b)
      if (a != b && defined_here(p, a)) renamed.emplace_back(a, b);
    std::sort(renamed.begin(), renamed.end());
    for (const auto& [a, b] : renamed)
      add({"value", "renamed", quoted_name(a), quoted_name(b), {}}, p);
  }

  // Renames are reported in the graph that defines the value, not again in its subgraphs.
  static bool defined_here(const GraphPair& p, const std::string& name) {
    if (p.init_a.count(name)) return true;
    for (const auto& v : p.a.input())
      if (v.name() == name) return true;
    for (const auto& n : p.a.node())
      for (const auto& o : n.output())
        if (o == name) return true;
    return false;
  }

  void report_value_info(const GraphPair& p) {
    std::map<std::string, const onnx::ValueInfoProto*> vb;
    for (const auto& v : p.b.value_info()) vb[v.name()] = &v;
    for (const auto& va : p.a.value_info()) {
      const std::string* nb = p.m.of(va.name());
      const auto it = nb ? vb.find(*nb) : vb.end();
      if (it == vb.end()) continue;
      const std::string ta = type_to_string(va.type()), tb = type_to_string(it->second->type());
      if (ta != tb)
        add({"value_info", "changed", quoted_name(va.name()), quoted_name(*nb), {ta + " -> " + tb}},
            p);
    }
  }

  const Model &a_, &b_;
  const DiffOptions& o_;
  ModelDiff& out_;
};

// ---- model level ---------------------------------------------------------------------------

void header(const onnx::ModelProto& a, const onnx::ModelProto& b, const DiffOptions& o,
            ModelDiff& d) {
  auto field = [&](const char* name, const std::string& x, const std::string& y) {
    if (x != y)
      d.entries.push_back(
          {"header", "changed", name, name, {quoted_name(x) + " -> " + quoted_name(y)}});
  };
  field("ir_version", std::to_string(a.ir_version()), std::to_string(b.ir_version()));
  field("producer_name", a.producer_name(), b.producer_name());
  field("producer_version", a.producer_version(), b.producer_version());
  field("domain", a.domain(), b.domain());
  field("model_version", std::to_string(a.model_version()), std::to_string(b.model_version()));
  field("doc_string", a.doc_string(), b.doc_string());
  if (!o.ignore_names) field("graph name", a.graph().name(), b.graph().name());
  std::map<std::string, std::string> ma, mb;
  for (const auto& p : a.metadata_props()) ma[p.key()] = p.value();
  for (const auto& p : b.metadata_props()) mb[p.key()] = p.value();
  for (const auto& [k, v] : ma)
    field(("metadata " + quoted_name(k)).c_str(), v, mb.count(k) ? mb[k] : "(none)");
  for (const auto& [k, v] : mb)
    if (!ma.count(k)) field(("metadata " + quoted_name(k)).c_str(), "(none)", v);
}

void opsets(const onnx::ModelProto& a, const onnx::ModelProto& b, ModelDiff& d) {
  auto domain_name = [](const std::string& s) { return s.empty() ? std::string("ai.onnx") : s; };
  std::map<std::string, int64_t> va, vb;
  for (const auto& o : a.opset_import()) va[domain_name(o.domain())] = o.version();
  for (const auto& o : b.opset_import()) vb[domain_name(o.domain())] = o.version();
  for (const auto& [dom, v] : va) {
    const auto it = vb.find(dom);
    if (it == vb.end())
      d.entries.push_back({"opset", "removed", dom, "", {std::to_string(v)}});
    else if (it->second != v)
      d.entries.push_back({"opset",
                           "changed",
                           dom,
                           dom,
                           {std::to_string(v) + " -> " + std::to_string(it->second)}});
  }
  for (const auto& [dom, v] : vb)
    if (!va.count(dom)) d.entries.push_back({"opset", "added", "", dom, {std::to_string(v)}});
}

void functions(const onnx::ModelProto& a, const onnx::ModelProto& b, ModelDiff& d) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, int> fa, fb;
  for (int i = 0; i < a.functions_size(); ++i)
    fa[{a.functions(i).domain(), a.functions(i).name(), a.functions(i).overload()}] = i;
  for (int i = 0; i < b.functions_size(); ++i)
    fb[{b.functions(i).domain(), b.functions(i).name(), b.functions(i).overload()}] = i;
  for (const auto& [k, i] : fa) {
    const auto it = fb.find(k);
    const std::string la = function_location(i, a.functions(i));
    if (it == fb.end()) {
      d.entries.push_back({"function", "removed", la, "", {}});
      continue;
    }
    const auto &x = a.functions(i), &y = b.functions(it->second);
    if (x.SerializeAsString() == y.SerializeAsString()) continue;
    DiffEntry e{"function", "changed", la, function_location(it->second, y)};
    if (x.node_size() != y.node_size())
      e.details.push_back(std::to_string(x.node_size()) + " nodes -> " +
                          std::to_string(y.node_size()));
    else
      e.details.push_back("its body differs");
    d.entries.push_back(std::move(e));
  }
  for (const auto& [k, j] : fb)
    if (!fa.count(k))
      d.entries.push_back({"function", "added", "", function_location(j, b.functions(j)), {}});
}

}  // namespace

ModelDiff diff_models(const Model& a, const Model& b, const DiffOptions& options) {
  ModelDiff d;
  header(*a.proto, *b.proto, options, d);
  opsets(*a.proto, *b.proto, d);
  Differ(a, b, options, d)
      .graph(a.proto->graph(), b.proto->graph(), kMainGraphPrefix, kMainGraphPrefix, {}, "");
  functions(*a.proto, *b.proto, d);
  return d;
}

}  // namespace onnxtool
