// SPDX-License-Identifier: Apache-2.0
// What an operator's kernel sees and does. The executor (core/exec/session.h) implements it;
// operator files only call it.
//
//   void relu_kernel(KernelContext& ctx) {
//     const Tensor& x = ctx.input(0);
//     Tensor& y = ctx.output(0, x.dtype(), x.shape());
//     ...
//   }
//
// A kernel reads inputs and attributes, allocates outputs through output(), may split work
// with parallel_for(), runs subgraphs with run_graph(), keeps per-node state across runs with
// cache<T>(), and reports bad input (shapes, indices) with fail(): a clear error naming the
// node, never a crash.
#pragma once

#include <any>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/registry/attrs.h"
#include "core/types/tensor.h"
#include "core/types/value.h"

namespace onnx {
class NodeProto;
class GraphProto;
}  // namespace onnx

namespace onnxtool {

struct OpVersion;

class KernelContext {
 public:
  virtual ~KernelContext() = default;

  virtual const onnx::NodeProto& node() const = 0;
  virtual const OpVersion& schema() const = 0;
  virtual int64_t opset() const = 0;
  virtual const AttrView& attrs() const = 0;

  virtual std::size_t num_inputs() const = 0;
  // Named in the node and holding a value (an omitted optional input is not present).
  virtual bool has_input(std::size_t i) const = 0;
  virtual const Value& input_value(std::size_t i) const = 0;
  // The input as a tensor; fail()s when it is absent or not a tensor.
  const Tensor& input(std::size_t i) const;

  virtual std::size_t num_outputs() const = 0;
  // Named in the node (an unused optional output need not be computed).
  virtual bool has_output(std::size_t i) const = 0;
  // Allocates output i (zero-filled) and returns it for the kernel to fill.
  virtual Tensor& output(std::size_t i, DataType type, Shape shape) = 0;
  virtual void set_output(std::size_t i, Value value) = 0;

  // Worker threads available to this kernel (>= 1).
  virtual int threads() const = 0;
  // Runs fn(begin, end) over [0, n) in chunks of at least `grain` items, on the pool.
  virtual void parallel_for(int64_t n, int64_t grain,
                            const std::function<void(int64_t, int64_t)>& fn) const = 0;

  // Runs a subgraph (If/Loop/Scan bodies) with the given inputs; outer-scope values are visible.
  virtual std::vector<Value> run_graph(const onnx::GraphProto& graph,
                                       const std::vector<Value>& inputs) = 0;

  // Per-node state kept across runs (packed weights, lookup tables).
  template <class T>
  T& cache() {
    std::any& slot = cache_slot();
    if (!slot.has_value()) slot = T{};
    return std::any_cast<T&>(slot);
  }

  // Throws a KernelFailure; the executor reports it as an error at the node.
  [[noreturn]] void fail(const std::string& message) const;

 protected:
  virtual std::any& cache_slot() = 0;
};

struct KernelFailure {
  std::string message;
};

}  // namespace onnxtool
