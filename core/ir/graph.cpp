// SPDX-License-Identifier: Apache-2.0
#include "core/ir/graph.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "core/ir/location.h"
#include "core/ir/order.h"

namespace onnxtool::ir {

namespace {

const std::vector<Use> kNoUses;

// The names a proto graph (and its subgraphs) uses, for graphs kept as protos (training graphs)
// so that fresh names stay clear of them too.
void reserve_node_names(const onnx::NodeProto& node, NameTable& names);

void reserve_graph_names(const onnx::GraphProto& g, NameTable& names) {
  names.reserve(g.name());
  for (const auto& v : g.input()) names.reserve(v.name());
  for (const auto& v : g.output()) names.reserve(v.name());
  for (const auto& v : g.value_info()) names.reserve(v.name());
  for (const auto& t : g.initializer()) names.reserve(t.name());
  for (const auto& s : g.sparse_initializer()) names.reserve(s.values().name());
  for (const auto& n : g.node()) reserve_node_names(n, names);
}

void reserve_node_names(const onnx::NodeProto& node, NameTable& names) {
  names.reserve(node.name());
  for (const auto& s : node.input()) names.reserve(s);
  for (const auto& s : node.output()) names.reserve(s);
  for (const auto& a : node.attribute()) {
    if (a.has_g()) reserve_graph_names(a.g(), names);
    for (const auto& g : a.graphs()) reserve_graph_names(g, names);
  }
}

void reserve_function_names(const onnx::FunctionProto& f, NameTable& names) {
  names.reserve(f.name());
  for (const auto& s : f.input()) names.reserve(s);
  for (const auto& s : f.output()) names.reserve(s);
  for (const auto& v : f.value_info()) names.reserve(v.name());
  for (const auto& n : f.node()) reserve_node_names(n, names);
}

Diagnostic problem(std::string rule, std::string location, std::string message) {
  Diagnostic d;
  d.severity = Severity::error;
  d.rule = std::move(rule);
  d.location = std::move(location);
  d.message = std::move(message);
  return d;
}

// The parts of a stored graph and model a view keeps as they are: everything but what it
// decomposes (nodes, weights, interface). Written field by field rather than through
// reflection, which would build protobuf's descriptors on the executor's load path; a test
// holds these against the fields onnx.proto has (test_ir_graph.cpp).
void copy_graph_shell(const onnx::GraphProto& src, onnx::GraphProto& dst) {
  if (src.has_name()) dst.set_name(src.name());
  if (src.has_doc_string()) dst.set_doc_string(src.doc_string());
  *dst.mutable_quantization_annotation() = src.quantization_annotation();
  *dst.mutable_metadata_props() = src.metadata_props();
  dst.mutable_unknown_fields()->MergeFrom(src.unknown_fields());
}

void copy_model_header(const onnx::ModelProto& src, onnx::ModelProto& dst) {
  if (src.has_ir_version()) dst.set_ir_version(src.ir_version());
  *dst.mutable_opset_import() = src.opset_import();
  if (src.has_producer_name()) dst.set_producer_name(src.producer_name());
  if (src.has_producer_version()) dst.set_producer_version(src.producer_version());
  if (src.has_domain()) dst.set_domain(src.domain());
  if (src.has_model_version()) dst.set_model_version(src.model_version());
  if (src.has_doc_string()) dst.set_doc_string(src.doc_string());
  *dst.mutable_metadata_props() = src.metadata_props();
  *dst.mutable_training_info() = src.training_info();
  *dst.mutable_functions() = src.functions();
  *dst.mutable_configuration() = src.configuration();
  dst.mutable_unknown_fields()->MergeFrom(src.unknown_fields());
}

// Moves every element out of a repeated proto field into a vector.
template <class T>
std::vector<T> take_all(google::protobuf::RepeatedPtrField<T>& field) {
  std::vector<T> out;
  out.reserve(field.size());
  for (auto& item : field) out.push_back(std::move(item));
  field.Clear();
  return out;
}

}  // namespace

// ---- NameTable ---------------------------------------------------------------------------

void NameTable::reserve(const std::string& name) {
  if (!name.empty()) used_.insert(name);
}

std::string NameTable::fresh(const std::string& base_in) {
  const std::string base = base_in.empty() ? "tmp" : base_in;
  if (!contains(base)) {
    reserve(base);
    return base;
  }
  // Remembering where the last search for this base ended keeps repeated requests linear.
  int& k = next_suffix_[base];
  if (k == 0) k = 1;
  for (;; ++k) {
    std::string candidate = base + "_" + std::to_string(k);
    if (!contains(candidate)) {
      ++k;
      reserve(candidate);
      return candidate;
    }
  }
}

// ---- Node --------------------------------------------------------------------------------

Node::~Node() = default;

onnx::NodeProto& Node::mutable_proto() {
  detach_origin();
  return *proto_;
}

void Node::detach_origin() {
  if (!origin_) return;
  auto copy = std::make_shared<onnx::NodeProto>(*proto_);
  copy->clear_input();
  copy->clear_output();
  for (const auto& sub : owned_subgraphs_) {
    auto* a = copy->mutable_attribute(sub.attribute_index);
    a->clear_g();
    a->clear_graphs();
  }
  proto_ = std::move(copy);
  origin_ = nullptr;
}

Status Node::set_attribute_tensor(const std::string& attribute, Tensor value) {
  if (!value.defined()) return Status::failure("the tensor has no element type");
  detach_origin();
  const auto& attrs = proto_->attribute();
  const bool present =
      std::any_of(attrs.begin(), attrs.end(), [&](const auto& a) { return a.name() == attribute; });
  if (!present) {
    auto* a = proto_->add_attribute();
    a->set_name(attribute);
    a->set_type(onnx::AttributeProto::TENSOR);
  }
  tensor_attributes_[attribute] = std::move(value);
  return Status::success();
}

std::optional<Tensor> Node::attribute_tensor(const std::string& attribute,
                                             const TensorSource& source) const {
  if (auto it = tensor_attributes_.find(attribute); it != tensor_attributes_.end())
    return it->second;
  for (const auto& a : proto_->attribute()) {
    if (a.name() != attribute || !a.has_t()) continue;
    TensorSource s = source;
    if (!s.owner) s.owner = proto_;  // raw_data is viewed in place while the tensor lives
    return tensor_from_proto(a.t(), s);
  }
  return std::nullopt;
}

void Node::to_proto(onnx::NodeProto& out) const {
  out = *proto_;
  out.clear_input();
  out.clear_output();
  for (const auto& sub : owned_subgraphs_) {
    auto* a = out.mutable_attribute(sub.attribute_index);
    a->clear_g();
    a->clear_graphs();
  }
  for (const auto& s : inputs_) out.add_input(s);
  for (const auto& s : outputs_) out.add_output(s);
  for (const auto& [name, tensor] : tensor_attributes_) {
    for (auto& a : *out.mutable_attribute()) {
      if (a.name() != name) continue;
      tensor_to_proto(tensor, *a.mutable_t());
      break;
    }
  }
  for (const auto& sub : owned_subgraphs_) {
    auto* a = out.mutable_attribute(sub.attribute_index);
    sub.graph->to_proto(sub.list_index < 0 ? *a->mutable_g() : *a->add_graphs());
  }
}

// ---- Graph: construction and output ------------------------------------------------------

Graph::Graph(Private, Graph* parent, Node* owner, std::shared_ptr<Shared> shared)
    : parent_(parent), owner_(owner), shared_(std::move(shared)) {}

Graph::~Graph() = default;

std::unique_ptr<Graph> Graph::from_proto(onnx::GraphProto proto) {
  auto g = build(std::move(proto), nullptr, nullptr, std::make_shared<Shared>(), kMainGraphPrefix);
  g->reserve_names();
  g->report_undefined(kMainGraphPrefix);
  return g;
}

std::unique_ptr<Graph> Graph::view(const onnx::GraphProto& proto,
                                   std::shared_ptr<const void> keep_alive) {
  auto g =
      build_view(proto, nullptr, nullptr, std::make_shared<Shared>(), kMainGraphPrefix, keep_alive);
  g->reserve_names();
  return g;
}

std::unique_ptr<Graph> Graph::build(onnx::GraphProto proto, Graph* parent, Node* owner,
                                    std::shared_ptr<Shared> shared, const std::string& prefix) {
  auto g = std::make_unique<Graph>(Private{}, parent, owner, std::move(shared));
  g->inputs_ = take_all(*proto.mutable_input());
  g->outputs_ = take_all(*proto.mutable_output());
  g->value_info_ = take_all(*proto.mutable_value_info());
  g->sparse_ = take_all(*proto.mutable_sparse_initializer());
  for (auto& t : *proto.mutable_initializer()) {
    Initializer init;
    init.name = t.name();
    init.proto = std::make_shared<const onnx::TensorProto>(std::move(t));
    g->initializers_.push_back(std::move(init));
  }
  proto.clear_initializer();
  for (int i = 0; i < proto.node_size(); ++i) {
    auto node = g->make_node(std::move(*proto.mutable_node(i)),
                             [&](const onnx::NodeProto& n) { return node_location(prefix, i, n); });
    node->stored_index_ = i;
    auto it = g->nodes_.insert(g->nodes_.end(), std::move(node));
    (*it)->position_ = it;
  }
  proto.clear_node();
  g->shell_ = std::move(proto);
  g->finish_build(prefix);
  return g;
}

std::unique_ptr<Graph> Graph::build_view(const onnx::GraphProto& proto, Graph* parent, Node* owner,
                                         std::shared_ptr<Shared> shared, const std::string& prefix,
                                         const std::shared_ptr<const void>& keep_alive) {
  auto g = std::make_unique<Graph>(Private{}, parent, owner, std::move(shared));
  g->origin_ = &proto;
  g->inputs_.assign(proto.input().begin(), proto.input().end());
  g->outputs_.assign(proto.output().begin(), proto.output().end());
  g->value_info_.assign(proto.value_info().begin(), proto.value_info().end());
  g->sparse_.assign(proto.sparse_initializer().begin(), proto.sparse_initializer().end());
  for (const auto& t : proto.initializer()) {
    Initializer init;
    init.name = t.name();
    // Shares ownership with keep_alive (when given) and points into the stored graph.
    init.proto = std::shared_ptr<const onnx::TensorProto>(keep_alive, &t);
    g->initializers_.push_back(std::move(init));
  }
  for (int i = 0; i < proto.node_size(); ++i) {
    auto node = g->view_node(
        proto.node(i), [&](const onnx::NodeProto& n) { return node_location(prefix, i, n); },
        keep_alive);
    node->stored_index_ = i;
    auto it = g->nodes_.insert(g->nodes_.end(), std::move(node));
    (*it)->position_ = it;
  }
  copy_graph_shell(proto, g->shell_);
  g->finish_build(prefix);
  return g;
}

void Graph::finish_build(const std::string& prefix) {
  rebuild_index();
  auto& problems = shared_->problems;
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    if (inputs_[i].name().empty())
      problems.push_back(problem("ir.missing-name", item_location(prefix, "input", int(i), ""),
                                 "a graph input has no name"));
  for (std::size_t i = 0; i < initializers_.size(); ++i)
    if (initializers_[i].name.empty())
      problems.push_back(problem("ir.missing-name",
                                 item_location(prefix, "initializer", int(i), ""),
                                 "an initializer has no name"));
  int index = 0;
  for (const Node& n : nodes()) {
    for (const auto& out : n.outputs()) {
      if (out.empty()) continue;
      const auto& producers = producers_.at(out);
      const bool declared = declared_.count(out) != 0;
      if (producers.front().node != &n || declared)
        problems.push_back(
            problem("ir.duplicate-producer", node_location(prefix, index, n.proto()),
                    "output " + quoted_name(out) + " is already defined " +
                        (declared ? "as a graph input or initializer" : "by an earlier node")));
    }
    ++index;
  }
}

std::unique_ptr<Node> Graph::make_node(onnx::NodeProto proto, const LocationFn& location) {
  std::unique_ptr<Node> node(new Node());
  node->graph_ = this;
  node->proto_ = std::make_shared<onnx::NodeProto>(std::move(proto));
  onnx::NodeProto& p = *node->proto_;
  node->inputs_.assign(p.input().begin(), p.input().end());
  node->outputs_.assign(p.output().begin(), p.output().end());
  p.clear_input();
  p.clear_output();
  add_subgraphs(*node, location, nullptr);
  return node;
}

std::unique_ptr<Node> Graph::view_node(const onnx::NodeProto& proto, const LocationFn& location,
                                       const std::shared_ptr<const void>& keep_alive) {
  std::unique_ptr<Node> node(new Node());
  node->graph_ = this;
  // Never written through while origin_ is set: mutable_proto() copies first.
  node->proto_ = std::shared_ptr<onnx::NodeProto>(keep_alive, const_cast<onnx::NodeProto*>(&proto));
  node->origin_ = &proto;
  node->inputs_.assign(proto.input().begin(), proto.input().end());
  node->outputs_.assign(proto.output().begin(), proto.output().end());
  add_subgraphs(*node, location, &keep_alive);
  return node;
}

// Decomposes the node's graph-valued attributes into child graphs: moved out of the node's own
// proto, or (keep_alive given) viewed in the stored one.
void Graph::add_subgraphs(Node& node, const LocationFn& location,
                          const std::shared_ptr<const void>* keep_alive) {
  const onnx::NodeProto& p = *node.proto_;
  std::optional<std::string> where;  // formatted on first need: most nodes have no subgraph
  for (int a = 0; a < p.attribute_size(); ++a) {
    const onnx::AttributeProto& attr = p.attribute(a);
    auto child_of = [&](const onnx::GraphProto& stored, int list_index) {
      if (!where) where = location(p);
      const std::string prefix = subgraph_prefix(*where, attr.name(), list_index);
      if (keep_alive) return build_view(stored, this, &node, shared_, prefix, *keep_alive);
      return build(std::move(const_cast<onnx::GraphProto&>(stored)), this, &node, shared_, prefix);
    };
    if (attr.has_g()) node.owned_subgraphs_.push_back({a, -1, child_of(attr.g(), -1)});
    for (int j = 0; j < attr.graphs_size(); ++j)
      node.owned_subgraphs_.push_back({a, j, child_of(attr.graphs(j), j)});
    if (!keep_alive && (attr.has_g() || attr.graphs_size() > 0)) {
      node.proto_->mutable_attribute(a)->clear_g();
      node.proto_->mutable_attribute(a)->clear_graphs();
    }
  }
  for (const auto& sub : node.owned_subgraphs_)
    node.subgraph_refs_.push_back(
        {p.attribute(sub.attribute_index).name(), sub.list_index, sub.graph.get()});
}

void Graph::interface_changed() {
  if (owner_) owner_->detach_origin();
}

void Graph::reserve_names() {
  NameTable& names = shared_->names;
  names.reserve(shell_.name());
  for (const auto* list : {&inputs_, &outputs_, &value_info_})
    for (const auto& v : *list) names.reserve(v.name());
  for (const auto& init : initializers_) names.reserve(init.name);
  for (const auto& s : sparse_) names.reserve(s.values().name());
  for (const Node& n : nodes()) {
    names.reserve(n.name());
    for (const auto& s : n.inputs()) names.reserve(s);
    for (const auto& s : n.outputs()) names.reserve(s);
    for (const auto& sub : n.subgraphs()) sub.graph->reserve_names();
  }
}

void Graph::report_undefined(const std::string& prefix) const {
  auto& problems = shared_->problems;
  int index = 0;
  for (const Node& n : nodes()) {
    const int at = index++;
    auto location = [&] { return node_location(prefix, at, n.proto()); };
    for (std::size_t i = 0; i < n.inputs().size(); ++i) {
      const std::string& in = n.inputs()[i];
      if (!in.empty() && !resolve(in))
        problems.push_back(problem("ir.undefined-value", location(),
                                   "input " + std::to_string(i) + " " + quoted_name(in) +
                                       " is not defined in this graph or an enclosing one"));
    }
    for (const auto& sub : n.subgraphs())
      sub.graph->report_undefined(subgraph_prefix(location(), sub.attribute, sub.list_index));
  }
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    const std::string& name = outputs_[i].name();
    if (!name.empty() && !resolve(name))
      problems.push_back(problem("ir.undefined-value",
                                 item_location(prefix, "output", int(i), name),
                                 "the graph output is not defined"));
  }
}

