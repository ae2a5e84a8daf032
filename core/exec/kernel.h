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
// A kernel reads inputs and attributes, allocates outputs through output() (zero-filled) or
// output_uninitialized() (when it writes every element), borrows temporary memory with
// scratch(), may split work with parallel_for(), runs subgraphs with run_graph(), and reports
// bad input (shapes, indices) with fail(): a clear error naming the node, never a crash.
//
// A kernel that needs work done once per node (decoding attributes, checking geometry, packing
// constant weights, choosing a SIMD variant) splits into a prepare step and a run step:
//
//   struct ConvState { int64_t group; std::optional<Tensor> packed_w; };
//   ConvState prepare_conv(PrepareContext& p) { ... p.constant_tensor(1) ... }
//   void run_conv(KernelContext& ctx, const ConvState& s) { ... }
//   op.all().kernel(prepared_kernel(prepare_conv, run_conv));
//
// Planning calls prepare once per node, knowing which inputs are constants and what inference
// knows of the others; every run (on any thread) reads the same immutable state. A prepare
// that fail()s does not stop planning: the node reports that error each time it runs, exactly
// as the kernel would have.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/types/tensor.h"
#include "core/types/value.h"

namespace onnx {
class NodeProto;
class GraphProto;
}  // namespace onnx

namespace onnxtool {

struct OpVersion;
struct Type;

// What the prepare step and the kernel both see of a node: helpers that only decode attributes
// or report a failure take this, so one function serves either side.
class NodeInfo {
 public:
  virtual ~NodeInfo() = default;

  virtual const onnx::NodeProto& node() const = 0;
  virtual const OpVersion& schema() const = 0;
  virtual int64_t opset() const = 0;
  virtual const AttrView& attrs() const = 0;

  // How many outputs the node lists, and whether it names output i (an unused optional output
  // is listed with an empty name, or not at all).
  std::size_t listed_outputs() const;
  bool names_output(std::size_t i) const;

  // Throws a KernelFailure; the executor reports it as an error at the node.
  [[noreturn]] void fail(const std::string& message) const;
};

// What a prepare step sees of one node at planning.
class PrepareContext : public NodeInfo {
 public:
  virtual std::size_t num_inputs() const = 0;
  virtual bool has_input(std::size_t i) const = 0;
  // The input's value when it is the same on every run (an initializer, a Constant, a folded
  // value); nullptr otherwise.
  virtual const Value* constant_input(std::size_t i) const = 0;
  // The constant input as a tensor; nullptr when it is not a constant tensor.
  const Tensor* constant_tensor(std::size_t i) const;
  // What shape inference knows of the input's type, or nullptr (a function body's values).
  virtual const Type* input_type(std::size_t i) const = 0;
  // The input's shape when every dim is known (from the constant, else from inference).
  std::optional<Shape> static_shape(std::size_t i) const;

  // Worker threads the runs will have (>= 1).
  virtual int threads() const = 0;
};

// A tensor type's shape when inference knows every dim; nullopt otherwise.
std::optional<Shape> known_shape(const Type& type);

class KernelContext : public NodeInfo {
 public:
  virtual std::size_t num_inputs() const = 0;
  // Named in the node and holding a value (an omitted optional input is not present).
  virtual bool has_input(std::size_t i) const = 0;
  virtual const Value& input_value(std::size_t i) const = 0;
  // The input as a tensor; fail()s when it is absent or not a tensor.
  const Tensor& input(std::size_t i) const;

  virtual std::size_t num_outputs() const = 0;
  // Named in the node and read by something (a node, a subgraph or the graph's outputs; with
  // the fusions off, every named output counts as read): an output it says no to need not be
  // computed.
  virtual bool has_output(std::size_t i) const = 0;
  // Allocates output i (zero-filled) and returns it for the kernel to fill.
  virtual Tensor& output(std::size_t i, DataType type, Shape shape) = 0;
  // The same without zero-filling: for kernels that write every element.
  virtual Tensor& output_uninitialized(std::size_t i, DataType type, Shape shape) {
    return output(i, type, std::move(shape));
  }
  virtual void set_output(std::size_t i, Value value) = 0;

  // Worker threads available to this kernel (>= 1).
  virtual int threads() const = 0;
  // Runs fn(begin, end) over [0, n) in chunks of at least `grain` items, on the pool.
  virtual void parallel_for(int64_t n, int64_t grain,
                            const std::function<void(int64_t, int64_t)>& fn) const = 0;

  // Runs a subgraph (If/Loop/Scan bodies) with the given inputs; outer-scope values are visible.
  virtual std::vector<Value> run_graph(const onnx::GraphProto& graph,
                                       const std::vector<Value>& inputs) = 0;

  // Uninitialised memory for `count` elements of T (64-byte aligned), valid until the kernel
  // returns; allocated through the Storage allocator, so it is counted like tensors.
  template <class T>
  T* scratch(std::size_t count) {
    return reinterpret_cast<T*>(scratch_bytes(count * sizeof(T)));
  }

  // The state this node's prepare step built (see prepared_kernel()).
  template <class State>
  const State& state() const;

 protected:
  // The node's prepared state, or nullptr when its operator has no prepare step.
  virtual const KernelState* prepared_state() const = 0;

 private:
  std::byte* scratch_bytes(std::size_t bytes);
  std::vector<std::shared_ptr<Storage>> scratch_;
};

struct KernelFailure {
  std::string message;
};

// The box a State travels in as a KernelState.
template <class State>
struct PreparedState final : KernelState {
  explicit PreparedState(State s) : value(std::move(s)) {}
  State value;
};

template <class State>
const State& KernelContext::state() const {
  const KernelState* s = prepared_state();
  if (!s) fail("internal error: the node was not prepared");
  // prepared_kernel() pairs each run step with the prepare step that built this box.
  return static_cast<const PreparedState<State>*>(s)->value;
}

// A kernel made of a prepare step and a run step that reads what it built: any callables,
// prepare(PrepareContext&) -> State and run(KernelContext&, const State&).
template <class State, class Prepare, class Run>
PreparedKernel make_prepared_kernel(Prepare prepare, Run run) {
  return {[prepare](PrepareContext& p) -> std::shared_ptr<const KernelState> {
            return std::make_shared<const PreparedState<State>>(prepare(p));
          },
          [run](KernelContext& ctx) { run(ctx, ctx.state<State>()); }};
}

// The same for two functions (the usual form in an operator's file).
template <class State>
PreparedKernel prepared_kernel(State (*prepare)(PrepareContext&),
                               void (*run)(KernelContext&, const State&)) {
  return make_prepared_kernel<State>(prepare, run);
}

}  // namespace onnxtool
