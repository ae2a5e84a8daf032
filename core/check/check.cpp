// SPDX-License-Identifier: Apache-2.0
// The checker's entry points: the order of the passes, and loading for check_file.
#include "core/check/check.h"

#include "core/check/context.h"
#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/ir/location.h"
#include "core/model/model.h"

namespace onnxtool {

void check_model(const onnx::ModelProto& model, const CheckOptions& options, DiagSink& sink) {
  CheckContext ctx(model, options, sink);
  check_model_header(ctx);
  // Functions are registered first: graph nodes may call them.
  for (const auto& fn : model.functions()) ctx.add_function(fn);
  check_device_configurations(ctx);
  Scope main;
  if (model.has_graph()) {
    const NodeEnv env{&ctx.model_opsets(), nullptr, 0};
    check_graph(ctx, model.graph(), kMainGraphPrefix, GraphKind::main, main, env);
  } else {
    ctx.report("model.no-graph", "graph", "the model has no graph; expected the main graph");
  }
  check_functions(ctx);
  check_training_info(ctx, main);
}

int check_file(const std::string& path, const CheckOptions& options, DiagSink& sink) {
  if (sink.file().empty()) sink.set_file(path == "-" ? "<stdin>" : path);
  LoadOptions lo;
  lo.data_dir = options.data_dir;
  try {
    Model m = load_model(path, lo, sink);
    check_model(*m.proto, options, sink);
    if (options.full && sink.ok()) {
      InferOptions io;
      io.strict = options.strict;
      io.registry = options.registry;
      infer_model(m, io, sink);
    }
    if (options.verify_data) verify_external_checksums(m, sink);
  } catch (const Error& e) {
    sink.report_fatal(e.diagnostic());
    return exit_code_for(e.kind());
  }
  return sink.exit_code();
}

}  // namespace onnxtool
