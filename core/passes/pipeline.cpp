// SPDX-License-Identifier: Apache-2.0
#include <chrono>

#include <spdlog/spdlog.h>

#include "core/passes/pass.h"

namespace onnxtool {

PassPipeline& PassPipeline::add(std::unique_ptr<Pass> pass) {
  passes_.push_back({std::move(pass), true});
  return *this;
}

bool PassPipeline::set_enabled(const std::string& name, bool enabled) {
  bool found = false;
  for (auto& e : passes_)
    if (e.pass->name() == name) {
      e.enabled = enabled;
      found = true;
    }
  return found;
}

bool PassPipeline::enabled(const std::string& name) const {
  for (const auto& e : passes_)
    if (e.pass->name() == name) return e.enabled;
  return false;
}

std::vector<std::string> PassPipeline::names() const {
  std::vector<std::string> out;
  for (const auto& e : passes_) out.push_back(e.pass->name());
  return out;
}

Pass* PassPipeline::find(const std::string& name) const {
  for (const auto& e : passes_)
    if (e.pass->name() == name) return e.pass.get();
  return nullptr;
}

std::vector<PassPipeline::Record> PassPipeline::run(ir::ModelGraph& model,
                                                    const PassContext& ctx) const {
  std::vector<Record> records;
  for (const auto& e : passes_) {
    Record r;
    r.pass = e.pass->name();
    if (!e.enabled) {
      spdlog::info("pass {}: switched off", r.pass);
      records.push_back(std::move(r));
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    r.report = e.pass->run(model, ctx);
    r.ran = true;
    r.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    spdlog::info("pass {}: {}, {:.1f} ms", r.pass,
                 r.report.summary.empty() ? (r.report.changes ? "changed the graph" : "no change")
                                          : r.report.summary,
                 r.ms);
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace onnxtool
