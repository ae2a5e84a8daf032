// SPDX-License-Identifier: Apache-2.0
// The reference executor: plans a model once, then runs it on inputs.
//
//   Model m = load_model("model.onnx", {}, sink);
//   Session s(m, {.threads = 2});
//   std::vector<Value> outs = s.run({{"x", Value(x)}});
//
// Loading a session views the model as an editable graph (ir::ModelGraph::view: nothing large is
// copied), runs shape inference, then the executor's passes over the graph (core/exec/passes/;
// the first, fold-constants, runs once, here, every deterministic node whose inputs are all
// constants and turns its outputs into initializers), then plans it: every node is bound to a
// kernel (registry lookup by domain, op type and the opset the model imports, through
// core/registry/binding.h), a model-local function, or the function body the spec gives the
// operator, and its kernel's prepare step runs once; nodes with none are collected into one
// PlanError. Initializers are used in place (views of the model's raw_data or mapped external
// file). Every value is dropped right after its last use. Subgraphs (If/Loop/Scan bodies) are
// planned with their parent as outer scope.
//
// Buffer reuse goes through the allocator: a dropped value's storage is freed at once, and glibc
// hands the same block to the next allocation of a similar size (measured on a chain of
// element-wise nodes: no page fault per run for tensors up to 32 MiB after the first run).
// Blocks above 32 MiB are mmap'd afresh each time; a pool in the executor would keep those too,
// but needs Tensor storage whose release the executor controls (a Storage::adopt(data, bytes,
// release) in core/types), which does not exist yet.
//
// A kernel's failure at run time (KernelFailure, Error, any std::exception) becomes one Error
// whose location names the node, nested through subgraphs and function calls.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/error.h"
#include "core/exec/observer.h"
#include "core/exec/trace.h"
#include "core/types/value.h"

namespace onnx {
class FunctionProto;
class TypeProto;
}  // namespace onnx

namespace onnxtool {

struct Model;
struct OpVersion;
struct InferResult;
class Registry;
class ThreadPool;

// Turns an operator's function body (OpVersion::function_body, the ONNX textual syntax) into a
// FunctionProto; returns nullptr when it cannot. Provided by core/text; see function_body.h.
using FunctionBodyParser =
    std::function<std::shared_ptr<const onnx::FunctionProto>(const OpVersion&)>;

struct SessionOptions {
  int threads = 0;                     // 0: every hardware thread
  const Registry* registry = nullptr;  // nullptr: Registry::standard()
  bool fold_constants = true;          // the same as disabling the pass "fold-constants"
  // Graph rewrites for speed (the fuse-* passes); off, results are bit-for-bit those of the
  // graph as written, on, they may differ by float rounding.
  bool fuse = true;
  // Executor passes to leave out, by name (see executor_pass_names()); an unknown name is a
  // usage Error when the session is made.
  std::vector<std::string> disabled_passes;
  // Run shape inference at planning, so that kernels' prepare steps know input shapes.
  bool infer_shapes = true;
  bool profile = false;  // time every node of the main graph
  // With profile: record the profiled nodes' spans, and their parallel chunks on each thread,
  // for trace() (run --profile-trace).
  bool trace = false;
  // A run that takes longer fails at the node it reached (exec.timeout); 0: no limit.
  double timeout_seconds = 0;
  // nullptr: the parser core/text registers (default_function_body_parser()), if any.
  FunctionBodyParser function_parser;
  // Run a spec function's body even where the operator has a kernel (only for versions whose
  // body is written). For checking bodies against kernels and the backend data; slower.
  bool prefer_function_bodies = false;
};

// Every problem planning found, each a diagnostic naming the node; what() is the first one and a
// count of the rest. Rules: exec.no-kernel, exec.undefined-value, exec.bad-function,
// exec.unknown-domain, exec.bad-graph, exec.cycle.
class PlanError : public Error {
 public:
  PlanError(std::vector<Diagnostic> problems, std::string file);
  const std::vector<Diagnostic>& problems() const { return problems_; }
  // "no kernel for Foo-13, Bar-7" style summary of the distinct messages (for test reports).
  std::string summary() const;

