// SPDX-License-Identifier: Apache-2.0
#include "core/registry/registry.h"

#include <atomic>

namespace onnxtool {

namespace {

std::atomic<Registry::Builder> g_standard_builder{nullptr};

}  // namespace

std::string normalize_domain(const std::string& domain) {
  return domain == "ai.onnx" ? std::string() : domain;
}

std::string domain_display_name(const std::string& domain) {
  return domain.empty() ? "ai.onnx" : domain;
}

void Registry::install_standard(Builder build) {
  g_standard_builder.store(build);
}

const Registry& Registry::standard() {
  static const Registry* instance = [] {
    auto* r = new Registry();
    if (Builder build = g_standard_builder.load()) build(*r);
    return r;
  }();
  return *instance;
}

OpDef& Registry::add(const std::string& domain, const std::string& name) {
  auto key = std::make_pair(normalize_domain(domain), name);
  auto& slot = ops_[key];
  if (!slot) slot = std::make_unique<OpDef>(key.first, name);
  return *slot;
}

const OpDef* Registry::find(const std::string& domain, const std::string& name) const {
  auto it = ops_.find({normalize_domain(domain), name});
  return it == ops_.end() ? nullptr : it->second.get();
}

const OpVersion* Registry::lookup(const std::string& domain, const std::string& name,
                                  int64_t opset) const {
  const OpDef* op = find(domain, name);
  return op ? op->lookup(opset) : nullptr;
}

std::vector<const OpDef*> Registry::all() const {
  std::vector<const OpDef*> out;
  for (const auto& [key, op] : ops_) out.push_back(op.get());
  return out;
}

bool Registry::knows_domain(const std::string& domain) const {
  const std::string d = normalize_domain(domain);
  auto it = ops_.lower_bound({d, ""});
  return it != ops_.end() && it->first.first == d;
}

}  // namespace onnxtool
