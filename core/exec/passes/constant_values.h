// SPDX-License-Identifier: Apache-2.0
// The values names hold on every run, as the executor's passes see them: initializers (and
// sparse ones) of a graph or an enclosing one, and main-graph inputs' defaults when the plan
// treats them as constants (PlanContext::defaults_as_constants). Each is decoded once per pass.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "core/types/value.h"

namespace onnxtool::ir {
class Graph;
}

namespace onnxtool::exec_detail {

struct PlanContext;

class ConstantValues {
 public:
  explicit ConstantValues(const PlanContext& ctx) : ctx_(ctx) {}
  // The value `name` holds on every run, as seen from g; nullptr when it is not a constant (or
  // is malformed: planning reports that).
  const Value* find(const ir::Graph& g, const std::string& name);

 private:
  const Value* decode(const ir::Graph& owner, const std::string& name);

  const PlanContext& ctx_;
  // By the graph that defines them and their name.
  std::map<std::pair<const ir::Graph*, std::string>, Value> values_;
};

}  // namespace onnxtool::exec_detail
