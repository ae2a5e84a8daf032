// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/widen_float16.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/passes/fusion_support.h"
#include "core/exec/planner.h"
#include "core/ir/graph.h"
#include "core/kernels/half.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/registry.h"
#include "core/registry/schema.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

bool is_narrow_float(int32_t elem) {
  return elem == onnx::TensorProto::FLOAT16 || elem == onnx::TensorProto::BFLOAT16;
}

// The formal parameter an actual at `index` binds to (a variadic last one takes the rest).
const FormalParam* formal_at(const std::vector<FormalParam>& formals, std::size_t index) {
  if (index < formals.size()) return &formals[index];
  if (!formals.empty() && formals.back().option == ParamOption::variadic) return &formals.back();
  return nullptr;
}

bool admits_float32(const OpVersion& schema, const FormalParam* p) {
  if (!p) return false;
  if (p->is_literal_type()) return p->literal.allows("tensor(float)");
  const TypeConstraint* c = schema.find_constraint(p->type);
  return c && c->types.allows("tensor(float)");
}

// The operator that makes conversion nodes at the model's default-domain opset: its name, and
// the version's hook (none when no operator of that opset has one).
struct Converter {
  std::string op;
  MakeConversionFn make;
};

Converter find_converter(const Registry& registry, const OpsetMap& opsets) {
  const auto opset = opsets.find("");
  if (opset == opsets.end()) return {};
  for (const OpDef* def : registry.all()) {
    if (!def->domain().empty()) continue;
    const OpVersion* at_opset = nullptr;
    for (const OpVersion& v : def->versions())
      if (v.since <= opset->second) at_opset = &v;
    if (at_opset && at_opset->make_conversion && !at_opset->deprecated)
      return {def->name(), at_opset->make_conversion};
  }
  return {};
}

// Union-find over value names.
class ValueSets {
 public:
  std::size_t id(const std::string& name) {
    const auto [it, added] = ids_.try_emplace(name, parent_.size());
    if (added) {
      parent_.push_back(parent_.size());
      names_.push_back(name);
    }
    return it->second;
  }
  void join(std::size_t a, std::size_t b) { parent_[root(a)] = root(b); }
  // Every set, as its members' names.
  std::vector<std::vector<std::string>> sets() {
    std::map<std::size_t, std::vector<std::string>> by_root;
    for (std::size_t i = 0; i < names_.size(); ++i) by_root[root(i)].push_back(names_[i]);
    std::vector<std::vector<std::string>> out;
    for (auto& [root, members] : by_root) out.push_back(std::move(members));
    return out;
  }

 private:
  std::size_t root(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  std::map<std::string, std::size_t> ids_;
  std::vector<std::size_t> parent_;
  std::vector<std::string> names_;
};

// One graph's widening.
class Widening {
 public:
  Widening(FusionSupport& support, const Converter& converter, ir::Graph& g)
      : support_(support),
        converter_(converter),
        g_(g),
        captured_(FusionSupport::read_outside_nodes(g)) {}

  // How many values became float32. Every value of a region does, or the region's nodes would
  // see mixed types: each has a float32 source (a conversion is inserted where needed).
  int64_t run() {
    ValueSets regions;
    for (ir::Node* n : g_.node_list()) add_member(regions, *n);
    int64_t widened = 0;
    for (const auto& region : regions.sets())
      for (const auto& value : region) {
        widen(value);
        ++widened;
      }
    return widened;
  }

