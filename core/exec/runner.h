// SPDX-License-Identifier: Apache-2.0
// Walks a planned graph (private to core/exec): calls each node's kernel or function body
// through a KernelContext, drops values after their last use, and turns a kernel's failure into
// one Error at the node.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "core/exec/plan.h"

namespace onnxtool {

class ThreadPool;
class TraceRecorder;

namespace exec_detail {

// An Error already located at the node that failed; outer nodes (If, Loop, function calls)
// pass it through unchanged.
class NodeError : public Error {
 public:
  using Error::Error;
};

// The time the calling thread's runs may take (--timeout): set for the length of one run; the
// runner checks it before each node and each subgraph call (a runaway Loop stops within one
// iteration's node), and fails the node with exec.timeout when it has passed.
class RunDeadline {
 public:
  explicit RunDeadline(double seconds);  // <= 0: none
  ~RunDeadline();
  RunDeadline(const RunDeadline&) = delete;
  RunDeadline& operator=(const RunDeadline&) = delete;
  // What to say when the calling thread's deadline has passed; "" while it has not (or there
  // is none).
  static std::string passed();

 private:
  const RunDeadline* previous_;
  std::chrono::steady_clock::time_point end_;
  double seconds_ = 0;
};

class Runner {
 public:
  Runner(ThreadPool& pool, std::string file) : pool_(&pool), file_(std::move(file)) {}

  // Runs every node of frame.plan in order (timing them when the plan is timed).
  void run(Frame& frame) const;
  // Runs one node on the given inputs (nullptr: omitted) and returns its outputs. `frame` is
  // the node's own frame, the outer scope of its subgraphs (nullptr while folding).
  std::vector<Value> invoke(const PlanNode& pn, const std::vector<const Value*>& inputs,
                            const Frame* frame) const;
  // Runs a graph plan as a subgraph or function body: binds inputs, returns its outputs.
  std::vector<Value> run_graph(const GraphPlan& plan, const std::vector<Value>& inputs,
                               const Frame* parent) const;

  ThreadPool& pool() const { return *pool_; }
  const std::string& file() const { return file_; }

 private:
  void run_node(const PlanNode& pn, Frame& frame) const;
  void run_traced(const PlanNode& pn, Frame& frame, TraceRecorder& recorder) const;
  void add_time(const PlanNode& pn, std::chrono::steady_clock::time_point start) const;
  void check_input_types(const PlanNode& pn, const std::vector<const Value*>& inputs) const;
  [[noreturn]] void fail_at(const PlanNode& pn, ErrorKind kind, const std::string& rule,
                            const std::string& message) const;

  ThreadPool* pool_;
  std::string file_;
};

// The value a reference names, seen from `frame`.
const Value& resolve(const ValueRef& ref, const Frame& frame);

// The bit for a DataType in PlanNode::allowed_types.
inline uint64_t type_bit(DataType t) {
  return uint64_t{1} << static_cast<int>(t);
}

}  // namespace exec_detail
}  // namespace onnxtool