 private:
  std::vector<Diagnostic> problems_;
};

struct NodeProfile {
  std::string location;        // graph.node[3] "conv1" (Conv), nested for subgraph nodes
  std::string op_type;         // domain-qualified when not the default domain
  int depth = 0;               // 0: the main graph; 1: a body of a main-graph node; ...
  bool has_subgraphs = false;  // an If, Loop or Scan: its time includes its bodies' nodes
  int64_t calls = 0;
  int64_t total_ns = 0;
  int64_t macs = 0;  // multiply-accumulates over those calls; 0 when the operator counts none
};

struct SessionStats {
  int64_t nodes = 0;           // nodes run per call of the main graph (after folding)
  int64_t folded_nodes = 0;    // nodes computed once at load
  int64_t constant_bytes = 0;  // bytes held by folded constants
  int64_t fold_too_large = 0;  // nodes left unfolded by PlanContext::max_folded_bytes
  int64_t function_calls = 0;  // nodes run through a function body
  int64_t assembled = 0;       // concatenations whose producers write into the output
  int64_t placed_inputs = 0;   // their inputs made in place (not copied)
  int64_t channels_last = 0;   // values held channels-last between two kernels
  double plan_ms = 0;          // planning incl. folding
};

namespace exec_detail {
struct GraphPlan;
struct Frame;
class Runner;
}  // namespace exec_detail

class Session {
 public:
  // Keeps a reference to `model` (its proto and mapped data must outlive the session).
  // Throws PlanError when a node cannot be run, Error for other model problems.
  explicit Session(const Model& model, SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  struct Port {
    std::string name;
    const onnx::TypeProto* type = nullptr;  // nullptr when the model gives none
    bool has_initializer = false;           // an input with a default (may be omitted)
  };
  // Graph inputs in order (including initializer-backed ones), and graph outputs.
  const std::vector<Port>& inputs() const { return inputs_; }
  const std::vector<Port>& outputs() const { return outputs_; }

  // Runs the main graph. feeds: by input name; inputs with an initializer may be omitted.
  // Wrong names, missing inputs, and values whose kind, element type or rank (or a fixed dim)
  // disagree with the model's declaration are an Error (rule exec.bad-input) that lists what the
  // model expects. Returns the outputs in graph order. Several threads may call run() at once:
  // the plan and the kernels' prepared state are read-only, each call has its own frame, and
  // the worker pool serves one call at a time (the others run their parallel loops inline).
  // `observer`, when given, is told of every value the run produces (core/exec/observer.h);
  // with the session's folding and fusions off, that is every value the graph names.
  std::vector<Value> run(const std::vector<std::pair<std::string, Value>>& feeds,
                         const ValueObserver* observer = nullptr);

  const SessionStats& stats() const { return stats_; }
  // What planning found that does not stop a run, such as nodes listed before the values they
  // read (exec.not-topological: they run in the order of their data).
  const std::vector<Diagnostic>& warnings() const { return warnings_; }
  // Per node, accumulated over every run since creation (options.profile): the main graph's
  // nodes in order, each followed by the nodes of its subgraphs (calls count every iteration).
  std::vector<NodeProfile> profile() const;
  // Starts the accumulation of profile() (and of trace()) afresh (after warm-up runs).
  void reset_profile();
  // options.trace: the spans of the runs since reset_profile(), by start time; their nodes index
  // profile(). Empty without options.trace. Call between runs.
  std::vector<TraceSpan> trace() const;
  // Whether trace() stopped at its cap of spans (kMaxTraceSpans).
  bool trace_truncated() const;
  static constexpr std::size_t kMaxTraceSpans = 1'000'000;  // 48 MB
  int threads() const;

 private:
  void bind_feeds(const std::vector<std::pair<std::string, Value>>& feeds,
                  exec_detail::Frame& frame) const;
  void run_traced(exec_detail::Frame& frame) const;
  // Findings that did not stop planning go to *warnings, when given.
  std::unique_ptr<exec_detail::GraphPlan> build_plan(
      bool defaults_as_constants, SessionStats& stats,
      std::vector<Diagnostic>* warnings = nullptr) const;
  // The plan for these feeds: plan_, or (built on first need) plan_fed_defaults_ when a feed
  // replaces an initializer's default that plan_ folded as a constant.
  const exec_detail::GraphPlan& plan_for(const std::vector<std::pair<std::string, Value>>& feeds);

  const Model& model_;
  SessionOptions options_;
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<TraceRecorder> recorder_;  // options.trace
  std::unique_ptr<exec_detail::Runner> runner_;
  std::unique_ptr<exec_detail::GraphPlan> plan_;
  std::unique_ptr<exec_detail::GraphPlan> plan_fed_defaults_;
  std::once_flag plan_fed_defaults_once_;
  std::unique_ptr<InferResult> inferred_;
  std::vector<Port> inputs_, outputs_;
  SessionStats stats_;
  std::vector<Diagnostic> warnings_;
};

// The passes the executor runs over a model's graph before planning, in order (core/exec/passes/):
// "fold-constants" computes at load what cannot change between runs.
std::vector<std::string> executor_pass_names();

// A one-line description of what the model expects, for error messages:
// "x: float[N,3,224,224], mask: bool[N] (optional)".
std::string describe_ports(const std::vector<Session::Port>& ports);

// Checks a value against a declared type; returns "" when it fits, else why not
// ("has element type int32, expected float").
std::string value_type_mismatch(const Value& v, const onnx::TypeProto& type);

}  // namespace onnxtool