void Graph::to_proto(onnx::GraphProto& out) const {
  out = shell_;
  for (const Node& n : nodes()) n.to_proto(*out.add_node());
  for (const auto& init : initializers_) {
    auto* t = out.add_initializer();
    if (init.proto) *t = *init.proto;
    if (init.tensor) tensor_to_proto(*init.tensor, *t);
    // Set only on a change, so that a stored name's presence (even an empty one) is kept.
    if (!init.proto || init.proto->name() != init.name) t->set_name(init.name);
  }
  for (const auto& s : sparse_) *out.add_sparse_initializer() = s;
  for (const auto& v : inputs_) *out.add_input() = v;
  for (const auto& v : outputs_) *out.add_output() = v;
  for (const auto& v : value_info_) *out.add_value_info() = v;
}

onnx::GraphProto Graph::to_proto() const {
  onnx::GraphProto out;
  to_proto(out);
  return out;
}

void Graph::set_name(const std::string& name) {
  shell_.set_name(name);
  shared_->names.reserve(name);
}

std::string Graph::fresh_name(const std::string& base) {
  return shared_->names.fresh(base);
}

// ---- Graph: indexes ----------------------------------------------------------------------

void Graph::declare(const std::string& name) {
  if (!name.empty()) ++declared_[name];
}

