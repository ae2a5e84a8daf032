// SPDX-License-Identifier: Apache-2.0
// All operators onnxtool knows, built once from the explicit list in ops/ops.def.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/registry/schema.h"

namespace onnxtool {

class Registry {
 public:
  // The registry of every standard operator (built on first use, then read-only: safe to share
  // between threads).
  static const Registry& standard();

  // Adds an operator (used while building). "ai.onnx" is stored as "".
  OpDef& add(const std::string& domain, const std::string& name);

  const OpDef* find(const std::string& domain, const std::string& name) const;
  // The version in effect at `opset` of `domain`: greatest since <= opset; nullptr if none.
  const OpVersion* lookup(const std::string& domain, const std::string& name, int64_t opset) const;
  // Every operator, ordered by (domain, name).
  std::vector<const OpDef*> all() const;
  // Does the registry know this domain at all?
  bool knows_domain(const std::string& domain) const;

 private:
  std::map<std::pair<std::string, std::string>, std::unique_ptr<OpDef>> ops_;
};

// "" and "ai.onnx" both mean the default domain; returns "" for either.
std::string normalize_domain(const std::string& domain);

}  // namespace onnxtool
