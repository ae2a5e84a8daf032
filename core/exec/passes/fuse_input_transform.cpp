// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_input_transform.h"

#include <set>
#include <string>
#include <vector>

#include "core/exec/passes/fusion_support.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

void add_floats(onnx::NodeProto& proto, const char* name, const std::vector<float>& values) {
  onnx::AttributeProto* a = proto.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float v : values) a->add_floats(v);
}

void set_input_transform(ir::Node& q, const InputTransform& t) {
  onnx::NodeProto& proto = q.mutable_proto();
  add_floats(proto, kInputScaleAttribute, t.scale);
  add_floats(proto, kInputShiftAttribute, t.shift);
  onnx::AttributeProto* kind = proto.add_attribute();
  kind->set_name(kInputActivationAttribute);
  kind->set_type(onnx::AttributeProto::INT);
  kind->set_i(static_cast<int64_t>(t.activation.kind));
  add_floats(proto, kInputActivationParamsAttribute,
             {t.activation.lo, t.activation.hi, t.activation.alpha});
}

// Q takes the transform P applies to Q's input 0; returns P, now removed (nullptr: no fusion).
const ir::Node* fold_transform(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  const auto pair = support.pair_with_producer(
      g, q, [](const OpVersion& v) { return static_cast<bool>(v.takes_input_transform); },
      [](const OpVersion& v) { return static_cast<bool>(v.transforms_input); });
  if (!pair) return nullptr;
  ir::Node* p = pair->p;
  const FusionSupport::Resolved &qr = pair->q_op, &pr = pair->p_op;
  const AttrView q_attrs(*qr.proto, qr.schema), p_attrs(*pr.proto, pr.schema);
  if (input_transform_of(q_attrs) || p->inputs().empty() || p->inputs()[0].empty()) return nullptr;
  // Q reads P's output as its input 0 alone (a second read would need the transformed values).
  const std::string& y = q.inputs()[0];
  for (std::size_t i = 1; i < q.inputs().size(); ++i)
    if (q.inputs()[i] == y) return nullptr;
  InputTransform t;
  if (!pr.schema->transforms_input(support.describe(g, *p, pr, p_attrs), t) || !t) return nullptr;
  if (!qr.schema->takes_input_transform(support.describe(g, q, qr, q_attrs), t)) return nullptr;

  set_input_transform(q, t);
  const std::vector<std::string> p_inputs = p->inputs();
  (void)g.set_node_input(q, 0, p_inputs[0]);
  (void)g.remove_node(*p, ir::Graph::Removal::force);  // its output has no reader left
  for (std::size_t i = 1; i < p_inputs.size(); ++i) FusionSupport::drop_if_unread(g, p_inputs[i]);
  return p;
}

// Every node of g and of the graphs inside it; a fusion removes the producer of the node
// visited, which the snapshot may list later when the nodes are not in order: those are
// skipped (compared by address only).
int64_t fold_all(FusionSupport& support, ir::Graph& g) {
  int64_t changes = 0;
  for (ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs()) changes += fold_all(support, *sub.graph);
  std::set<const ir::Node*> removed;
  for (ir::Node* n : g.node_list()) {
    if (removed.count(n) || !n->subgraphs().empty()) continue;
    if (const ir::Node* gone = fold_transform(support, g, *n)) {
      removed.insert(gone);
      ++changes;
    }
  }
  return changes;
}

}  // namespace

PassReport FuseInputTransform::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = fold_all(support, *model.graph());
  report.summary = plural(static_cast<uint64_t>(report.changes), "node") +
                   " applied by the kernel after them, to its input";
  return report;
}

}  // namespace onnxtool::exec_detail