void Graph::undeclare(const std::string& name) {
  auto it = declared_.find(name);
  if (it != declared_.end() && --it->second == 0) declared_.erase(it);
}

void Graph::add_use(const std::string& value, Node& node, int input) {
  if (!value.empty()) uses_[value].push_back({&node, input});
}

void Graph::drop_use(const std::string& value, const Node& node, int input) {
  auto it = uses_.find(value);
  if (it == uses_.end()) return;
  auto& list = it->second;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const Use& u) { return u.node == &node && u.input == input; }),
             list.end());
  if (list.empty()) uses_.erase(it);
}

void Graph::index_node(Node& node) {
  for (std::size_t i = 0; i < node.outputs_.size(); ++i)
    if (!node.outputs_[i].empty()) producers_[node.outputs_[i]].push_back({&node, int(i)});
  for (std::size_t i = 0; i < node.inputs_.size(); ++i) add_use(node.inputs_[i], node, int(i));
}

void Graph::unindex_node(Node& node) {
  for (const auto& out : node.outputs_) {
    auto it = producers_.find(out);
    if (it == producers_.end()) continue;
    auto& list = it->second;
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const Producer& p) { return p.node == &node; }),
               list.end());
    if (list.empty()) producers_.erase(it);
  }
  for (std::size_t i = 0; i < node.inputs_.size(); ++i) drop_use(node.inputs_[i], node, int(i));
}

