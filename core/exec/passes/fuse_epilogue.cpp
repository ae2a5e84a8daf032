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
  FusionSupport::add_int_attribute(p, kEpilogueKindAttribute, static_cast<int64_t>(e.kind));
  FusionSupport::add_floats_attribute(p, kEpilogueParamsAttribute, {e.lo, e.hi, e.alpha});
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

// Swish (SiLU) written out: q = Mul (x, s) with s = Sigmoid (x) and x made by a producer p
// that takes epilogues, x read by the two alone and s by q alone. p then applies x * sigmoid(x)
// (Epilogue::Kind::swish: the Sigmoid's arithmetic, then the Mul's product), and both go.
bool fold_swish(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  if (q.inputs().size() != 2 || q.outputs().size() != 1 || q.outputs()[0].empty()) return false;
  const FusionSupport::Resolved qr = support.resolve(q);
  if (!qr.schema || !qr.schema->multiplies) return false;
  const AttrView q_attrs(*qr.proto, qr.schema);
  if (!qr.schema->multiplies(support.describe(g, q, qr, q_attrs))) return false;
  for (int side = 0; side < 2; ++side) {
    const std::string& x = q.inputs()[static_cast<std::size_t>(side)];
    const std::string& s = q.inputs()[static_cast<std::size_t>(1 - side)];
    ir::Node* sig = support.sole_producer_for(g, s, q);
    if (!sig || x == s || sig->inputs().empty() || sig->inputs()[0] != x) continue;
    const FusionSupport::Resolved sr = support.resolve(*sig);
    if (!sr.schema || !sr.schema->epilogue) continue;
    const AttrView s_attrs(*sr.proto, sr.schema);
    kernels::Epilogue e;
    if (!sr.schema->epilogue(support.describe(g, *sig, sr, s_attrs), e) ||
        e.kind != kernels::Epilogue::Kind::sigmoid)
      continue;
    // x: made by p at its only output, read by the Sigmoid and the Mul alone.
    int output = 0;
    ir::Node* p = g.producer(x, &output);
    if (!p || output != 0 || p->outputs().size() != 1 || g.uses(x).size() != 2 ||
        support.read_outside(g, x))
      continue;
    const FusionSupport::Resolved pr = support.resolve(*p);
    if (!pr.schema || !pr.schema->takes_epilogue) continue;
    const AttrView p_attrs(*pr.proto, pr.schema);
    if (epilogue_of(p_attrs)) continue;
    const FusionNode producer = support.describe(g, *p, pr, p_attrs);
    if (producer.output_elem != onnx::TensorProto::FLOAT || !pr.schema->takes_epilogue(producer))
      continue;
    e.kind = kernels::Epilogue::Kind::swish;
    set_epilogue(*p, e);
    (void)g.remove_node(*sig, ir::Graph::Removal::force);
    FusionSupport::fold_into_producer(g, q, *p);
    return true;
  }
  return false;
}

}  // namespace

PassReport FuseEpilogue::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(*model.graph(), [&](ir::Graph& g, ir::Node& n) {
    return fold_epilogue(support, g, n) || fold_swish(support, g, n);
  });
  report.summary =
      plural(static_cast<uint64_t>(report.changes), "node") + " applied by the kernel before them";
  return report;
}

}  // namespace onnxtool::exec_detail
