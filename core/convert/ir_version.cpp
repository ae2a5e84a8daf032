// SPDX-License-Identifier: Apache-2.0
#include "core/convert/ir_version.h"

#include <algorithm>

#include "core/check/check.h"
#include "core/diag/error.h"
#include "core/registry/binding.h"
#include "core/version.h"
#include "onnx.pb.h"

namespace onnxtool::convert {

int64_t ir_for_opsets(const onnx::ModelProto& model) {
  int64_t ir = 3;
  for (const auto& [domain, version] : model_opsets(model))
    if (find_opset_domain(domain)) ir = std::max(ir, min_ir_for_opset(domain, version));
  return ir;
}

std::vector<Diagnostic> check_errors(const onnx::ModelProto& model, const std::string& file,
                                     const std::string& rule_prefix) {
  DiagSink sink;
  check_model(model, {}, sink);
  std::vector<Diagnostic> out;
  for (const auto& d : sink.diagnostics()) {
    if (d.severity != Severity::error || d.rule.rfind(rule_prefix, 0) != 0) continue;
    out.push_back(d);
    if (out.back().file.empty()) out.back().file = file;
  }
  return out;
}

std::vector<Diagnostic> restamp_ir(onnx::ModelProto& model, std::optional<int64_t> requested,
                                   bool went_down, const std::string& file) {
  const int64_t original = model.ir_version();
  const int64_t needed = ir_for_opsets(model);
  const std::string too_old = "model.ir-version-too-old";
  if (requested) {
    if (*requested < 1 || *requested > kNewestIrVersion)
      throw_usage("--ir-version " + std::to_string(*requested) + ": IR versions are 1 to " +
                  std::to_string(kNewestIrVersion));
    model.set_ir_version(*requested);
    std::vector<Diagnostic> errors = check_errors(model, file, too_old);
    if (*requested < needed) {
      Diagnostic d;
      d.severity = Severity::error;
      d.rule = "convert.ir-version";
      d.file = file;
      d.location = "opset_import";
      d.message = "the opsets need ir_version >= " + std::to_string(needed) + ", not " +
                  std::to_string(*requested);
      errors.insert(errors.begin(), d);
    }
    return errors;
  }
  if (went_down) {
    for (int64_t ir = std::min(needed, original); ir <= original; ++ir) {
      model.set_ir_version(ir);
      // IR 3 also wants every initializer to be a graph input.
      if (check_errors(model, file, too_old).empty() &&
          (ir > 3 || check_errors(model, file, "graph.initializer-not-input").empty()))
        return {};
    }
    model.set_ir_version(original);
    return {};
  }
  model.set_ir_version(std::max(original, needed));
  return {};
}

}  // namespace onnxtool::convert
