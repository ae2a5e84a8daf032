// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_scaled_output.h"

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

// A producer already finishing in float, whose scale (`scale_free`) or bias input is still
// empty and which has taken no residual or epilogue (those come after the shift).
struct Finishing {
  ir::Node* p = nullptr;
  int64_t index = -1;  // of the scale input; the bias follows
};

std::optional<Finishing> finishing_producer(FusionSupport& support, ir::Graph& g,
                                            const std::string& value, const ir::Node& reader,
                                            bool scale_free) {
  ir::Node* p = support.sole_producer_for(g, value, reader);
  if (!p) return std::nullopt;
  const FusionSupport::Resolved pr = support.resolve(*p);
  if (!pr.schema) return std::nullopt;
  const AttrView attrs(*pr.proto, pr.schema);
  const int64_t index = scaled_output_of(attrs);
  if (index < 0 || epilogue_of(attrs) || residual_input_of(attrs) >= 0) return std::nullopt;
  const auto at = static_cast<std::size_t>(index);
  if (at + 1 >= p->inputs().size()) return std::nullopt;
  if ((scale_free && !p->inputs()[at].empty()) || !p->inputs()[at + 1].empty()) return std::nullopt;
  return Finishing{p, index};
}

// Step 1: q converts P's int32 sums to float32.
bool fold_conversion(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  if (q.inputs().size() != 1) return false;
  const auto pair = support.pair_with_producer(
      g, q, [](const OpVersion& v) { return static_cast<bool>(v.conversion); },
      [](const OpVersion& v) { return static_cast<bool>(v.takes_scaled_output); });
  if (!pair) return false;
  ir::Node* p = pair->p;
  const AttrView q_attrs(*pair->q_op.proto, pair->q_op.schema);
  const AttrView p_attrs(*pair->p_op.proto, pair->p_op.schema);
  if (scaled_output_of(p_attrs) >= 0 || epilogue_of(p_attrs) || residual_input_of(p_attrs) >= 0)
    return false;
  if (p->inputs().size() > pair->p_op.schema->inputs.size()) return false;
  if (pair->q_op.schema->conversion(support.describe(g, q, pair->q_op, q_attrs)) !=
      onnx::TensorProto::FLOAT)
    return false;
  if (!pair->p_op.schema->takes_scaled_output(support.describe(g, *p, pair->p_op, p_attrs)))
    return false;
  // The scale and the bias: none yet.
  FusionSupport::append_fused_inputs(g, *p, *pair->p_op.schema, kScaledOutputAttribute, {"", ""});
  FusionSupport::fold_into_producer(g, q, *p);
  return true;
}

// One float32 value, as inference found it (every dim known to be 1).
bool one_float(const FusionSupport& support, const ir::Graph& g, const std::string& value) {
  const auto facts = support.inferred_tensor(g, value);
  if (!facts || facts->elem != onnx::TensorProto::FLOAT) return false;
  for (const Dim& d : facts->dims)
    if (!d.is_known() || d.value() != 1) return false;
  return true;
}

// Step 2: q multiplies the float sums by one value (either side), with no broadcasting beyond
// the sums' own shape.
bool fold_scale(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  if (q.inputs().size() != 2 || q.inputs()[0].empty() || q.inputs()[1].empty()) return false;
  const FusionSupport::Resolved qr = support.resolve(q);
  if (!qr.schema || !qr.schema->multiplies) return false;
  const AttrView q_attrs(*qr.proto, qr.schema);
  if (!qr.schema->multiplies(support.describe(g, q, qr, q_attrs))) return false;
  for (std::size_t side = 0; side < 2; ++side) {
    const auto f = finishing_producer(support, g, q.inputs()[side], q, true);
    const std::string& scale = q.inputs()[1 - side];
    if (!f || !one_float(support, g, scale)) continue;
    const auto sums = support.inferred_tensor(g, q.inputs()[side]);
    const auto product = support.inferred_tensor(g, q.outputs()[0]);
    if (!sums || !product || sums->dims != product->dims) continue;
    (void)g.set_node_input(*f->p, static_cast<int>(f->index), scale);
    FusionSupport::fold_into_producer(g, q, *f->p);
    // The scale may be made after P: P moves down to where q was, no further (the scale cannot
    // depend on P's output, which q alone read).
    if (!g.is_topologically_sorted()) (void)g.toposort();
    return true;
  }
  return false;
}

// Step 3: q adds a constant that varies along the channel axis at most (a shift alone).
bool fold_bias(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  const FusionSupport::Resolved qr = support.resolve(q);
  if (!qr.schema || !qr.schema->channel_affine || q.inputs().empty()) return false;
  const auto f = finishing_producer(support, g, q.inputs()[0], q, false);
  if (!f) return false;
  const AttrView q_attrs(*qr.proto, qr.schema);
  ChannelAffine affine;
  if (!qr.schema->channel_affine(support.describe(g, q, qr, q_attrs), affine)) return false;
  for (double s : affine.scale)
    if (s != 1.0) return false;
  const auto sums = support.inferred_tensor(g, q.inputs()[0]);
  if (!sums || sums->dims.size() < 2 || !sums->dims[1].is_known()) return false;
  const int64_t channels = sums->dims[1].value();
  if (!affine.fits(channels, static_cast<int64_t>(sums->dims.size()))) return false;
  Tensor bias = Tensor::uninitialized(DataType::float32, {channels});
  float* b = bias.mutable_data<float>();
  // The shift's values came from a float constant: exact as float.
  for (int64_t c = 0; c < channels; ++c) b[c] = static_cast<float>(affine.shift_at(c));
  const std::string name = g.fresh_name(f->p->outputs()[0] + "_bias");
  (void)g.add_initializer(name, std::move(bias));
  (void)g.set_node_input(*f->p, static_cast<int>(f->index) + 1, name);
  FusionSupport::fold_into_producer(g, q, *f->p);
  return true;
}

}  // namespace

PassReport FuseScaledOutput::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(*model.graph(), [&](ir::Graph& g, ir::Node& n) {
    return fold_conversion(support, g, n) || fold_scale(support, g, n) || fold_bias(support, g, n);
  });
  report.summary = plural(static_cast<uint64_t>(report.changes), "node") +
                   " finishing an integer product in float, done by its kernel";
  return report;
}

}  // namespace onnxtool::exec_detail
