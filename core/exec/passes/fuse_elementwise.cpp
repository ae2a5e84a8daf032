// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_elementwise.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/elementwise_region.h"
#include "core/exec/passes/fusion_support.h"
#include "core/exec/planner.h"
#include "core/ir/graph.h"
#include "core/kernels/epilogue.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

// Steps per region at most: each keeps a block of its result in cache.
constexpr std::size_t kMaxRegionSteps = 32;

struct RegionMember {
  ir::Node* node = nullptr;
  ElementwiseStep step;
};

struct RegionPlan {
  std::vector<RegionMember> members;  // in the order of the data
  std::size_t first = 0;              // the first member's place in the graph's order
  Dims dims;                          // every member's output dims
};

bool same_region_dims(const Dims& a, const Dims& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!a[i].same_as(b[i])) return false;
  return true;
}

// Finds the regions of one graph and replaces each by a region node.
class RegionBuilder {
 public:
  RegionBuilder(FusionSupport& support, PlanContext& ctx, ir::Graph& g)
      : support_(support), ctx_(ctx), g_(g) {}

  // How many nodes went into regions.
  int64_t run() {
    const std::vector<ir::Node*> order = g_.node_list();
    for (std::size_t pos = 0; pos < order.size(); ++pos) position_[order[pos]] = pos;
    for (std::size_t pos = 0; pos < order.size(); ++pos) add(*order[pos], pos);
    read_outside_ = FusionSupport::read_outside_nodes(g_);
    int64_t fused = 0;
    for (RegionPlan& r : regions_)
      if (r.members.size() >= 2 && replace(r)) fused += static_cast<int64_t>(r.members.size());
    return fused;
  }

 private:
  // The node's step when it can take part in a region, with its output's dims.
  std::optional<ElementwiseStep> step_of(ir::Node& n, Dims& dims) {
    if (!n.subgraphs().empty() || n.outputs().size() != 1 || n.outputs()[0].empty())
      return std::nullopt;
    const FusionSupport::Resolved r = support_.resolve(n);
    if (!r.schema || (!r.schema->elementwise_step && !r.schema->epilogue)) return std::nullopt;
    // A node with attributes its operator does not define stays a node: planning reports them
    // (exec.unknown-attribute) as it binds each node.
    for (const auto& a : n.proto().attribute())
      if (!r.schema->find_attribute(a.name()) && a.name().rfind(kExecutorAttributePrefix, 0) != 0)
        return std::nullopt;
    const auto facts = support_.inferred_tensor(g_, n.outputs()[0]);
    if (!facts || facts->elem != onnx::TensorProto::FLOAT) return std::nullopt;
    for (const Dim& d : facts->dims)
      if (d.is_unknown()) return std::nullopt;
    const AttrView attrs(*r.proto, r.schema);
    const FusionNode node = support_.describe(g_, n, r, attrs);
    ElementwiseStep step;
    if (r.schema->elementwise_step) {
      if (!r.schema->elementwise_step(node, step)) return std::nullopt;
    } else {
      kernels::Epilogue e;
      if (!r.schema->epilogue(node, e) || !e) return std::nullopt;
      step.fn = epilogue_step;
      step.operands = {0};
      step.params = epilogue_params(e);
    }
    if (!step.fn || step.operands.empty() || !operands_fit(n, step, facts->dims))
      return std::nullopt;
    dims = facts->dims;
    return step;
  }

  // Operands are float32 values; the inputs the step does not read are constants of one
  // element that cannot widen the output (the region's shape comes from its inputs alone).
  bool operands_fit(const ir::Node& n, const ElementwiseStep& step, const Dims& out) {
    std::vector<bool> read(n.inputs().size(), false);
    for (std::size_t i : step.operands) {
      if (i >= n.inputs().size() || n.inputs()[i].empty()) return false;
      if (support_.inferred_elem(g_, n.inputs()[i]) != onnx::TensorProto::FLOAT) return false;
      read[i] = true;
    }
    for (std::size_t i = 0; i < n.inputs().size(); ++i) {
      if (read[i] || n.inputs()[i].empty()) continue;
      const Tensor* c = support_.constant(g_, n.inputs()[i]);
      if (!c || c->numel() != 1 || c->shape().size() > out.size()) return false;
    }
    return true;
  }

  // Every operand of m is made inside region `index` or before the region's first node.
  bool operands_ready(const RegionMember& m, std::size_t index) const {
    for (std::size_t i : m.step.operands) {
      const ir::Node* p = g_.producer(m.node->inputs()[i]);
      if (!p) continue;  // a graph input, an initializer, an outer scope's value
      const auto in = region_of_.find(p);
      if (in != region_of_.end() && in->second == index) continue;
      if (position_.at(p) >= regions_[index].first) return false;
    }
    return true;
  }

