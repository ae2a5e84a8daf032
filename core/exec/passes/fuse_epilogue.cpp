// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_epilogue.h"

#include <utility>

#include "core/exec/passes/fusion_support.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/util/format.h"

namespace onnxtool::exec_detail {

namespace {

class Fuser {
 public:
  Fuser(PlanContext& ctx, OpsetMap opsets) : support_(ctx, std::move(opsets)) {}

  void fuse_graph(ir::Graph& g);
  int64_t fused() const { return fused_; }

 private:
  bool try_fuse(ir::Graph& g, ir::Node& q);

  FusionSupport support_;
  int64_t fused_ = 0;
};

void set_epilogue(ir::Node& p, const kernels::Epilogue& e) {
  onnx::NodeProto& proto = p.mutable_proto();
  onnx::AttributeProto* kind = proto.add_attribute();
  kind->set_name(kEpilogueKindAttribute);
  kind->set_type(onnx::AttributeProto::INT);
  kind->set_i(static_cast<int64_t>(e.kind));
  onnx::AttributeProto* params = proto.add_attribute();
  params->set_name(kEpilogueParamsAttribute);
  params->set_type(onnx::AttributeProto::FLOATS);
  for (float v : {e.lo, e.hi, e.alpha}) params->add_floats(v);
}

bool Fuser::try_fuse(ir::Graph& g, ir::Node& q) {
  if (q.inputs().empty() || q.outputs().size() != 1 || q.outputs()[0].empty()) return false;
  const FusionSupport::Resolved qr = support_.resolve(q);
  if (!qr.schema || !qr.schema->epilogue) return false;
  ir::Node* p = support_.sole_producer_for(g, q.inputs()[0], q);
  if (!p) return false;
  const FusionSupport::Resolved pr = support_.resolve(*p);
  if (!pr.schema || !pr.schema->takes_epilogue) return false;
  const AttrView q_attrs(qr.proto, qr.schema), p_attrs(pr.proto, pr.schema);
  if (epilogue_of(p_attrs)) return false;  // one epilogue per node

  kernels::Epilogue e;
  if (!qr.schema->epilogue(support_.describe(g, q, qr, q_attrs), e) || !e) return false;
  if (!pr.schema->takes_epilogue(support_.describe(g, *p, pr, p_attrs))) return false;

  set_epilogue(*p, e);
  const std::string y = q.outputs()[0];
  const std::vector<std::string> q_inputs = q.inputs();
  (void)g.remove_node(q, ir::Graph::Removal::force);
  (void)g.set_node_output(*p, 0, y);
  for (std::size_t i = 1; i < q_inputs.size(); ++i) FusionSupport::drop_if_unread(g, q_inputs[i]);
  ++fused_;
  return true;
}

void Fuser::fuse_graph(ir::Graph& g) {
  for (ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs()) fuse_graph(*sub.graph);
  // node_list() is a snapshot; a fusion removes only the node being visited.
  for (ir::Node* n : g.node_list())
    if (n->subgraphs().empty()) try_fuse(g, *n);
}

}  // namespace

PassReport FuseEpilogue::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  Fuser fuser(ctx_, model_opsets(model.header()));
  fuser.fuse_graph(*model.graph());
  PassReport report;
  report.changes = fuser.fused();
  report.summary =
      plural(static_cast<uint64_t>(fuser.fused()), "node") + " applied by the kernel before them";
  return report;
}

}  // namespace onnxtool::exec_detail
