// SPDX-License-Identifier: Apache-2.0
// An editable in-memory form of a model, for passes that rewrite it (opset conversion, constant
// folding, fusion). A Graph decomposes what passes edit — nodes, their inputs and outputs, graph
// inputs, outputs, value_info, initializers, subgraphs — and keeps everything else as the
// original protos, so that to_proto(from_proto(m)) gives back m exactly (same deterministic
// bytes, unknown fields included) when nothing was edited.
//
// Indexes (producer and consumer of each value) are kept up to date by every edit made through
// Graph. Node handles (Node&, Node*) stay valid until that node is removed.
//
// Nothing here knows an operator: subgraphs are found by attribute content (g, graphs), never by
// op type.
//
// A graph is either built from a proto it takes (from_proto: the converter, tools that write
// the model back) or a view of a proto that outlives it (view: the executor, which must not
// copy weights): a view's initializers and unedited nodes refer to the stored protos, and a node
// is copied only when it is edited.
//
// DESIGN: a pass (a rewrite such as constant folding, an opset step or a fusion) is a Pass
// (core/passes/pass.h) that edits a ModelGraph through Graph's methods (which keep the indexes
// and names right) and asks the registry for what it needs to know of an operator by trait
// (core/registry/schema.h), never by name.
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/types/tensor.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

namespace onnxtool::ir {

class Graph;
class Node;

// The outcome of an edit that can be refused (the graph is left unchanged when it is).
class [[nodiscard]] Status {
 public:
  static Status success() { return Status(); }
  static Status failure(std::string message) {
    Status s;
    s.message_ = message.empty() ? "failed" : std::move(message);
    return s;
  }
  bool ok() const { return message_.empty(); }
  explicit operator bool() const { return ok(); }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// A node reading a value: node->inputs()[input] names it.
struct Use {
  Node* node = nullptr;
  int input = 0;
  bool operator==(const Use&) const = default;
};

// Where a name is defined.
enum class ValueKind { graph_input, initializer, sparse_initializer, node_output };
struct ValueDef {
  const Graph* graph = nullptr;  // the scope that defines it
  ValueKind kind = ValueKind::node_output;
  Node* node = nullptr;  // the producer, for node_output
  int output = 0;        // which output of the producer
};

// A graph-valued attribute of a node: attribute `attribute` (its list element `list_index`, or
// -1 for a single graph in attr.g).
struct Subgraph {
  std::string attribute;
  int list_index = -1;
  Graph* graph = nullptr;
};

// Names are shared by every scope of a model: fresh names never collide with any of them.
class NameTable {
 public:
  void reserve(const std::string& name);
  bool contains(const std::string& name) const { return used_.count(name) != 0; }
  std::string fresh(const std::string& base);

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> next_suffix_;
};

class Node {
 public:
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  ~Node();

  const std::string& op_type() const { return proto_->op_type(); }
  const std::string& domain() const { return proto_->domain(); }
  const std::string& name() const { return proto_->name(); }
  const std::vector<std::string>& inputs() const { return inputs_; }
  const std::vector<std::string>& outputs() const { return outputs_; }
  Graph& graph() const { return *graph_; }

  // The node's attributes, doc_string, metadata and unknown fields. Its input, output and
  // subgraph fields are not to be read: use inputs(), outputs() and subgraphs() (a viewed node's
  // proto still holds them as stored). Edit attributes through mutable_proto(), but neither add
  // nor remove the attributes that hold subgraphs (subgraphs() refers to them by position).
  const onnx::NodeProto& proto() const { return *proto_; }
  onnx::NodeProto& mutable_proto();

  // The stored NodeProto a viewed node still matches (inputs, outputs, attributes, and the
  // interface of its subgraphs); nullptr for a node made by an edit or edited since.
  const onnx::NodeProto* origin() const { return origin_; }
  // The node's position in the graph it was read from (what locations in messages name, so
  // that they point into the file even after edits); -1 for a node an edit inserted.
  int stored_index() const { return stored_index_; }

  const std::vector<Subgraph>& subgraphs() const { return subgraph_refs_; }

  // A tensor attribute (e.g. a constant's value) given as a Tensor: kept as it is (a view of
  // mapped or raw data stays a view) and encoded only by to_proto. Adds the attribute when the
  // node has none of that name. Refused for a tensor without an element type.
  Status set_attribute_tensor(const std::string& attribute, Tensor value);
  // The attribute's tensor: the one set above, or the stored TensorProto decoded (raw_data is
  // wrapped, not copied). nullopt when the node has no such tensor attribute. Throws Error when
  // the stored tensor is malformed.
  std::optional<Tensor> attribute_tensor(const std::string& attribute,
                                         const TensorSource& source = {}) const;

  void to_proto(onnx::NodeProto& out) const;

