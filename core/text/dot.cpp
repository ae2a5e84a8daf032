// SPDX-License-Identifier: Apache-2.0
#include "core/text/dot.h"

#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "onnx.pb.h"

namespace onnxtool::text {

namespace {

// A DOT quoted string: backslash and quote escaped, newlines as \n (which DOT centres).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (c == '\n')
      out += "\\n";
    else if (c != '\r')
      out += c;
  }
  return out + '"';
}

std::string dims_text(const onnx::TensorProto& t) {
  std::string s = "[";
  for (int i = 0; i < t.dims_size(); ++i) s += (i ? "," : "") + std::to_string(t.dims(i));
  return s + "]";
}

// Long names (exporters make /model/layers.11/attention/Add_3_output_0) are cut in the middle.
std::string shortened(const std::string& name, std::size_t limit = 48) {
  if (name.size() <= limit) return name;
  return name.substr(0, limit / 2 - 1) + "..." + name.substr(name.size() - (limit / 2 - 2));
}

struct Scope {
  const Scope* parent = nullptr;
  std::map<std::string, std::string> producer;  // value name -> DOT node id
  std::set<std::string> initializers;
  const std::string* find(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent) {
      auto it = s->producer.find(name);
      if (it != s->producer.end()) return &it->second;
    }
    return nullptr;
  }
  bool is_initializer(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent)
      if (s->initializers.count(name)) return true;
    return false;
  }
};

class DotWriter {
 public:
  explicit DotWriter(const DotTypeOf& type_of) : type_of_(type_of) {}

  std::string write(const onnx::ModelProto& model) {
    out_ << "digraph " << quoted(model.graph().name().empty() ? "model" : model.graph().name())
         << " {\n"
         << "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, compound=true];\n"
         << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef2f8\", "
            "fontname=\"Helvetica\", fontsize=10];\n"
         << "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n";
    Scope root;
    write_graph(model.graph(), root, "  ", "g0");
    out_ << "}\n";
    return out_.str();
  }

 private:
  std::string edge_label(const onnx::GraphProto& g, const std::string& value) {
    const std::string type = type_of_(g, value);
    return shortened(value) + (type.empty() ? "" : "\n" + type);
  }

  // Graph inputs that are not initializers, as ellipses; initializers are remembered, not drawn.
  void write_inputs(const onnx::GraphProto& g, Scope& scope, const std::string& indent,
                    const std::string& id) {
    for (const auto& t : g.initializer()) scope.initializers.insert(t.name());
    for (const auto& t : g.sparse_initializer()) scope.initializers.insert(t.values().name());
    for (int i = 0; i < g.input_size(); ++i) {
      const auto& v = g.input(i);
      if (scope.initializers.count(v.name())) continue;
      const std::string node = id + "_in" + std::to_string(i);
      const std::string type = type_of_(g, v.name());
      out_ << indent << node << " [shape=ellipse, fillcolor=\"#dff3df\", label="
           << quoted(shortened(v.name()) + (type.empty() ? "" : "\n" + type)) << "];\n";
      scope.producer[v.name()] = node;
    }
  }

  // "W float[64,3,7,7]" lines for the initializers a node reads.
  std::string weight_lines(const onnx::GraphProto& g, const onnx::NodeProto& n,
                           const Scope& scope) {
    std::map<std::string, const onnx::TensorProto*> dense;
    for (const auto& t : g.initializer()) dense[t.name()] = &t;
    std::string lines;
    for (const auto& in : n.input()) {
      if (in.empty() || !scope.is_initializer(in) || scope.find(in)) continue;
      auto it = dense.find(in);
      std::string what = it != dense.end() ? dims_text(*it->second) : type_of_(g, in);
      lines += "\n" + shortened(in, 32) + " " + what;
    }
    return lines;
  }

  void write_node(const onnx::GraphProto& g, const onnx::NodeProto& n, Scope& scope,
                  const std::string& indent, const std::string& node_id) {
    std::string label = n.op_type();
    if (!n.domain().empty() && n.domain() != "ai.onnx") label = n.domain() + "." + label;
    if (!n.name().empty()) label += "\n" + shortened(n.name());
    label += weight_lines(g, n, scope);
    out_ << indent << node_id << " [label=" << quoted(label) << "];\n";
    // Edges from the values it reads; an initializer shows in the label instead.
    for (const auto& in : n.input()) {
      if (in.empty()) continue;
      const std::string* from = scope.find(in);
      if (!from) continue;
      const bool outer = !scope.producer.count(in);
      edges_ << "  " << *from << " -> " << node_id << " [label=" << quoted(edge_label(g, in))
             << (outer ? ", style=dashed" : "") << "];\n";
    }
    // Subgraphs, each a cluster whose outputs flow into this node.
    for (const auto& a : n.attribute()) {
      if (a.has_g()) write_subgraph(a.g(), a.name(), scope, indent, node_id);
      for (int k = 0; k < a.graphs_size(); ++k)
        write_subgraph(a.graphs(k), a.name() + "[" + std::to_string(k) + "]", scope, indent,
                       node_id);
    }
    for (const auto& o : n.output())
      if (!o.empty()) scope.producer[o] = node_id;
  }

  void write_subgraph(const onnx::GraphProto& g, const std::string& attr, const Scope& outer,
                      const std::string& indent, const std::string& owner) {
    const std::string id = "g" + std::to_string(++clusters_);
    out_ << indent << "subgraph cluster_" << id << " {\n"
         << indent << "  label=" << quoted(attr)
         << "; style=\"rounded,dashed\"; color=\"#8899aa\";\n";
    Scope scope;
    scope.parent = &outer;
    write_graph(g, scope, indent + "  ", id);
    out_ << indent << "}\n";
    for (int i = 0; i < g.output_size(); ++i)
      edges_ << "  " << id << "_out" << i << " -> " << owner
             << " [style=dotted, label=" << quoted(attr) << "];\n";
  }

  void write_graph(const onnx::GraphProto& g, Scope& scope, const std::string& indent,
                   const std::string& id) {
    write_inputs(g, scope, indent, id);
    for (int i = 0; i < g.node_size(); ++i)
      write_node(g, g.node(i), scope, indent, id + "_n" + std::to_string(i));
    for (int i = 0; i < g.output_size(); ++i) {
      const auto& v = g.output(i);
      const std::string node = id + "_out" + std::to_string(i);
      out_ << indent << node
           << " [shape=ellipse, fillcolor=\"#f8e6d0\", label=" << quoted(shortened(v.name()))
           << "];\n";
      if (const std::string* from = scope.find(v.name()))
        edges_ << "  " << *from << " -> " << node << " [label=" << quoted(edge_label(g, v.name()))
               << "];\n";
    }
    if (id == "g0") out_ << edges_.str();
  }

  const DotTypeOf& type_of_;
  std::ostringstream out_, edges_;
  int clusters_ = 0;
};

}  // namespace

std::string model_to_dot(const onnx::ModelProto& model, const DotTypeOf& type_of) {
  return DotWriter(type_of).write(model);
}

}  // namespace onnxtool::text