  void add(ir::Node& n, std::size_t pos) {
    Dims dims;
    std::optional<ElementwiseStep> step = step_of(n, dims);
    if (!step) return;
    RegionMember m{&n, std::move(*step)};
    std::optional<std::size_t> joined;
    for (std::size_t i : m.step.operands) {
      const ir::Node* p = g_.producer(n.inputs()[i]);
      const auto in = p ? region_of_.find(p) : region_of_.end();
      if (in == region_of_.end()) continue;
      const RegionPlan& r = regions_[in->second];
      if (r.members.size() < kMaxRegionSteps && same_region_dims(r.dims, dims) &&
          operands_ready(m, in->second)) {
        joined = in->second;
        break;
      }
    }
    if (!joined) {
      regions_.push_back(RegionPlan{{}, pos, dims});
      joined = regions_.size() - 1;
    }
    regions_[*joined].members.push_back(std::move(m));
    region_of_[&n] = *joined;
  }

  // What profiles and errors call the region: its members' operators, and its first node.
  static std::string region_name(const RegionPlan& r) {
    std::string types;
    for (const RegionMember& m : r.members) types += (types.empty() ? "" : "+") + m.node->op_type();
    const std::string& first = r.members.front().node->name();
    return first.empty() ? types : types + " from " + first;
  }

  bool replace(const RegionPlan& r) {
    std::set<const ir::Node*> members;
    for (const RegionMember& m : r.members) members.insert(m.node);
    ElementwiseProgram program;
    std::vector<std::string> inputs, outputs, unread_constants;
    std::map<std::string, int> input_index;
    std::map<const ir::Node*, int> step_index;
    for (const RegionMember& m : r.members) {
      ElementwiseProgram::Step s{m.step.fn, {}, m.step.params, -1};
      for (std::size_t i : m.step.operands) {
        const std::string& v = m.node->inputs()[i];
        const ir::Node* p = g_.producer(v);
        if (p && step_index.count(p)) {
          s.operands.push_back(~step_index[p]);
          continue;
        }
        const auto [at, added] = input_index.emplace(v, static_cast<int>(inputs.size()));
        if (added) inputs.push_back(v);
        s.operands.push_back(at->second);
      }
      for (std::size_t i = 0; i < m.node->inputs().size(); ++i)
        if (std::find(m.step.operands.begin(), m.step.operands.end(), i) == m.step.operands.end())
          unread_constants.push_back(m.node->inputs()[i]);
      const std::string& out = m.node->outputs()[0];
      if (read_outside(out, members)) {
        s.output = static_cast<int>(outputs.size());
        outputs.push_back(out);
      }
      step_index[m.node] = static_cast<int>(program.steps.size());
      program.steps.push_back(std::move(s));
    }
    if (outputs.empty()) return false;  // nothing reads what the region makes
    program.num_inputs = inputs.size();
    program.num_outputs = outputs.size();

    onnx::NodeProto proto;
    proto.set_op_type(kRegionOpType);
    proto.set_domain(kExecutorDomain);
    proto.set_name(region_name(r));
    for (const auto& v : inputs) proto.add_input(v);
    for (const auto& v : outputs) proto.add_output(v);

    // The region goes where its first member was: every input exists by then, and every
    // reader of an output comes after it.
    const ir::Node* anchor = first_after(*r.members.front().node, members);
    for (auto it = r.members.rbegin(); it != r.members.rend(); ++it)
      (void)g_.remove_node(*it->node, ir::Graph::Removal::force);
    ir::Node* node = anchor ? g_.insert_node_before(*anchor, std::move(proto))
                            : g_.append_node(std::move(proto));
    if (!node) throw std::logic_error("fuse-elementwise: the region node was refused");
    for (const auto& c : unread_constants)
      if (!c.empty()) FusionSupport::drop_if_unread(g_, c);
    ctx_.elementwise_regions[node] = region_state(std::move(program));
    return true;
  }

  bool read_outside(const std::string& value, const std::set<const ir::Node*>& members) const {
    if (read_outside_.count(value)) return true;
    for (const ir::Use& u : g_.uses(value))
      if (!members.count(u.node)) return true;
    return false;
  }

  // The first node after `start` in the graph's current order that is not a member.
  const ir::Node* first_after(const ir::Node& start,
                              const std::set<const ir::Node*>& members) const {
    bool seen = false;
    for (const ir::Node& n : g_.nodes()) {
      if (&n == &start) seen = true;
      if (seen && !members.count(&n)) return &n;
    }
    return nullptr;
  }

  FusionSupport& support_;
  PlanContext& ctx_;
  ir::Graph& g_;
  std::map<const ir::Node*, std::size_t> position_;
  std::map<const ir::Node*, std::size_t> region_of_;
  std::vector<RegionPlan> regions_;
  std::set<std::string> read_outside_;
};

int64_t fuse_regions(FusionSupport& support, PlanContext& ctx, ir::Graph& g) {
  int64_t fused = 0;
  for (ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs()) fused += fuse_regions(support, ctx, *sub.graph);
  return fused + RegionBuilder(support, ctx, g).run();
}

}  // namespace

PassReport FuseElementwise::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = fuse_regions(support, ctx_, *model.graph());
  report.summary =
      plural(static_cast<uint64_t>(report.changes), "node") + " run as element-wise regions";
  return report;
}

}  // namespace onnxtool::exec_detail
