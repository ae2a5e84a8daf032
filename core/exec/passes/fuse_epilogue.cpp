// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_epilogue.h"

#include <utility>

#include "core/exec/passes/fusion_support.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

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

bool fold_epilogue(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  if (q.outputs().size() != 1) return false;
  const auto pair = support.pair_with_producer(
      g, q, [](const OpVersion& v) { return static_cast<bool>(v.epilogue); },
      [](const OpVersion& v) { return static_cast<bool>(v.takes_epilogue); });
  if (!pair) return false;
  ir::Node* p = pair->p;
  const FusionSupport::Resolved &qr = pair->q_op, &pr = pair->p_op;
  const AttrView q_attrs(*qr.proto, qr.schema), p_attrs(*pr.proto, pr.schema);
  if (epilogue_of(p_attrs)) return false;  // one epilogue per node

  kernels::Epilogue e;
  if (!qr.schema->epilogue(support.describe(g, q, qr, q_attrs), e) || !e) return false;
  const FusionNode producer = support.describe(g, *p, pr, p_attrs);
  if (!pr.schema->takes_epilogue(producer)) return false;
  // A producer whose output is narrower than float32 (float16, bfloat16) applies the epilogue
  // in float32 and rounds after it, where the nodes round before it. For a clamp that is the
  // same value: rounding to nearest is monotonic, so it commutes with max and min, whatever
  // the bounds. Not for the other kinds (a LeakyRelu would round twice as written).
  if (producer.output_elem != onnx::TensorProto::FLOAT && e.kind != kernels::Epilogue::Kind::clamp)
    return false;

  set_epilogue(*p, e);
  FusionSupport::fold_into_producer(g, q, *p);
  return true;
}

}  // namespace

PassReport FuseEpilogue::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(
      *model.graph(), [&](ir::Graph& g, ir::Node& n) { return fold_epilogue(support, g, n); });
  report.summary =
      plural(static_cast<uint64_t>(report.changes), "node") + " applied by the kernel before them";
  return report;
}

}  // namespace onnxtool::exec_detail
