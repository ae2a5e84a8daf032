// SPDX-License-Identifier: Apache-2.0
#include "core/ir/order.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/location.h"
#include "onnx.pb.h"

namespace onnxtool {

using NodeList = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

namespace {

// Every node left after Kahn's algorithm waits on another node left, so walking from one to a
// waiting dependency must come back to a node already seen; the walk from there is a cycle.
std::vector<int> find_cycle(const std::vector<std::vector<int>>& dependencies,
                            const std::vector<int>& waiting) {
  int start = 0;
  while (waiting[static_cast<std::size_t>(start)] == 0) ++start;
  std::vector<int> walk;
  std::unordered_map<int, std::size_t> seen_at;
  int at = start;
  while (!seen_at.count(at)) {
    seen_at[at] = walk.size();
    walk.push_back(at);
    for (int d : dependencies[static_cast<std::size_t>(at)])
      if (waiting[static_cast<std::size_t>(d)] > 0) {
        at = d;
        break;
      }
  }
  std::vector<int> loop(walk.begin() + static_cast<std::ptrdiff_t>(seen_at[at]), walk.end());
  std::reverse(loop.begin(), loop.end());  // producers first
  return loop;
}

// The subgraphs held by a node's attributes.
template <class F>
void for_each_subgraph(const onnx::NodeProto& node, F&& f) {
  for (const auto& a : node.attribute()) {
    if (a.has_g()) f(a.g());
    for (const auto& g : a.graphs()) f(g);
  }
}

// What a node reads: its inputs, then what its subgraphs capture.
std::vector<std::string> names_read(const onnx::NodeProto& node) {
  std::vector<std::string> names(node.input().begin(), node.input().end());
  for_each_subgraph(node, [&](const onnx::GraphProto& g) {
    for (auto& name : captured_names(g)) names.push_back(std::move(name));
  });
  return names;
}

}  // namespace

DependencyOrder order_by_dependencies(const std::vector<std::vector<int>>& dependencies) {
  const std::size_t count = dependencies.size();
  std::vector<std::vector<int>> dependents(count);
  std::vector<int> waiting(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    std::vector<int> deps = dependencies[i];
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    for (int d : deps) {
      dependents[static_cast<std::size_t>(d)].push_back(static_cast<int>(i));
      ++waiting[i];
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (std::size_t i = 0; i < count; ++i)
    if (waiting[i] == 0) ready.push(static_cast<int>(i));
  DependencyOrder out;
  out.order.reserve(count);
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    out.order.push_back(i);
    for (int d : dependents[static_cast<std::size_t>(i)])
      if (--waiting[static_cast<std::size_t>(d)] == 0) ready.push(d);
  }
  if (out.order.size() == count) return out;
  out.order.clear();
  out.cycle = find_cycle(dependencies, waiting);
  return out;
}

std::vector<std::string> captured_names(const onnx::GraphProto& graph) {
  std::unordered_set<std::string> defined;
  for (const auto& v : graph.input()) defined.insert(v.name());
  for (const auto& t : graph.initializer()) defined.insert(t.name());
  for (const auto& s : graph.sparse_initializer()) defined.insert(s.values().name());
  for (const auto& n : graph.node())
    for (const auto& o : n.output()) defined.insert(o);
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto consider = [&](const std::string& name) {
    if (!name.empty() && !defined.count(name) && seen.insert(name).second) out.push_back(name);
  };
  for (const auto& n : graph.node())
    for (const auto& name : names_read(n)) consider(name);
  for (const auto& v : graph.output()) consider(v.name());
  return out;
}

std::vector<std::vector<int>> node_dependencies(const NodeList& nodes) {
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < nodes.size(); ++i)
    for (const auto& o : nodes.Get(i).output())
      if (!o.empty()) producer.emplace(o, i);
  std::vector<std::vector<int>> deps(static_cast<std::size_t>(nodes.size()));
  for (int i = 0; i < nodes.size(); ++i)
    for (const auto& name : names_read(nodes.Get(i))) {
      auto p = producer.find(name);
      if (p != producer.end()) deps[static_cast<std::size_t>(i)].push_back(p->second);
    }
  return deps;
}

DependencyOrder node_order(const NodeList& nodes) {
  return order_by_dependencies(node_dependencies(nodes));
}

std::vector<int> order_or_stored(const NodeList& nodes) {
  DependencyOrder d = node_order(nodes);
  if (d.sorted()) return std::move(d.order);
  std::vector<int> stored(static_cast<std::size_t>(nodes.size()));
  std::iota(stored.begin(), stored.end(), 0);
  return stored;
}

int late_count(const std::vector<std::vector<int>>& dependencies, int* first) {
  int late = 0;
  for (std::size_t i = 0; i < dependencies.size(); ++i) {
    const auto& deps = dependencies[i];
    const bool is_late =
        std::any_of(deps.begin(), deps.end(), [&](int d) { return d >= static_cast<int>(i); });
    if (is_late && late++ == 0 && first) *first = static_cast<int>(i);
  }
  return late;
}

namespace {

// Puts element order[k] of `nodes` at place k for every k, by swaps (no message is copied).
void permute(NodeList& nodes, const std::vector<int>& order) {
  const std::size_t n = order.size();
  std::vector<int> at(n), where(n);  // at[place] = original index; where[original] = place
  for (std::size_t i = 0; i < n; ++i) at[i] = where[i] = static_cast<int>(i);
  for (std::size_t k = 0; k < n; ++k) {
    const int p = where[static_cast<std::size_t>(order[k])];
    if (p == static_cast<int>(k)) continue;
    nodes.SwapElements(static_cast<int>(k), p);
    std::swap(at[k], at[static_cast<std::size_t>(p)]);
    where[static_cast<std::size_t>(at[k])] = static_cast<int>(k);
    where[static_cast<std::size_t>(at[static_cast<std::size_t>(p)])] = p;
  }
}

void sort_list(NodeList& nodes, const std::string& prefix, NodeSortReport& report);

void sort_subgraphs(onnx::NodeProto& node, const std::string& node_loc, NodeSortReport& report) {
  for (auto& a : *node.mutable_attribute()) {
    if (a.has_g())
      sort_list(*a.mutable_g()->mutable_node(), subgraph_prefix(node_loc, a.name()), report);
    for (int k = 0; k < a.graphs_size(); ++k)
      sort_list(*a.mutable_graphs(k)->mutable_node(), subgraph_prefix(node_loc, a.name(), k),
                report);
  }
}

// Sorts one list, then the subgraphs of its nodes (named by their places after sorting).
void sort_list(NodeList& nodes, const std::string& prefix, NodeSortReport& report) {
  const auto deps = node_dependencies(nodes);
  int first = -1;
  const int late = late_count(deps, &first);
  if (late > 0) {
    if (report.late_readers == 0)
      report.first_late = node_location(prefix, first, nodes.Get(first));
    report.late_readers += late;
    const DependencyOrder order = order_by_dependencies(deps);
    if (order.sorted()) {
      permute(nodes, order.order);
      ++report.graphs_reordered;
    } else {
      report.cycles.push_back(describe_cycle(prefix, nodes, order.cycle));
    }
  }
  for (int i = 0; i < nodes.size(); ++i)
    sort_subgraphs(*nodes.Mutable(i), node_location(prefix, i, nodes.Get(i)), report);
}

}  // namespace

int late_readers(const NodeList& nodes) {
  return late_count(node_dependencies(nodes));
}

NodeSortReport sort_model_nodes(onnx::ModelProto& model) {
  NodeSortReport report;
  if (model.has_graph())
    sort_list(*model.mutable_graph()->mutable_node(), kMainGraphPrefix, report);
  for (int i = 0; i < model.training_info_size(); ++i) {
    auto& t = *model.mutable_training_info(i);
    const std::string base = "training_info[" + std::to_string(i) + "].";
    if (t.has_initialization())
      sort_list(*t.mutable_initialization()->mutable_node(), base + "initialization.", report);
    if (t.has_algorithm())
      sort_list(*t.mutable_algorithm()->mutable_node(), base + "algorithm.", report);
  }
  for (int i = 0; i < model.functions_size(); ++i) {
    auto& fn = *model.mutable_functions(i);
    sort_list(*fn.mutable_node(), function_location(i, fn) + ": ", report);
  }
  return report;
}

std::string cycle_path(const std::vector<std::string>& locations) {
  std::string s;
  for (const auto& at : locations) s += at + " -> ";
  return locations.empty() ? s : s + locations.front();
}

std::string describe_cycle(const std::string& prefix, const NodeList& nodes,
                           const std::vector<int>& cycle) {
  std::vector<std::string> locations;
  for (int i : cycle) locations.push_back(node_location(prefix, i, nodes.Get(i)));
  return cycle_path(locations);
}

}  // namespace onnxtool