 private:
  friend class Graph;
  struct OwnedSubgraph {
    int attribute_index;
    int list_index;
    std::unique_ptr<Graph> graph;
  };
  Node() = default;
  // Before an edit: a viewed node gets a copy of its proto of its own.
  void detach_origin();

  Graph* graph_ = nullptr;
  std::shared_ptr<onnx::NodeProto> proto_;  // shared so decoded attribute tensors can view it
  const onnx::NodeProto* origin_ = nullptr;
  int stored_index_ = -1;
  std::vector<std::string> inputs_, outputs_;
  std::vector<OwnedSubgraph> owned_subgraphs_;  // in attribute order, then list order
  std::vector<Subgraph> subgraph_refs_;         // the same, as handed out
  std::map<std::string, Tensor> tensor_attributes_;
  std::list<std::unique_ptr<Node>>::iterator position_;
};

// An initializer: its TensorProto as stored, or a Tensor that replaces its contents.
struct Initializer {
  std::string name;
  std::shared_ptr<const onnx::TensorProto> proto;  // null when given only as a Tensor
  std::optional<Tensor> tensor;                    // when set, written instead of proto's data
};

class Graph {
  using NodeList = std::list<std::unique_ptr<Node>>;

 public:
  // Iterates nodes in order as Node&.
  class NodeIterator {
   public:
    explicit NodeIterator(NodeList::const_iterator it) : it_(it) {}
    Node& operator*() const { return **it_; }
    Node* operator->() const { return it_->get(); }
    NodeIterator& operator++() {
      ++it_;
      return *this;
    }
    bool operator==(const NodeIterator& o) const { return it_ == o.it_; }

   private:
    NodeList::const_iterator it_;
  };
  struct NodeRange {
    NodeIterator b, e;
    NodeIterator begin() const { return b; }
    NodeIterator end() const { return e; }
  };

  // A main graph (no enclosing scope). Problems found (duplicate producers, undefined names) are
  // reported in problems(), never thrown.
  static std::unique_ptr<Graph> from_proto(onnx::GraphProto proto);
  // A graph viewing `proto`, which must outlive it unless `keep_alive` owns it. Values it reads
  // from enclosing scopes are not reported as undefined (a subgraph viewed on its own).
  static std::unique_ptr<Graph> view(const onnx::GraphProto& proto,
                                     std::shared_ptr<const void> keep_alive = nullptr);
  void to_proto(onnx::GraphProto& out) const;
  onnx::GraphProto to_proto() const;

  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph();

  // ---- scope ----------------------------------------------------------------------------
  Graph* parent() const { return parent_; }
  // The stored GraphProto a viewed graph was made from (nullptr otherwise): an identity, e.g. to
  // find what shape inference found for this graph; its contents may have been edited since.
  const onnx::GraphProto* origin() const { return origin_; }
  Node* owner_node() const { return owner_; }  // the node whose attribute this graph is
  // Structural problems found at construction (rule ids ir.duplicate-producer,
  // ir.undefined-value), for the whole model.
  const std::vector<Diagnostic>& problems() const { return shared_->problems; }

  // ---- header ----------------------------------------------------------------------------
  const std::string& name() const { return shell_.name(); }
  void set_name(const std::string& name);
  const std::string& doc_string() const { return shell_.doc_string(); }
  void set_doc_string(const std::string& doc) { shell_.set_doc_string(doc); }
  // What the graph keeps undecomposed: name, doc_string, metadata_props,
  // quantization_annotation, unknown fields.
  const onnx::GraphProto& header() const { return shell_; }
  onnx::GraphProto& mutable_header() { return shell_; }

  // ---- nodes -----------------------------------------------------------------------------
  NodeRange nodes() const { return {NodeIterator(nodes_.begin()), NodeIterator(nodes_.end())}; }
  std::size_t node_count() const { return nodes_.size(); }
  // A copy of the node list, for loops that edit while they walk.
  std::vector<Node*> node_list() const;
  // The position of a node of this graph (linear time); -1 for a node of another graph.
  int index_of(const Node& node) const;

  // Inserts a node made from proto (inputs, outputs, attributes; subgraph attributes become
  // child graphs). Refused (nullptr, reason in *why) when an output is already defined in this
  // scope or the anchor belongs to another graph.
  Node* append_node(onnx::NodeProto proto, Status* why = nullptr);
  Node* insert_node_before(const Node& anchor, onnx::NodeProto proto, Status* why = nullptr);
  Node* insert_node_after(const Node& anchor, onnx::NodeProto proto, Status* why = nullptr);

  enum class Removal { require_unused, force };
  // Removes the node (and its subgraphs). With require_unused it is refused while any of its
  // outputs is read (by a node here or in a subgraph, or as a graph output); force removes it
  // anyway and leaves those reads dangling.
  Status remove_node(Node& node, Removal mode = Removal::require_unused);

