// SPDX-License-Identifier: Apache-2.0
#include "core/exec/runner.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include "core/exec/assembly.h"
#include "core/exec/kernel.h"
#include "core/exec/thread_pool.h"
#include "core/exec/trace.h"
#include "core/registry/schema.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

const Value& none_value() {
  static const Value kNone;
  return kNone;
}

// What a kernel sees of one node during one call.
class NodeContext final : public KernelContext {
 public:
  NodeContext(const Runner& runner, const PlanNode& pn, const std::vector<const Value*>& inputs,
              const Frame* frame)
      : runner_(runner),
        pn_(pn),
        inputs_(inputs),
        frame_(frame),
        outputs_(static_cast<std::size_t>(pn.node->output_size())) {}

  const onnx::NodeProto& node() const override { return *pn_.node; }
  const OpVersion& schema() const override { return *pn_.schema; }
  int64_t opset() const override { return pn_.opset; }
  const AttrView& attrs() const override { return *pn_.attrs; }

  std::size_t num_inputs() const override { return inputs_.size(); }
  bool has_input(std::size_t i) const override { return i < inputs_.size() && inputs_[i]; }
  const Value& input_value(std::size_t i) const override {
    return has_input(i) ? *inputs_[i] : none_value();
  }

  std::size_t num_outputs() const override { return outputs_.size(); }
  bool has_output(std::size_t i) const override {
    const bool unread = i < pn_.unread_outputs.size() && pn_.unread_outputs[i];
    return i < outputs_.size() && !pn_.node->output(static_cast<int>(i)).empty() && !unread;
  }
  Tensor& output(std::size_t i, DataType type, Shape shape) override {
    check_output_index(i);
    if (Tensor placed = placed_output(pn_, frame_, i, type, shape); placed.defined()) {
      if (placed.nbytes()) std::memset(placed.mutable_raw(), 0, placed.nbytes());
      outputs_[i] = Value(std::move(placed));
    } else {
      outputs_[i] = Value(Tensor(type, std::move(shape)));
    }
    return outputs_[i].mutable_tensor();
  }
  Tensor& output_uninitialized(std::size_t i, DataType type, Shape shape) override {
    check_output_index(i);
    if (Tensor placed = placed_output(pn_, frame_, i, type, shape); placed.defined())
      outputs_[i] = Value(std::move(placed));
    else
      outputs_[i] = Value(Tensor::uninitialized(type, std::move(shape)));
    return outputs_[i].mutable_tensor();
  }
  void set_output(std::size_t i, Value value) override {
    check_output_index(i);
    outputs_[i] = std::move(value);
  }

  int threads() const override { return runner_.pool().size(); }
  void parallel_for(int64_t n, int64_t grain,
                    const std::function<void(int64_t, int64_t)>& fn) const override {
    runner_.pool().parallel_for(n, grain, fn);
  }

  std::vector<Value> run_graph(const onnx::GraphProto& graph,
                               const std::vector<Value>& inputs) override {
    auto it = pn_.subgraphs.find(&graph);
    if (it == pn_.subgraphs.end() || !frame_)
      fail("run_graph: the graph is not an attribute of this node");
    return runner_.run_graph(*it->second, inputs, frame_);
  }

  std::vector<Value> take_outputs() { return std::move(outputs_); }

 protected:
  const KernelState* prepared_state() const override { return pn_.state.get(); }

 private:
  void check_output_index(std::size_t i) const {
    if (i >= outputs_.size())
      fail("output " + std::to_string(i) + " does not exist (the node has " +
           std::to_string(outputs_.size()) + ")");
  }

  const Runner& runner_;
  const PlanNode& pn_;
  const std::vector<const Value*>& inputs_;
  const Frame* frame_;
  std::vector<Value> outputs_;
};

std::string allowed_type_list(uint64_t mask) {
  std::string s;
  for (int t = 1; t <= kMaxDataType; ++t)
    if (mask & (uint64_t{1} << t)) {
      if (!s.empty()) s += ", ";
      s += type_name(static_cast<DataType>(t));
    }
  return s;
}

}  // namespace

const Value& resolve(const ValueRef& ref, const Frame& frame) {
  const Frame* f = &frame;
  for (int d = 0; d < ref.depth; ++d) f = f->parent;
  return ref.constant ? f->plan->constants[static_cast<std::size_t>(ref.index)]
                      : f->slots[static_cast<std::size_t>(ref.index)];
}

