// SPDX-License-Identifier: Apache-2.0
// Rewrites of a model as a sequence of passes over its editable graph (core/ir/graph.h).
//
// A pass does one kind of edit (fold constants, step an opset version, fuse an activation into
// its producer), says how much it changed, and can be switched off by name. A pipeline runs
// its passes in order and logs one line per pass for -v:
//   pass fold-constants: 47 nodes folded into constants (1.2 MiB), 3.1 ms
//
// DESIGN: a new pass is a class deriving from Pass in the directory of the verb that runs it
// (core/exec/passes/ for the executor's, core/convert/ for the converter's), added to that
// verb's pipeline. It edits only through ir::Graph's methods and asks the registry for what it
// needs to know of an operator by trait, never by name. Each pass is proven by a test that
// compares what the model computes with the pass switched on and off.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace onnxtool {

class Registry;
struct InferResult;

namespace ir {
class ModelGraph;
}

// What a pass may consult besides the graph.
struct PassContext {
  const Registry* registry = nullptr;
  // Types and shapes shape inference found for the model before the pipeline ran (values by
  // name, graphs by ir::Graph::origin()); nullptr when it was not run.
  const InferResult* inferred = nullptr;
};

struct PassReport {
  int64_t changes = 0;  // edits made (0: the graph is as it was)
  std::string summary;  // one line, for -v: "47 nodes folded into constants (1.2 MiB)"
};

class Pass {
 public:
  virtual ~Pass() = default;
  // Stable: what --disable-pass names.
  virtual std::string name() const = 0;
  virtual PassReport run(ir::ModelGraph& model, const PassContext& ctx) = 0;
};

class PassPipeline {
 public:
  PassPipeline& add(std::unique_ptr<Pass> pass);
  // Switches a pass on or off by name; false when the pipeline has no pass of that name.
  bool set_enabled(const std::string& name, bool enabled);
  bool enabled(const std::string& name) const;
  std::vector<std::string> names() const;
  Pass* find(const std::string& name) const;

  struct Record {
    std::string pass;
    bool ran = false;  // false: switched off
    PassReport report;
    double ms = 0;
  };
  // Runs the enabled passes in order and logs what each changed (spdlog, info level).
  std::vector<Record> run(ir::ModelGraph& model, const PassContext& ctx) const;

 private:
  struct Entry {
    std::unique_ptr<Pass> pass;
    bool enabled = true;
  };
  std::vector<Entry> passes_;
};

}  // namespace onnxtool