void Graph::rebuild_index() {
  producers_.clear();
  uses_.clear();
  declared_.clear();
  producers_.reserve(nodes_.size() * 2);
  uses_.reserve(nodes_.size() * 2);
  index_initializers();
  for (const auto& v : inputs_) declare(v.name());
  for (const auto& init : initializers_) declare(init.name);
  for (const auto& s : sparse_) declare(s.values().name());
  for (const auto& n : nodes_) index_node(*n);
}

bool Graph::defines_locally(const std::string& name) const {
  return !name.empty() && (declared_.count(name) != 0 || producers_.count(name) != 0);
}

bool Graph::has_initializer_named(const std::string& name) const {
  return initializer(name) != nullptr ||
         std::any_of(sparse_.begin(), sparse_.end(),
                     [&](const auto& s) { return s.values().name() == name; });
}

Node* Graph::producer(const std::string& value, int* output) const {
  auto it = producers_.find(value);
  if (it == producers_.end()) return nullptr;
  if (output) *output = it->second.front().output;
  return it->second.front().node;
}

const std::vector<Use>& Graph::uses(const std::string& value) const {
  auto it = uses_.find(value);
  return it == uses_.end() ? kNoUses : it->second;
}

bool Graph::is_read_except(const std::string& value, const Node* except) const {
  if (value.empty()) return false;
  for (const Use& u : uses(value))
    if (u.node != except) return true;
  for (const auto& v : outputs_)
    if (v.name() == value) return true;
  for (const Node& n : nodes()) {
    if (&n == except) continue;
    for (const auto& sub : n.subgraphs()) {
      const auto refs = sub.graph->outer_references();
      if (std::find(refs.begin(), refs.end(), value) != refs.end()) return true;
    }
  }
  return false;
}