 private:
  // A node computing the same in float32, whose narrow float values all may become float32
  // (and whose others' types are all known): its narrow values join one region.
  void add_member(ValueSets& regions, ir::Node& n) {
    if (!n.subgraphs().empty()) return;
    const FusionSupport::Resolved r = support_.resolve(n);
    if (!r.schema || !r.schema->has(Trait::float_generic)) return;
    std::vector<std::string> narrow;
    const auto check = [&](const std::vector<std::string>& names,
                           const std::vector<FormalParam>& formals) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i].empty()) continue;
        const int32_t elem = support_.inferred_elem(g_, names[i]);
        if (elem == 0) return false;
        if (!is_narrow_float(elem)) continue;
        if (!admits_float32(*r.schema, formal_at(formals, i))) return false;
        narrow.push_back(names[i]);
      }
      return true;
    };
    if (!check(n.inputs(), r.schema->inputs) || !check(n.outputs(), r.schema->outputs)) return;
    if (narrow.empty()) return;
    members_.insert(&n);
    for (const auto& name : narrow) regions.join(regions.id(name), regions.id(narrow.front()));
  }

  // The element type a node converts its input 0 to (0: it is not a conversion).
  int32_t conversion_target(ir::Node& n) {
    if (n.inputs().empty() || n.outputs().size() != 1) return 0;
    const FusionSupport::Resolved r = support_.resolve(n);
    if (!r.schema || !r.schema->conversion) return 0;
    const AttrView attrs(*r.proto, r.schema);
    return r.schema->conversion(support_.describe(g_, n, r, attrs));
  }

  // A conversion node `x` -> `y` to `to`, named after y.
  onnx::NodeProto conversion_node(const std::string& x, const std::string& y, int32_t to) {
    onnx::NodeProto node;
    node.set_op_type(converter_.op);
    node.set_name(g_.fresh_name(y + "_cast"));
    node.add_input(x);
    node.add_output(y);
    converter_.make(node, to);
    return node;
  }

  // The float32 value that stands for `value` (narrow, `elem`) in its region: the source of a
  // conversion from float32, a widened constant, or a new name that a member node or an
  // inserted conversion writes (and a conversion back for the readers outside the region,
  // when `read_outside`).
  std::string float32_source(const std::string& value, int32_t elem, bool read_outside) {
    int output = 0;
    ir::Node* p = g_.producer(value, &output);
    if (p && members_.count(p)) {
      const std::string wide = g_.fresh_name(value + "_f32");
      support_.record_widened(g_, wide, value);
      (void)g_.set_node_output(*p, output, wide);
      // Readers outside the region keep the narrow value, converted from the wide one.
      if (read_outside) (void)g_.insert_node_after(*p, conversion_node(wide, value, elem));
      return wide;
    }
    if (p && conversion_target(*p) == elem &&
        support_.inferred_elem(g_, p->inputs()[0]) == onnx::TensorProto::FLOAT)
      return p->inputs()[0];  // its rounding to the narrow type is skipped
    if (const Tensor* narrow = p ? nullptr : support_.constant(g_, value)) {
      Tensor wide = Tensor::uninitialized(DataType::float32, narrow->shape());
      widen_values(*narrow, wide.mutable_data<float>());
      const std::string name = g_.fresh_name(value + "_f32");
      (void)g_.add_initializer(name, std::move(wide));
      support_.record_widened(g_, name, value);
      return name;
    }
    // A graph input, a value from an enclosing graph, or another operator's output.
    const std::string wide = g_.fresh_name(value + "_f32");
    support_.record_widened(g_, wide, value);
    onnx::NodeProto node = conversion_node(value, wide, onnx::TensorProto::FLOAT);
    if (p)
      (void)g_.insert_node_after(*p, std::move(node));
    else
      (void)g_.insert_node_before(*g_.node_list().front(), std::move(node));
    return wide;
  }

  static void widen_values(const Tensor& narrow, float* out) {
    if (narrow.dtype() == DataType::float16)
      kernels::narrow_to_float(narrow.data<Float16>(), out, narrow.numel());
    else
      kernels::narrow_to_float(narrow.data<BFloat16>(), out, narrow.numel());
  }

  // Makes one narrow value of a region float32 for the region's nodes.
  void widen(const std::string& value) {
    const int32_t elem = support_.inferred_elem(g_, value);
    // The readers in the region, and the conversions to float32 outside it, which read the
    // wide value as it is. Taken before the producer is rewired.
    std::vector<ir::Use> members, to_float32;
    bool read_outside = captured_.count(value) > 0;
    for (const ir::Use& use : g_.uses(value)) {
      if (members_.count(use.node))
        members.push_back(use);
      else if (conversion_target(*use.node) == onnx::TensorProto::FLOAT && use.input == 0)
        to_float32.push_back(use);
      else
        read_outside = true;
    }
    const std::string wide = float32_source(value, elem, read_outside);
    for (const ir::Use& use : members) (void)g_.set_node_input(*use.node, use.input, wide);
    bypass_conversions(to_float32, wide);
    FusionSupport::drop_if_unread(g_, value);
    remove_if_unread(value);
  }

  // The conversions to float32 of a value now float32: their readers read that instead, and
  // they go. One whose output leaves the graph's nodes (a graph output) stays, reading the wide
  // value, unless it is the wide value's only reader: then that value's maker writes it.
  void bypass_conversions(const std::vector<ir::Use>& conversions, const std::string& wide) {
    std::vector<ir::Node*> kept;
    for (const ir::Use& use : conversions) {
      const std::string y = use.node->outputs()[0];
      if (captured_.count(y)) {
        kept.push_back(use.node);
        continue;
      }
      (void)g_.replace_all_uses(y, wide);
      (void)g_.remove_node(*use.node, ir::Graph::Removal::force);
    }
    int output = 0;
    ir::Node* p = g_.producer(wide, &output);
    if (kept.size() == 1 && p && p->subgraphs().empty() && !g_.is_used(wide)) {
      const std::string y = kept.front()->outputs()[0];
      (void)g_.remove_node(*kept.front(), ir::Graph::Removal::force);
      (void)g_.set_node_output(*p, output, y);
      return;
    }
    for (ir::Node* cast : kept) (void)g_.set_node_input(*cast, 0, wide);
  }

  // A conversion into the region whose output nothing reads any more.
  void remove_if_unread(const std::string& value) {
    int output = 0;
    ir::Node* p = g_.producer(value, &output);
    if (!p || members_.count(p) || g_.is_used(value) || p->outputs().size() != 1) return;
    if (conversion_target(*p) == 0) return;
    (void)g_.remove_node(*p, ir::Graph::Removal::require_unused);
  }

  FusionSupport& support_;
  const Converter& converter_;
  ir::Graph& g_;
  std::set<const ir::Node*> members_;
  std::set<std::string> captured_;  // read by subgraphs, or graph outputs
};

int64_t widen_graph(FusionSupport& support, const Converter& converter, ir::Graph& g) {
  int64_t widened = 0;
  for (ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs()) widened += widen_graph(support, converter, *sub.graph);
  return widened + Widening(support, converter, g).run();
}

}  // namespace

PassReport WidenFloat16::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  const OpsetMap opsets = model_opsets(model.header());
  FusionSupport support(ctx_, opsets);
  const Converter converter = find_converter(ctx_.registry, opsets);
  PassReport report;
  // Without an operator to convert with, the edges of a region cannot be made.
  if (!converter.make) return report;
  report.changes = widen_graph(support, converter, *model.graph());
  report.summary = plural(static_cast<uint64_t>(report.changes), "float16 or bfloat16 value") +
                   " computed in float32";
  return report;
}

}  // namespace onnxtool::exec_detail
