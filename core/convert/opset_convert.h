// SPDX-License-Identifier: Apache-2.0
// Opset version conversion: every node of every graph (subgraphs included) stepped one opset
// version at a time, up or down, through the adapters in the operators' own files
// (OpVersion::upgrade / downgrade, core/convert/adapter.h), the steps their signatures say need
// none (core/convert/signature.h), and, going down to an opset that lacks an operator, the
// function body the spec gives it.
//
// A node that cannot take a step is refused with the reason (all of them are collected; the
// caller writes nothing then). A step that can only approximate a node is refused unless
// allow_approximate, and then reported as a warning.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/passes/pass.h"

namespace onnx {
class FunctionProto;
}

namespace onnxtool {

class Registry;
struct Type;
struct OpVersion;

namespace ir {
class ModelGraph;
}

namespace convert {

// Parses an operator's function body (OpVersion::function_body); nullptr when it cannot.
using BodyParser = std::function<std::shared_ptr<const onnx::FunctionProto>(const OpVersion&)>;

struct Options {
  std::map<std::string, int64_t> targets;  // domain ("" for ai.onnx) -> opset version
  bool allow_approximate = false;
  BodyParser parse_body;  // for expanding operators into their function bodies
  // The type a value had before conversion (shape inference), or nullptr.
  std::function<const Type*(const std::string&)> type_of;
  // New constants as Constant nodes (a function body holds no initializers).
  bool constants_as_nodes = false;
};

struct NodeOutcome {
  enum class Action { kept, adapted, expanded, refused };
  std::string location;  // in the input model: graph.node[3] "name" (Op)
  std::string from;      // "Squeeze-11"
  std::string to;        // "Squeeze-13"; empty when refused or expanded
  Action action = Action::kept;
  std::vector<std::string> steps;     // "11 -> 13: axes attribute -> input"
  std::vector<std::string> warnings;  // approximations made (allow_approximate)
  std::string why;                    // refused: the reason
  std::string rule;                   // refused: convert.no-equivalent, convert.approximate, ...
};

struct Report {
  struct Domain {
    std::string domain;
    int64_t from = 0, to = 0;
  };
  std::vector<Domain> domains;
  std::vector<NodeOutcome> nodes;
  std::vector<Diagnostic> diagnostics;  // an error per refused node, a warning per approximation
  int count(NodeOutcome::Action a) const;
  bool ok() const { return count(NodeOutcome::Action::refused) == 0; }
};

const char* action_name(NodeOutcome::Action a);

// Converts the model in place. Throws Error(usage) for a target that does not exist.
Report convert_opsets(ir::ModelGraph& model, const Registry& registry, const Options& options);

// The same as a pass (core/passes/pass.h), for pipelines; the report of the last run is kept.
class ConvertOpsets final : public Pass {
 public:
  explicit ConvertOpsets(Options options) : options_(std::move(options)) {}
  std::string name() const override { return "convert-opsets"; }
  PassReport run(ir::ModelGraph& model, const PassContext& ctx) override;
  const Report& report() const { return report_; }

 private:
  Options options_;
  Report report_;
};

}  // namespace convert
}  // namespace onnxtool