bool Graph::is_used(const std::string& value) const {
  return is_read_except(value, nullptr);
}

std::optional<ValueDef> Graph::find_local(const std::string& name) const {
  if (name.empty()) return std::nullopt;
  if (declared_.count(name)) {
    for (const auto& v : inputs_)
      if (v.name() == name) return ValueDef{this, ValueKind::graph_input, nullptr, 0};
    if (initializer(name)) return ValueDef{this, ValueKind::initializer, nullptr, 0};
    return ValueDef{this, ValueKind::sparse_initializer, nullptr, 0};
  }
  int output = 0;
  if (Node* n = producer(name, &output)) return ValueDef{this, ValueKind::node_output, n, output};
  return std::nullopt;
}

std::optional<ValueDef> Graph::resolve(const std::string& name) const {
  for (const Graph* g = this; g; g = g->parent_)
    if (auto def = g->find_local(name)) return def;
  return std::nullopt;
}

std::vector<std::string> Graph::outer_references() const {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto consider = [&](const std::string& name) {
    if (!name.empty() && !defines_locally(name) && seen.insert(name).second) out.push_back(name);
  };
  for (const Node& n : nodes()) {
    for (const auto& in : n.inputs()) consider(in);
    for (const auto& sub : n.subgraphs())
      for (const auto& name : sub.graph->outer_references()) consider(name);
  }
  for (const auto& v : outputs_) consider(v.name());
  return out;
}

std::vector<Node*> Graph::node_list() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

int Graph::index_of(const Node& node) const {
  if (node.graph_ != this) return -1;
  int i = 0;
  for (const auto& n : nodes_) {
    if (n.get() == &node) return i;
    ++i;
  }
  return -1;
}

// ---- Graph: editing ----------------------------------------------------------------------

Status Graph::check_new_outputs(const onnx::NodeProto& proto) const {
  std::unordered_set<std::string> own;
  for (const auto& out : proto.output()) {
    if (out.empty()) continue;
    if (!own.insert(out).second)
      return Status::failure("the node names output " + quoted_name(out) + " twice");
    if (defines_locally(out))
      return Status::failure("output " + quoted_name(out) + " is already defined in this graph");
    if (parent_ && parent_->resolve(out))
      return Status::failure("output " + quoted_name(out) +
                             " would shadow a value of an enclosing graph");
  }
  return Status::success();
}

Node* Graph::insert_node(NodeList::iterator where, onnx::NodeProto proto, Status* why) {
  Status s = check_new_outputs(proto);
  if (!s) {
    if (why) *why = std::move(s);
    return nullptr;
  }
  auto it = nodes_.insert(where, make_node(std::move(proto), [](const onnx::NodeProto& n) {
                            return "inserted " + node_location("", 0, n);
                          }));
  Node& node = **it;
  node.position_ = it;
  index_node(node);
  NameTable& names = shared_->names;
  names.reserve(node.name());
  for (const auto& v : node.inputs_) names.reserve(v);
  for (const auto& v : node.outputs_) names.reserve(v);
  for (const auto& sub : node.subgraphs()) sub.graph->reserve_names();
  if (why) *why = Status::success();
  return &node;
}

Node* Graph::append_node(onnx::NodeProto proto, Status* why) {
  return insert_node(nodes_.end(), std::move(proto), why);
}

Node* Graph::insert_node_before(const Node& anchor, onnx::NodeProto proto, Status* why) {
  if (anchor.graph_ != this) {
    if (why) *why = Status::failure("the anchor node belongs to another graph");
    return nullptr;
  }
  return insert_node(anchor.position_, std::move(proto), why);
}

Node* Graph::insert_node_after(const Node& anchor, onnx::NodeProto proto, Status* why) {
  if (anchor.graph_ != this) {
    if (why) *why = Status::failure("the anchor node belongs to another graph");
    return nullptr;
  }
  return insert_node(std::next(anchor.position_), std::move(proto), why);
}

