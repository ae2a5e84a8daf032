// SPDX-License-Identifier: Apache-2.0
#include "core/check/context.h"

#include "core/check/rules.h"
#include "core/diag/error.h"
#include "core/registry/registry.h"

namespace onnxtool {

bool Scope::visible(const std::string& name) const {
  for (const Scope* s = this; s; s = s->parent)
    if (s->defined.count(name)) return true;
  return false;
}

const onnx::TypeProto* Scope::type_of(const std::string& name) const {
  for (const Scope* s = this; s; s = s->parent) {
    auto it = s->types.find(name);
    if (it != s->types.end()) return it->second;
  }
  return nullptr;
}

CheckContext::CheckContext(const onnx::ModelProto& model, const CheckOptions& options,
                           DiagSink& sink)
    : model_(&model),
      options_(&options),
      registry_(options.registry ? options.registry : &Registry::standard()),
      sink_(&sink),
      ir_version_(model.ir_version()) {}

void CheckContext::report(std::string_view rule, const std::string& location, std::string message) {
  const CheckRule* r = find_check_rule(rule);
  // Every rule reported here is in the table; a missing one is a bug, caught by the tests.
  if (!r) throw_internal("checker rule " + std::string(rule) + " is not in the rule table");
  Severity severity = r->severity;
  if (r->strict && options_->strict) severity = Severity::error;
  sink_->report({severity, std::string(rule), "", location, std::move(message), {}});
}

void CheckContext::report_foreign(const std::string& rule, const std::string& location,
                                  std::string message) {
  sink_->report({Severity::error, rule, "", location, std::move(message), {}});
}

void CheckContext::too_deep(const std::string& location) {
  if (too_deep_reported_) return;
  too_deep_reported_ = true;
  report("model.too-deep", location,
         "nesting goes deeper than " + std::to_string(kMaxCheckDepth) +
             " levels; what lies below is not checked");
}

void CheckContext::require_ir(int64_t min_ir, const std::string& feature,
                              const std::string& location) {
  // A model without ir_version is reported once as such; comparing against 0 would only add
  // noise.
  if (ir_version_ <= 0 || ir_version_ >= min_ir) return;
  if (!ir_features_reported_.insert(feature).second) return;
  report("model.ir-version-too-old", location,
         feature + " needs ir_version >= " + std::to_string(min_ir) + ", the model declares " +
             std::to_string(ir_version_));
}

void CheckContext::note_custom_domain(const std::string& domain, const std::string& location) {
  if (!custom_domains_noted_.insert(domain).second) return;
  report(
      "node.custom-domain", location,
      "domain " + domain + " is not one onnxtool knows; its nodes are checked structurally only");
}

}  // namespace onnxtool