void Runner::fail_at(const PlanNode& pn, ErrorKind kind, const std::string& rule,
                     const std::string& message) const {
  throw NodeError(kind, rule, file_, pn.location, message);
}

void Runner::check_input_types(const PlanNode& pn, const std::vector<const Value*>& inputs) const {
  for (std::size_t i = 0; i < inputs.size() && i < pn.allowed_types.size(); ++i) {
    const uint64_t mask = pn.allowed_types[i];
    if (!mask || !inputs[i] || !inputs[i]->is_tensor()) continue;
    const DataType t = inputs[i]->tensor().dtype();
    if (mask & type_bit(t)) continue;
    fail_at(pn, ErrorKind::invalid, "exec.bad-input-type",
            "input " + std::to_string(i) + " \"" + pn.node->input(static_cast<int>(i)) +
                "\" has element type " + std::string(type_name(t)) + "; " + pn.schema->id() +
                " allows " + allowed_type_list(mask));
  }
}

std::vector<Value> Runner::invoke(const PlanNode& pn, const std::vector<const Value*>& inputs,
                                  const Frame* frame) const {
  try {
    if (pn.function) {
      std::vector<Value> args;
      args.reserve(inputs.size());
      for (const Value* v : inputs) args.push_back(v ? *v : Value());
      // A function body is a closed scope: no outer frame.
      std::vector<Value> outs = run_graph(*pn.function, args, nullptr);
      outs.resize(static_cast<std::size_t>(pn.node->output_size()));
      return outs;
    }
    if (pn.prepare_error) std::rethrow_exception(pn.prepare_error);
    check_input_types(pn, inputs);
    // A concatenation its producers filled in place (its errors, out of memory say, are the
    // node's like the kernel's).
    if (pn.assembles >= 0 && frame)
      if (std::optional<Value> joined = assemble(pn, *frame, inputs)) {
        std::vector<Value> outs(static_cast<std::size_t>(pn.node->output_size()));
        outs[0] = std::move(*joined);
        return outs;
      }
    NodeContext ctx(*this, pn, inputs, frame);
    pn.schema->kernel(ctx);
    return ctx.take_outputs();
  } catch (const NodeError&) {
    throw;
  } catch (const KernelFailure& f) {
    fail_at(pn, ErrorKind::invalid, "exec.kernel-failed", f.message);
  } catch (const Error& e) {
    // Keep the kernel's own rule and kind; the location becomes the node.
    std::string message = e.message();
    if (!e.location().empty()) message = e.location() + ": " + message;
    fail_at(pn, e.kind(), e.rule().empty() ? "exec.kernel-failed" : e.rule(), message);
  } catch (const std::bad_alloc&) {
    fail_at(pn, ErrorKind::internal, "exec.out-of-memory", "out of memory");
  } catch (const std::exception& e) {
    fail_at(pn, ErrorKind::internal, "exec.kernel-error",
            std::string("internal error in the kernel: ") + e.what());
  }
}

namespace {

const Shape* tensor_shape(const Value* v) {
  return v && v->is_tensor() ? &v->tensor().shape() : nullptr;
}

// --profile: what the node's operator counts as its arithmetic for these shapes.
void count_work(const PlanNode& pn, const std::vector<const Value*>& inputs,
                const std::vector<Value>& outs) {
  if (!pn.schema || !pn.schema->macs || !pn.attrs) return;
  WorkShapes shapes;
  for (const Value* v : inputs) shapes.inputs.push_back(tensor_shape(v));
  for (const Value& v : outs) shapes.outputs.push_back(tensor_shape(&v));
  const double macs = pn.schema->macs(shapes, *pn.attrs);
  if (macs > 0) pn.timing->macs.fetch_add(static_cast<int64_t>(macs), std::memory_order_relaxed);
}

// Tells frame's observer of each output the node produced.
void report_outputs(const PlanNode& pn, const Frame& frame, const std::vector<Value>& outs) {
  const std::string main_graph;
  const std::string& graph = frame.parent ? frame.plan->prefix : main_graph;
  const auto& n = *pn.node;
  const std::string op = n.domain().empty() ? n.op_type() : n.domain() + "." + n.op_type();
  for (std::size_t i = 0; i < pn.outputs.size() && i < outs.size(); ++i) {
    if (pn.outputs[i] < 0) continue;
    // An output nothing reads, which the kernel was told it need not make.
    if (outs[i].is_none() && i < pn.unread_outputs.size() && pn.unread_outputs[i]) continue;
    const std::string& name = frame.plan->slot_names[static_cast<std::size_t>(pn.outputs[i])];
    (*frame.observer)(ProducedValue{name, graph, pn.location, op, &n, outs[i]});
  }
}

}  // namespace