Status Graph::remove_node(Node& node, Removal mode) {
  if (node.graph_ != this) return Status::failure("the node belongs to another graph");
  if (mode == Removal::require_unused)
    for (const auto& out : node.outputs_)
      if (is_read_except(out, &node))
        return Status::failure("output " + quoted_name(out) + " is still read");
  unindex_node(node);
  nodes_.erase(node.position_);  // destroys the node and its subgraphs
  return Status::success();
}

Status Graph::set_node_input(Node& node, int index, const std::string& value) {
  if (node.graph_ != this) return Status::failure("the node belongs to another graph");
  if (index < 0 || index >= int(node.inputs_.size()))
    return Status::failure("the node has no input " + std::to_string(index));
  if (node.inputs_[index] == value) return Status::success();
  node.detach_origin();
  drop_use(node.inputs_[index], node, index);
  node.inputs_[index] = value;
  add_use(value, node, index);
  shared_->names.reserve(value);
  return Status::success();
}

void Graph::append_node_input(Node& node, const std::string& value) {
  node.detach_origin();
  node.inputs_.push_back(value);
  add_use(value, node, int(node.inputs_.size()) - 1);
  shared_->names.reserve(value);
}

Status Graph::set_node_output(Node& node, int index, const std::string& value) {
  if (node.graph_ != this) return Status::failure("the node belongs to another graph");
  if (index < 0 || index >= int(node.outputs_.size()))
    return Status::failure("the node has no output " + std::to_string(index));
  if (!value.empty() && defines_locally(value))
    return Status::failure(quoted_name(value) + " is already defined in this graph");
  node.detach_origin();
  unindex_node(node);
  node.outputs_[static_cast<std::size_t>(index)] = value;
  index_node(node);
  shared_->names.reserve(value);
  return Status::success();
}

void Graph::append_node_output(Node& node, const std::string& value) {
  node.detach_origin();
  unindex_node(node);
  node.outputs_.push_back(value);
  index_node(node);
  shared_->names.reserve(value);
}

Status Graph::pop_node_input(Node& node) {
  if (node.graph_ != this) return Status::failure("the node belongs to another graph");
  if (node.inputs_.empty()) return Status::failure("the node has no inputs");
  node.detach_origin();
  const int last = int(node.inputs_.size()) - 1;
  drop_use(node.inputs_.back(), node, last);
  node.inputs_.pop_back();
  return Status::success();
}

Status Graph::pop_node_output(Node& node) {
  if (node.graph_ != this) return Status::failure("the node belongs to another graph");
  if (node.outputs_.empty()) return Status::failure("the node has no outputs");
  const std::string& name = node.outputs_.back();
  if (!name.empty() && is_read_except(name, &node))
    return Status::failure("output " + quoted_name(name) + " is still read");
  node.detach_origin();
  unindex_node(node);
  node.outputs_.pop_back();
  index_node(node);
  return Status::success();
}

bool Graph::shadows_in_readers(const std::string& old_value, const std::string& new_value) const {
  for (const Node& n : nodes()) {
    for (const auto& sub : n.subgraphs()) {
      const Graph& child = *sub.graph;
      if (child.defines_locally(old_value)) continue;  // reads its own old_value
      const auto refs = child.outer_references();
      if (std::find(refs.begin(), refs.end(), old_value) == refs.end()) continue;
      if (child.defines_locally(new_value) || child.shadows_in_readers(old_value, new_value))
        return true;
    }
  }
  return false;
}

void Graph::replace_outer_reads(const std::string& old_value, const std::string& new_value,
                                bool rename_declarations) {
  if (defines_locally(old_value)) return;  // this scope's old_value is another value
  const std::vector<Use> reads = uses(old_value);
  for (const Use& u : reads) (void)set_node_input(*u.node, u.input, new_value);
  for (auto& v : outputs_)
    if (v.name() == old_value) {
      v.set_name(new_value);
      interface_changed();
    }
  if (rename_declarations)
    for (auto& v : value_info_)
      if (v.name() == old_value) v.set_name(new_value);
  for (const Node& n : nodes())
    for (const auto& sub : n.subgraphs())
      sub.graph->replace_outer_reads(old_value, new_value, rename_declarations);
}

Status Graph::replace_all_uses(const std::string& old_value, const std::string& new_value) {
  if (old_value.empty()) return Status::failure("no value named");
  if (old_value == new_value) return Status::success();
  if (shadows_in_readers(old_value, new_value))
    return Status::failure("a subgraph reading " + quoted_name(old_value) + " defines its own " +
                           quoted_name(new_value));
  const std::vector<Use> reads = uses(old_value);
  for (const Use& u : reads) (void)set_node_input(*u.node, u.input, new_value);
  for (const Node& n : nodes())
    for (const auto& sub : n.subgraphs())
      sub.graph->replace_outer_reads(old_value, new_value, false);
  shared_->names.reserve(new_value);
  return Status::success();
}