  // Makes input `index` of node read `value` ("" omits an optional input).
  Status set_node_input(Node& node, int index, const std::string& value);
  void append_node_input(Node& node, const std::string& value);
  // Makes output `index` of node write `value` (a name not yet defined in this scope); what read
  // the old name keeps reading the old name, which is then undefined until something defines it.
  Status set_node_output(Node& node, int index, const std::string& value);
  void append_node_output(Node& node, const std::string& value);
  // Drops the node's last input; its last output (refused while that output is read).
  Status pop_node_input(Node& node);
  Status pop_node_output(Node& node);

  // Makes every read of old_value in this graph read new_value instead, and every read from a
  // subgraph that sees this graph's old_value (node inputs and subgraph outputs; a subgraph that
  // defines its own old_value is left alone). This graph's own outputs are not changed (they are
  // the graph's interface; use rename_value for that). Refused when new_value is shadowed in a
  // subgraph that would read it.
  Status replace_all_uses(const std::string& old_value, const std::string& new_value);

  // Renames a value in the scope that defines it (or this one when none does): its definition,
  // every read (here and in subgraphs that see it), graph outputs, value_info, quantization
  // annotations. Refused when new_name is already a name anywhere in the model (names once
  // used stay taken, even after their value was removed).
  Status rename_value(const std::string& old_name, const std::string& new_name);

  // ---- values ----------------------------------------------------------------------------
  // The node producing a value in this graph (nullptr when none); output index in *output.
  Node* producer(const std::string& value, int* output = nullptr) const;
  // Reads of a value by nodes of this graph, as explicit inputs (unordered).
  const std::vector<Use>& uses(const std::string& value) const;
  // Whether anything reads the value: a node here, a subgraph here, or a graph output.
  bool is_used(const std::string& value) const;
  // The definition of a name in this graph alone, or through the enclosing scopes.
  std::optional<ValueDef> find_local(const std::string& name) const;
  std::optional<ValueDef> resolve(const std::string& name) const;
  // Names this graph (and its subgraphs) read without defining them: the values it captures from
  // enclosing scopes (or that are undefined), in order of first read.
  std::vector<std::string> outer_references() const;

  // A name no scope of the model uses yet: base, base_1, base_2, ... (reserved on return).
  std::string fresh_name(const std::string& base);
  NameTable& names() { return shared_->names; }

  // ---- interface -------------------------------------------------------------------------
  // Graph inputs, outputs and value_info as stored. New names written into them directly should
  // be reserved with names().reserve().
  const std::vector<onnx::ValueInfoProto>& inputs() const { return inputs_; }
  const std::vector<onnx::ValueInfoProto>& outputs() const { return outputs_; }
  const std::vector<onnx::ValueInfoProto>& value_info() const { return value_info_; }
  std::vector<onnx::ValueInfoProto>& mutable_outputs() {
    interface_changed();
    return outputs_;
  }
  std::vector<onnx::ValueInfoProto>& mutable_value_info() { return value_info_; }
  Status add_input(onnx::ValueInfoProto input);
  Status remove_input(const std::string& name);
  void add_output(onnx::ValueInfoProto output);

  // ---- initializers ----------------------------------------------------------------------
  const std::vector<Initializer>& initializers() const { return initializers_; }
  const Initializer* initializer(const std::string& name) const;
  // Adds an initializer; refused when the name is already defined in this scope.
  Status add_initializer(onnx::TensorProto tensor);
  Status add_initializer(const std::string& name, Tensor value);
  // Replaces the contents of an existing initializer with a Tensor (kept as it is until
  // to_proto); name, doc_string and metadata of the stored proto stay.
  Status set_initializer(const std::string& name, Tensor value);
  Status remove_initializer(const std::string& name);
  // The initializer's elements: the Tensor given, or the proto decoded (raw_data wrapped, not
  // copied). Throws Error when the stored tensor is malformed; nullopt when there is none.
  std::optional<Tensor> initializer_tensor(const std::string& name,
                                           const TensorSource& source = {}) const;
  const std::vector<onnx::SparseTensorProto>& sparse_initializers() const { return sparse_; }

  // ---- order -----------------------------------------------------------------------------
  // Whether every node comes after the producers of what it reads (its inputs and what its
  // subgraphs capture from this graph).
  bool is_topologically_sorted() const;
  // How many nodes read what a node at or after their own place produces; the first in *first.
  int late_readers(const Node** first = nullptr) const;
  // Reorders the nodes so that they are, keeping the present order where it allows. On a cycle
  // nothing moves: the failure names the nodes of one cycle, and *cycle (when given) lists them.
  Status toposort(std::vector<Node*>* cycle = nullptr);