void Runner::run_node(const PlanNode& pn, Frame& frame) const {
  std::vector<const Value*> inputs;
  inputs.reserve(pn.inputs.size());
  for (const auto& ref : pn.inputs) inputs.push_back(ref ? &resolve(*ref, frame) : nullptr);
  std::vector<Value> outs = invoke(pn, inputs, &frame);
  if (frame.plan->timed) count_work(pn, inputs, outs);
  if (frame.observer) report_outputs(pn, frame, outs);
  inputs.clear();
  for (std::size_t i = 0; i < pn.outputs.size() && i < outs.size(); ++i)
    if (pn.outputs[i] >= 0)
      frame.slots[static_cast<std::size_t>(pn.outputs[i])] = std::move(outs[i]);
  for (int slot : pn.release) frame.slots[static_cast<std::size_t>(slot)] = Value();
}

namespace {
thread_local const RunDeadline* t_deadline = nullptr;
}  // namespace

RunDeadline::RunDeadline(double seconds) : previous_(t_deadline), seconds_(seconds) {
  if (seconds <= 0) return;
  end_ = std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
  t_deadline = this;
}

RunDeadline::~RunDeadline() {
  if (t_deadline == this) t_deadline = previous_;
}

std::string RunDeadline::passed() {
  const RunDeadline* d = t_deadline;
  if (!d || std::chrono::steady_clock::now() < d->end_) return "";
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", d->seconds_);
  return std::string("the run took longer than its time limit of ") + limit + " s (--timeout)";
}

void Runner::run(Frame& frame) const {
  using Clock = std::chrono::steady_clock;
  for (const auto& pn : frame.plan->nodes) {
    if (t_deadline)
      if (std::string late = RunDeadline::passed(); !late.empty())
        fail_at(pn, ErrorKind::invalid, "exec.timeout", late);
    if (!frame.plan->timed) {
      run_node(pn, frame);
      continue;
    }
    TraceRecorder* recorder = current_trace().recorder;
    if (recorder && pn.timing->trace_index >= 0) {
      run_traced(pn, frame, *recorder);
      continue;
    }
    const auto start = Clock::now();
    run_node(pn, frame);
    add_time(pn, start);
  }
}

void Runner::add_time(const PlanNode& pn, std::chrono::steady_clock::time_point start) const {
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  pn.timing->total_ns.fetch_add(ns, std::memory_order_relaxed);
  pn.timing->calls.fetch_add(1, std::memory_order_relaxed);
}

// A timed node of a traced run: its span on this thread, and the node named to the parallel
// loops it issues, so that their chunks are recorded as its own.
void Runner::run_traced(const PlanNode& pn, Frame& frame, TraceRecorder& recorder) const {
  const TraceScope scope({&recorder, pn.timing->trace_index});
  TraceSpan span;
  span.node = pn.timing->trace_index;
  span.thread = trace_thread();
  span.begin_ns = recorder.now_ns();
  const auto start = std::chrono::steady_clock::now();
  run_node(pn, frame);
  add_time(pn, start);
  span.end_ns = recorder.now_ns();
  recorder.add(span);
}

std::vector<Value> Runner::run_graph(const GraphPlan& plan, const std::vector<Value>& inputs,
                                     const Frame* parent) const {
  // A Loop whose body has no node still stops (at the Loop).
  if (std::string late = RunDeadline::passed(); !late.empty())
    throw Error(ErrorKind::invalid, "exec.timeout", "", "", late);
  Frame frame{&plan, std::vector<Value>(static_cast<std::size_t>(plan.num_slots)), parent,
              parent ? parent->observer : nullptr};
  for (std::size_t i = 0; i < plan.input_slots.size(); ++i) {
    Value v;
    if (i < inputs.size())
      v = inputs[i];
    else if (plan.input_defaults[i])
      v = plan.constants[static_cast<std::size_t>(*plan.input_defaults[i])];
    frame.slots[static_cast<std::size_t>(plan.input_slots[i])] = std::move(v);
  }
  run(frame);
  std::vector<Value> outs;
  outs.reserve(plan.outputs.size());
  for (const auto& ref : plan.outputs) outs.push_back(resolve(ref, frame));
  return outs;
}

}  // namespace onnxtool::exec_detail