void Graph::rename_local(const std::string& old_name, const std::string& new_name) {
  auto rename = [&](std::string& s) {
    if (s != old_name) return false;
    s = new_name;
    return true;
  };
  for (auto& n : nodes_) {
    bool renamed = false;
    for (auto& s : n->inputs_) renamed = rename(s) || renamed;
    for (auto& s : n->outputs_) renamed = rename(s) || renamed;
    if (renamed && n->origin_) {
      // The copy strips the stored lists; the renamed ones above stay.
      n->detach_origin();
    }
  }
  for (auto* list : {&inputs_, &outputs_, &value_info_})
    for (auto& v : *list)
      if (v.name() == old_name) {
        v.set_name(new_name);
        if (list != &value_info_) interface_changed();
      }
  for (auto& init : initializers_) rename(init.name);
  for (auto& s : sparse_)
    if (s.values().name() == old_name) s.mutable_values()->set_name(new_name);
  for (auto& a : *shell_.mutable_quantization_annotation())
    if (a.tensor_name() == old_name) a.set_tensor_name(new_name);
  rebuild_index();
  for (auto& n : nodes_)
    for (const auto& sub : n->subgraphs()) sub.graph->replace_outer_reads(old_name, new_name, true);
}

Status Graph::rename_value(const std::string& old_name, const std::string& new_name) {
  if (old_name.empty() || new_name.empty()) return Status::failure("a value name is empty");
  if (old_name == new_name) return Status::success();
  if (shared_->names.contains(new_name))
    return Status::failure(quoted_name(new_name) + " is already a name in the model");
  const auto def = resolve(old_name);
  Graph* scope = def ? const_cast<Graph*>(def->graph) : this;
  scope->rename_local(old_name, new_name);
  shared_->names.reserve(new_name);
  return Status::success();
}

Status Graph::add_input(onnx::ValueInfoProto input) {
  const std::string name = input.name();
  if (name.empty()) return Status::failure("a graph input needs a name");
  for (const auto& v : inputs_)
    if (v.name() == name) return Status::failure("input " + quoted_name(name) + " exists");
  if (producers_.count(name))
    return Status::failure(quoted_name(name) + " is already produced by a node");
  inputs_.push_back(std::move(input));
  interface_changed();
  declare(name);
  shared_->names.reserve(name);
  return Status::success();
}

Status Graph::remove_input(const std::string& name) {
  auto it = std::find_if(inputs_.begin(), inputs_.end(),
                         [&](const onnx::ValueInfoProto& v) { return v.name() == name; });
  if (it == inputs_.end()) return Status::failure("no input " + quoted_name(name));
  inputs_.erase(it);
  interface_changed();
  undeclare(name);
  return Status::success();
}

void Graph::add_output(onnx::ValueInfoProto output) {
  interface_changed();
  shared_->names.reserve(output.name());
  outputs_.push_back(std::move(output));
}

// ---- Graph: initializers -----------------------------------------------------------------

const Initializer* Graph::initializer(const std::string& name) const {
  auto it = initializer_at_.find(name);
  return it == initializer_at_.end() ? nullptr : &initializers_[it->second];
}

void Graph::index_initializers() {
  initializer_at_.clear();
  initializer_at_.reserve(initializers_.size());
  // The first of two of the same name is the one found (the model is invalid either way).
  for (std::size_t i = 0; i < initializers_.size(); ++i)
    initializer_at_.emplace(initializers_[i].name, i);
}

Status Graph::add_initializer(onnx::TensorProto tensor) {
  Initializer init;
  init.name = tensor.name();
  init.proto = std::make_shared<const onnx::TensorProto>(std::move(tensor));
  const std::string name = init.name;
  if (name.empty()) return Status::failure("an initializer needs a name");
  // A graph input of the same name is allowed: the initializer is its default.
  if (has_initializer_named(name) || producers_.count(name))
    return Status::failure(quoted_name(name) + " is already defined in this graph");
  if (parent_ && parent_->resolve(name))
    return Status::failure(quoted_name(name) + " would shadow a value of an enclosing graph");
  initializers_.push_back(std::move(init));
  initializer_at_.emplace(name, initializers_.size() - 1);
  declare(name);
  shared_->names.reserve(name);
  return Status::success();
}

Status Graph::add_initializer(const std::string& name, Tensor value) {
  if (!value.defined()) return Status::failure("the tensor has no element type");
  onnx::TensorProto header;
  header.set_name(name);
  Status s = add_initializer(std::move(header));
  // The header proto only carries the name; the Tensor supplies everything else on output.
  if (s) initializers_.back().tensor = std::move(value);
  return s;
}

Status Graph::set_initializer(const std::string& name, Tensor value) {
  if (!value.defined()) return Status::failure("the tensor has no element type");
  auto it = initializer_at_.find(name);
  if (it == initializer_at_.end()) return Status::failure("no initializer " + quoted_name(name));
  initializers_[it->second].tensor = std::move(value);
  return Status::success();
}

Status Graph::remove_initializer(const std::string& name) {
  auto it = std::find_if(initializers_.begin(), initializers_.end(),
                         [&](const Initializer& i) { return i.name == name; });
  if (it == initializers_.end()) return Status::failure("no initializer " + quoted_name(name));
  initializers_.erase(it);
  index_initializers();
  undeclare(name);
  return Status::success();
}