 private:
  struct Shared {
    NameTable names;
    std::vector<Diagnostic> problems;
  };
  struct Producer {
    Node* node;
    int output;
  };
  struct Private {};

 public:
  Graph(Private, Graph* parent, Node* owner, std::shared_ptr<Shared> shared);

 private:
  friend class Node;
  friend class ModelGraph;

  // Construction.
  static std::unique_ptr<Graph> build(onnx::GraphProto proto, Graph* parent, Node* owner,
                                      std::shared_ptr<Shared> shared, const std::string& prefix);
  static std::unique_ptr<Graph> build_view(const onnx::GraphProto& proto, Graph* parent,
                                           Node* owner, std::shared_ptr<Shared> shared,
                                           const std::string& prefix,
                                           const std::shared_ptr<const void>& keep_alive);
  void finish_build(const std::string& prefix);
  // `location` gives the node's location path, asked for only when it has subgraphs.
  using LocationFn = std::function<std::string(const onnx::NodeProto&)>;
  std::unique_ptr<Node> make_node(onnx::NodeProto proto, const LocationFn& location);
  std::unique_ptr<Node> view_node(const onnx::NodeProto& proto, const LocationFn& location,
                                  const std::shared_ptr<const void>& keep_alive);
  void add_subgraphs(Node& node, const LocationFn& location,
                     const std::shared_ptr<const void>* keep_alive);
  // A change of the inputs or outputs of this graph: its owner no longer matches its origin.
  void interface_changed();
  void reserve_names();
  void report_undefined(const std::string& prefix) const;

  // Indexes.
  void index_node(Node& node);
  void unindex_node(Node& node);
  void add_use(const std::string& value, Node& node, int input);
  void drop_use(const std::string& value, const Node& node, int input);
  void rebuild_index();
  void index_initializers();
  bool defines_locally(const std::string& name) const;
  Status check_new_outputs(const onnx::NodeProto& proto) const;
  Node* insert_node(NodeList::iterator where, onnx::NodeProto proto, Status* why);

  // Edits that reach into subgraphs reading an outer value.
  bool shadows_in_readers(const std::string& old_value, const std::string& new_value) const;
  void replace_outer_reads(const std::string& old_value, const std::string& new_value,
                           bool rename_declarations);
  void rename_local(const std::string& old_name, const std::string& new_name);
  std::vector<Node*> local_dependencies(const Node& node) const;
  // For nodes listed in `order`: the positions in it of each one's local dependencies.
  std::vector<std::vector<int>> dependency_lists(const std::vector<Node*>& order) const;
  bool is_read_except(const std::string& value, const Node* except) const;
  void declare(const std::string& name);
  void undeclare(const std::string& name);
  bool has_initializer_named(const std::string& name) const;

  Graph* parent_ = nullptr;
  Node* owner_ = nullptr;
  const onnx::GraphProto* origin_ = nullptr;
  std::shared_ptr<Shared> shared_;
  onnx::GraphProto shell_;  // the GraphProto without what is decomposed below
  NodeList nodes_;
  std::vector<onnx::ValueInfoProto> inputs_, outputs_, value_info_;
  std::vector<Initializer> initializers_;
  std::unordered_map<std::string, std::size_t> initializer_at_;  // name -> index (first)
  std::vector<onnx::SparseTensorProto> sparse_;
  std::unordered_map<std::string, std::vector<Producer>> producers_;
  std::unordered_map<std::string, std::vector<Use>> uses_;
  // How many graph inputs, initializers and sparse initializers carry each name.
  std::unordered_map<std::string, int> declared_;
};

// A whole model: the main graph decomposed, the rest of the ModelProto (header, opsets,
// functions, training info, device configurations, unknown fields) kept as it is.
class ModelGraph {
 public:
  static ModelGraph from_proto(onnx::ModelProto model);
  // A view of a stored model (see Graph::view): nothing large is copied; `model` is kept alive.
  static ModelGraph view(std::shared_ptr<const onnx::ModelProto> model);
  onnx::ModelProto to_proto() const;
  void to_proto(onnx::ModelProto& out) const;

  // nullptr when the model has no graph.
  Graph* graph() const { return graph_.get(); }
  // The ModelProto without its graph.
  const onnx::ModelProto& header() const { return header_; }
  onnx::ModelProto& mutable_header() { return header_; }
  // Problems found at construction (see Graph::problems).
  std::vector<Diagnostic> problems() const;
  // A name unused anywhere in the model (graphs, subgraphs, functions, training graphs).
  std::string fresh_name(const std::string& base);

 private:
  onnx::ModelProto header_;
  std::unique_ptr<Graph> graph_;
  std::shared_ptr<NameTable> orphan_names_;  // for a model without a graph
};

}  // namespace onnxtool::ir
