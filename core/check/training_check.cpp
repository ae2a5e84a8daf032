// SPDX-License-Identifier: Apache-2.0
// TrainingInfoProto (IR 7): its two graphs, which share the inference graph's values, and the
// bindings from state variables (initializers) to those graphs' outputs.
#include <set>

#include "core/check/context.h"
#include "core/ir/location.h"

namespace onnxtool {

namespace {

std::set<std::string> initializer_names(const onnx::GraphProto& g) {
  std::set<std::string> out;
  for (const auto& t : g.initializer()) out.insert(t.name());
  for (const auto& s : g.sparse_initializer()) out.insert(s.values().name());
  return out;
}

std::set<std::string> output_names(const onnx::GraphProto& g) {
  std::set<std::string> out;
  for (const auto& v : g.output()) out.insert(v.name());
  return out;
}

struct Binding {
  const MetadataProps* entries;
  const char* field;  // initialization_binding / update_binding
  const char* graph;  // the graph whose outputs the values name
  bool has_graph;
  std::set<std::string> outputs;
};

void check_binding(CheckContext& ctx, const Binding& b, const std::string& prefix,
                   const std::set<std::string>& state) {
  std::set<std::string> keys;
  for (int i = 0; i < b.entries->size(); ++i) {
    const auto& kv = b.entries->Get(i);
    const std::string loc = item_location(prefix, b.field, i, kv.key());
    if (!keys.insert(kv.key()).second)
      ctx.report("training.duplicate-binding", loc,
                 "state variable " + quoted_name(kv.key()) + " is bound more than once");
    if (!state.count(kv.key()))
      ctx.report("training.binding-unknown-key", loc,
                 quoted_name(kv.key()) +
                     " is not an initializer of the main graph or of the algorithm graph");
    if (b.has_graph && !b.outputs.count(kv.value()))
      ctx.report("training.binding-unknown-value", loc,
                 quoted_name(kv.value()) + " is not an output of the " + b.graph + " graph");
    if (!b.has_graph)
      ctx.report("training.binding-unknown-value", loc,
                 "binds to " + quoted_name(kv.value()) + " but there is no " + b.graph + " graph");
  }
}

void check_one(CheckContext& ctx, const onnx::TrainingInfoProto& t, int index, Scope& main) {
  const std::string prefix = "training_info[" + std::to_string(index) + "].";
  const NodeEnv env{&ctx.model_opsets(), nullptr, 0};
  // The inference graph is implicitly part of the training graphs (onnx.proto, IR 7): its
  // values are visible, and names there are not "shadowed" by the training graphs' own.
  auto walk = [&](const onnx::GraphProto& g, const char* which) {
    Scope scope;
    scope.parent = &main;
    scope.check_shadowing = false;
    check_graph(ctx, g, prefix + which + ".", GraphKind::training, scope, env);
  };
  if (t.has_initialization()) walk(t.initialization(), "initialization");
  if (t.has_algorithm()) walk(t.algorithm(), "algorithm");
  if (!t.has_initialization() && t.initialization_binding_size() > 0)
    ctx.report("training.missing-initialization", prefix + "initialization_binding",
               "initialization_binding is given but there is no initialization graph");
  std::set<std::string> state =
      ctx.model().has_graph() ? initializer_names(ctx.model().graph()) : std::set<std::string>{};
  if (t.has_algorithm()) state.merge(initializer_names(t.algorithm()));
  if (t.has_initialization())
    check_binding(ctx,
                  {&t.initialization_binding(), "initialization_binding", "initialization", true,
                   output_names(t.initialization())},
                  prefix, state);
  check_binding(ctx,
                {&t.update_binding(), "update_binding", "algorithm", t.has_algorithm(),
                 t.has_algorithm() ? output_names(t.algorithm()) : std::set<std::string>{}},
                prefix, state);
}

}  // namespace

void check_training_info(CheckContext& ctx, Scope& main) {
  const auto& infos = ctx.model().training_info();
  if (infos.empty()) return;
  ctx.require_ir(7, "training_info", "training_info[0]");
  for (int i = 0; i < infos.size(); ++i) check_one(ctx, infos.Get(i), i, main);
}

}  // namespace onnxtool
