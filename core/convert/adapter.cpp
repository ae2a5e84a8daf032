// SPDX-License-Identifier: Apache-2.0
#include "core/convert/adapter.h"

#include <algorithm>

#include "core/diag/error.h"
#include "core/ir/graph.h"
#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "core/types/dtype.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

onnx::AttributeProto* find_mutable(onnx::NodeProto& node, std::string_view name) {
  for (auto& a : *node.mutable_attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

// The attribute of that name, made empty and typed (added when absent).
onnx::AttributeProto& reset_attribute(ir::Node& node, std::string_view name,
                                      onnx::AttributeProto::AttributeType type) {
  onnx::NodeProto& p = node.mutable_proto();
  onnx::AttributeProto* a = find_mutable(p, name);
  if (!a) a = p.add_attribute();
  a->Clear();
  a->set_name(std::string(name));
  a->set_type(type);
  return *a;
}

// A Constant-like node's value (the operator whose trait says its output is an attribute).
std::optional<Tensor> attribute_value(const ir::Node& producer) {
  try {
    if (auto t = producer.attribute_tensor("value")) return t;
  } catch (const Error&) {
    return std::nullopt;  // external or malformed: not read here
  }
  for (const auto& a : producer.proto().attribute()) {
    const std::string& n = a.name();
    if (n == "value_int") return Tensor::scalar<int64_t>(a.i());
    if (n == "value_float") return Tensor::scalar<float>(a.f());
    if (n == "value_ints")
      return Tensor::from_vector<int64_t>({a.ints_size()}, {a.ints().begin(), a.ints().end()});
    if (n == "value_floats")
      return Tensor::from_vector<float>({a.floats_size()}, {a.floats().begin(), a.floats().end()});
  }
  return std::nullopt;
}

// The default domain's operator whose output is the value its attribute holds (asked by trait:
// core/ names no operator).
std::string attribute_value_operator(const Registry& registry) {
  for (const OpDef* def : registry.all())
    if (def->domain().empty() && !def->versions().empty() &&
        def->versions().back().has(Trait::attribute_value))
      return def->name();
  return "";
}

}  // namespace

bool declares_attribute_value(const Registry& registry, const ir::Node& node) {
  const OpDef* def = registry.find(node.domain(), node.op_type());
  if (!def) return false;
  return std::any_of(def->versions().begin(), def->versions().end(),
                     [](const OpVersion& v) { return v.has(Trait::attribute_value); });
}

AdapterContext::AdapterContext(const Environment& env, ir::Graph& graph, ir::Node& node,
                               const OpVersion& from, const OpVersion& to, int64_t from_opset,
                               int64_t to_opset)
    : env_(env),
      graph_(&graph),
      node_(&node),
      from_(&from),
      to_(&to),
      from_opset_(from_opset),
      to_opset_(to_opset) {}

// ---- attributes --------------------------------------------------------------------------

const onnx::AttributeProto* AdapterContext::attribute(std::string_view name) const {
  for (const auto& a : node_->proto().attribute()) {
    if (a.name() != name) continue;
    // In a function body the value may be the caller's, unknown here.
    if (!a.ref_attr_name().empty())
      refuse("attribute " + a.name() + " refers to the function's attribute " + a.ref_attr_name() +
             ", whose value each call gives");
    return &a;
  }
  return nullptr;
}

std::optional<int64_t> AdapterContext::int_attribute(std::string_view name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return a->i();
}

std::optional<float> AdapterContext::float_attribute(std::string_view name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return a->f();
}

std::optional<std::string> AdapterContext::string_attribute(std::string_view name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return a->s();
}

std::optional<std::vector<int64_t>> AdapterContext::ints_attribute(std::string_view name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::vector<float>> AdapterContext::floats_attribute(std::string_view name) const {
  const auto* a = attribute(name);
  if (!a) return std::nullopt;
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

void AdapterContext::remove_attribute(std::string_view name) {
  if (!has_attribute(name)) return;
  auto* attrs = node_->mutable_proto().mutable_attribute();
  for (int i = 0; i < attrs->size(); ++i)
    if (attrs->Get(i).name() == name) {
      attrs->DeleteSubrange(i, 1);
      return;
    }
}

void AdapterContext::set_attribute(std::string_view name, int64_t value) {
  reset_attribute(*node_, name, onnx::AttributeProto::INT).set_i(value);
}

void AdapterContext::set_attribute(std::string_view name, float value) {
  reset_attribute(*node_, name, onnx::AttributeProto::FLOAT).set_f(value);
}

void AdapterContext::set_attribute(std::string_view name, const std::string& value) {
  reset_attribute(*node_, name, onnx::AttributeProto::STRING).set_s(value);
}

void AdapterContext::set_attribute(std::string_view name, const std::vector<int64_t>& value) {
  auto& a = reset_attribute(*node_, name, onnx::AttributeProto::INTS);
  for (int64_t v : value) a.add_ints(v);
}

void AdapterContext::set_attribute(std::string_view name, const std::vector<float>& value) {
  auto& a = reset_attribute(*node_, name, onnx::AttributeProto::FLOATS);
  for (float v : value) a.add_floats(v);
}

void AdapterContext::set_attribute(std::string_view name, const std::vector<std::string>& value) {
  auto& a = reset_attribute(*node_, name, onnx::AttributeProto::STRINGS);
  for (const auto& v : value) a.add_strings(v);
}

void AdapterContext::set_attribute(std::string_view name, const Tensor& value) {
  remove_attribute(name);
  (void)node_->set_attribute_tensor(std::string(name), value);
}

void AdapterContext::rename_attribute(std::string_view from, std::string_view to) {
  if (!has_attribute(from)) return;
  find_mutable(node_->mutable_proto(), from)->set_name(std::string(to));
}

// ---- inputs and outputs ------------------------------------------------------------------

std::size_t AdapterContext::num_inputs() const {
  return node_->inputs().size();
}

bool AdapterContext::has_input(std::size_t i) const {
  return i < node_->inputs().size() && !node_->inputs()[i].empty();
}

const std::string& AdapterContext::input(std::size_t i) const {
  static const std::string kNone;
  return i < node_->inputs().size() ? node_->inputs()[i] : kNone;
}

void AdapterContext::set_input(std::size_t i, const std::string& value) {
  while (node_->inputs().size() <= i) graph_->append_node_input(*node_, "");
  (void)graph_->set_node_input(*node_, static_cast<int>(i), value);
}

void AdapterContext::truncate_inputs(std::size_t n) {
  while (node_->inputs().size() > n) (void)graph_->pop_node_input(*node_);
}

std::size_t AdapterContext::num_outputs() const {
  return node_->outputs().size();
}

bool AdapterContext::has_output(std::size_t i) const {
  return i < node_->outputs().size() && !node_->outputs()[i].empty();
}

const std::string& AdapterContext::output(std::size_t i) const {
  static const std::string kNone;
  return i < node_->outputs().size() ? node_->outputs()[i] : kNone;
}

std::string AdapterContext::name_base() const {
  return node_->name().empty() ? node_->op_type() : node_->name();
}

bool AdapterContext::output_used(std::size_t i) const {
  return has_output(i) && graph_->is_used(node_->outputs()[i]);
}

void AdapterContext::drop_output(std::size_t i) {
  if (!has_output(i) || output_used(i)) return;
  if (i + 1 == node_->outputs().size())
    (void)graph_->pop_node_output(*node_);
  else
    (void)graph_->set_node_output(*node_, static_cast<int>(i), "");
}

void AdapterContext::set_output(std::size_t i, const std::string& name) {
  while (node_->outputs().size() <= i) graph_->append_node_output(*node_, "");
  (void)graph_->set_node_output(*node_, static_cast<int>(i), name);
}

void AdapterContext::truncate_outputs(std::size_t n) {
  // An output still read stays (pop refuses it): the adapter must rename it first.
  while (node_->outputs().size() > n)
    if (!graph_->pop_node_output(*node_).ok()) break;
}

std::optional<Tensor> AdapterContext::constant_input(std::size_t i) const {
  if (!has_input(i)) return std::nullopt;
  const std::string& name = input(i);
  const auto def = graph_->resolve(name);
  if (!def) return std::nullopt;
  // Up to IR 3 every initializer is also a graph input: that is how such models store weights,
  // so there it counts as a constant; later, an input's initializer is a default a feed replaces.
  const bool ir3_weight = def->kind == ir::ValueKind::graph_input && !def->graph->parent() &&
                          env_.model->header().ir_version() <= 3 &&
                          def->graph->initializer(name) != nullptr;
  if (def->kind == ir::ValueKind::initializer || ir3_weight) {
    try {
      return def->graph->initializer_tensor(name);
    } catch (const Error&) {
      return std::nullopt;  // stored externally (never read to convert) or malformed
    }
  }
  if (def->kind == ir::ValueKind::node_output && def->node &&
      declares_attribute_value(*env_.registry, *def->node))
    return attribute_value(*def->node);
  return std::nullopt;
}

const Type* AdapterContext::input_type(std::size_t i) const {
  if (!has_input(i) || !env_.type_of) return nullptr;
  return env_.type_of(input(i));
}

const Type* AdapterContext::output_type(std::size_t i) const {
  if (!has_output(i) || !env_.type_of) return nullptr;
  return env_.type_of(node_->outputs()[i]);
}

// ---- new values and nodes ----------------------------------------------------------------

std::string AdapterContext::add_constant(const std::string& base, const Tensor& value) {
  ir::Graph& main = *env_.model->graph();
  const std::string name = fresh_name(base);
  if (env_.constants_as_nodes) {
    const std::string op = attribute_value_operator(*env_.registry);
    if (op.empty()) refuse("the registry has no operator whose output is its attribute's value");
    onnx::NodeProto constant;
    constant.set_op_type(op);
    constant.add_output(name);
    ir::Node* added = insert_before(std::move(constant));
    if (added) (void)added->set_attribute_tensor("value", value);
    return name;
  }
  (void)main.add_initializer(name, value);
  // Up to IR 3 an initializer is also a graph input.
  if (env_.initializers_as_inputs) {
    onnx::ValueInfoProto input;
    input.set_name(name);
    auto* t = input.mutable_type()->mutable_tensor_type();
    t->set_elem_type(static_cast<int32_t>(value.dtype()));
    auto* shape = t->mutable_shape();
    for (int64_t d : value.shape()) shape->add_dim()->set_dim_value(d);
    (void)main.add_input(std::move(input));
  }
  return name;
}

ir::Node* AdapterContext::insert_before(onnx::NodeProto proto) {
  ir::Node* n = graph_->insert_node_before(*node_, std::move(proto));
  if (n) inserted_.push_back(n);
  return n;
}

ir::Node* AdapterContext::insert_after(onnx::NodeProto proto) {
  ir::Node* n = graph_->insert_node_after(*node_, std::move(proto));
  if (n) inserted_.push_back(n);
  return n;
}

void AdapterContext::rename_output(std::size_t i, const std::string& name) {
  (void)graph_->set_node_output(*node_, static_cast<int>(i), name);
}

int64_t AdapterContext::model_opset(const std::string& domain) const {
  const OpsetMap opsets = model_opsets(env_.model->header());
  auto it = opsets.find(normalize_domain(domain));
  return it == opsets.end() ? 0 : it->second;
}

int64_t AdapterContext::import_opset(const std::string& domain, int64_t version) {
  if (const int64_t now = model_opset(domain)) return now;
  auto* o = env_.model->mutable_header().add_opset_import();
  o->set_domain(normalize_domain(domain));
  o->set_version(version);
  describe("imports " + (domain.empty() ? std::string("ai.onnx") : domain) + " " +
           std::to_string(version) + " for the nodes it adds");
  return version;
}

std::string AdapterContext::fresh_name(const std::string& base) {
  return env_.model->fresh_name(base);
}

void AdapterContext::set_op_type(const std::string& op_type) {
  node_->mutable_proto().set_op_type(op_type);
}

// ---- outcome -----------------------------------------------------------------------------

void AdapterContext::describe(std::string how) {
  descriptions_.push_back(std::move(how));
}

void AdapterContext::refuse(std::string why) const {
  throw AdapterRefusal{std::move(why), false};
}

void AdapterContext::approximate(std::string what) {
  if (!env_.allow_approximate) throw AdapterRefusal{what, true};
  approximations_.push_back(std::move(what));
}

}  // namespace onnxtool