std::optional<Tensor> Graph::initializer_tensor(const std::string& name,
                                                const TensorSource& source) const {
  const Initializer* init = initializer(name);
  if (!init) return std::nullopt;
  if (init->tensor) return *init->tensor;
  TensorSource s = source;
  if (!s.owner) s.owner = init->proto;  // raw_data is viewed in place while the tensor lives
  return tensor_from_proto(*init->proto, s);
}

// ---- Graph: order ------------------------------------------------------------------------

std::vector<Node*> Graph::local_dependencies(const Node& node) const {
  std::vector<Node*> deps;
  auto add = [&](const std::string& value) {
    if (Node* p = producer(value)) deps.push_back(p);
  };
  for (const auto& in : node.inputs()) add(in);
  for (const auto& sub : node.subgraphs())
    for (const auto& name : sub.graph->outer_references()) add(name);
  std::sort(deps.begin(), deps.end());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  return deps;
}

bool Graph::is_topologically_sorted() const {
  return late_readers() == 0;
}

std::vector<std::vector<int>> Graph::dependency_lists(const std::vector<Node*>& order) const {
  std::unordered_map<const Node*, int> position;
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<int>(i);
  std::vector<std::vector<int>> dependencies(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const Node* dep : local_dependencies(*order[i]))
      dependencies[i].push_back(position.at(dep));
  return dependencies;
}

int Graph::late_readers(const Node** first) const {
  const std::vector<Node*> order = node_list();
  int at = -1;
  const int late = late_count(dependency_lists(order), &at);
  if (first && at >= 0) *first = order[static_cast<std::size_t>(at)];
  return late;
}

Status Graph::toposort(std::vector<Node*>* cycle) {
  const std::vector<Node*> order = node_list();
  const DependencyOrder sorted = order_by_dependencies(dependency_lists(order));
  if (cycle) cycle->clear();
  if (sorted.sorted()) {
    for (int i : sorted.order)
      nodes_.splice(nodes_.end(), nodes_, order[static_cast<std::size_t>(i)]->position_);
    return Status::success();
  }
  std::vector<std::string> locations;
  for (int i : sorted.cycle) {
    const Node* n = order[static_cast<std::size_t>(i)];
    locations.push_back(node_location("", i, n->proto()));
    if (cycle) cycle->push_back(order[static_cast<std::size_t>(i)]);
  }
  return Status::failure(kCycleIntro + cycle_path(locations));
}

// ---- ModelGraph --------------------------------------------------------------------------

ModelGraph ModelGraph::from_proto(onnx::ModelProto model) {
  ModelGraph m;
  auto shared = std::make_shared<Graph::Shared>();
  if (model.has_graph()) {
    m.graph_ =
        Graph::build(std::move(*model.mutable_graph()), nullptr, nullptr, shared, kMainGraphPrefix);
    model.clear_graph();
  }
  m.header_ = std::move(model);
  NameTable& names = shared->names;
  for (const auto& f : m.header_.functions()) reserve_function_names(f, names);
  for (const auto& t : m.header_.training_info()) {
    if (t.has_initialization()) reserve_graph_names(t.initialization(), names);
    if (t.has_algorithm()) reserve_graph_names(t.algorithm(), names);
  }
  if (m.graph_) {
    m.graph_->reserve_names();
    m.graph_->report_undefined(kMainGraphPrefix);
  } else {
    m.orphan_names_ = std::shared_ptr<NameTable>(shared, &shared->names);
  }
  return m;
}

ModelGraph ModelGraph::view(std::shared_ptr<const onnx::ModelProto> model) {
  ModelGraph m;
  auto shared = std::make_shared<Graph::Shared>();
  copy_model_header(*model, m.header_);
  NameTable& names = shared->names;
  for (const auto& f : m.header_.functions()) reserve_function_names(f, names);
  for (const auto& t : m.header_.training_info()) {
    if (t.has_initialization()) reserve_graph_names(t.initialization(), names);
    if (t.has_algorithm()) reserve_graph_names(t.algorithm(), names);
  }
  if (model->has_graph()) {
    const std::shared_ptr<const void> keep_alive = model;
    m.graph_ =
        Graph::build_view(model->graph(), nullptr, nullptr, shared, kMainGraphPrefix, keep_alive);
    m.graph_->reserve_names();
    m.graph_->report_undefined(kMainGraphPrefix);
  } else {
    m.orphan_names_ = std::shared_ptr<NameTable>(shared, &shared->names);
  }
  return m;
}

void ModelGraph::to_proto(onnx::ModelProto& out) const {
  out = header_;
  if (graph_) graph_->to_proto(*out.mutable_graph());
}

onnx::ModelProto ModelGraph::to_proto() const {
  onnx::ModelProto out;
  to_proto(out);
  return out;
}

std::vector<Diagnostic> ModelGraph::problems() const {
  return graph_ ? graph_->problems() : std::vector<Diagnostic>{};
}

std::string ModelGraph::fresh_name(const std::string& base) {
  return graph_ ? graph_->fresh_name(base) : orphan_names_->fresh(base);
}

}  // namespace onnxtool::ir
