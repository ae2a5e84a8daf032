// SPDX-License-Identifier: Apache-2.0
// The operators a program knows. The standard ones live in ops/ (the explicit list in
// ops/ops.def), which core/ does not depend on: the program (app/, the test suites) installs the
// function that fills the standard registry, once, before first use.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/registry/schema.h"

namespace onnxtool {

class Registry {
 public:
  using Builder = void (*)(Registry&);
  // Sets the function standard() fills its registry with (ops/register_all.h provides it).
  // Call before the first standard(); later calls change nothing once it is built.
  static void install_standard(Builder build);
  // The registry of every standard operator (built on first use, then read-only: safe to share
  // between threads). Empty when no builder was installed.
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
// The domain as messages name it: "ai.onnx" for the default domain's "".
std::string domain_display_name(const std::string& domain);

}  // namespace onnxtool
