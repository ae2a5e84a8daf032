// SPDX-License-Identifier: Apache-2.0
#include "core/exec/session.h"

#include "core/exec/assembly.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <set>

#include <spdlog/spdlog.h>

#include "core/exec/assembly.h"
#include "core/exec/blas.h"
#include "core/exec/large_blocks.h"
#include "core/exec/passes/cancel_transposes.h"
#include "core/exec/passes/channels_last.h"
#include "core/exec/passes/fold_constants.h"
#include "core/exec/passes/fuse_channel_affine.h"
#include "core/exec/passes/fuse_dequantized.h"
#include "core/exec/passes/fuse_elementwise.h"
#include "core/exec/passes/fuse_epilogue.h"
#include "core/exec/passes/fuse_input_transform.h"
#include "core/exec/passes/fuse_residual.h"
#include "core/exec/passes/fuse_scaled_output.h"
#include "core/exec/passes/widen_float16.h"
#include "core/exec/planner.h"
#include "core/exec/runner.h"
#include "core/exec/thread_pool.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/ir/location.h"
#include "core/ir/type_text.h"
#include "core/model/model.h"
#include "core/passes/pass.h"
#include "core/registry/registry.h"
#include "core/util/huge_pages.h"
#include "onnx.pb.h"

namespace onnxtool {

using exec_detail::Frame;

// ---- PlanError ----------------------------------------------------------------------------------

namespace {

std::string first_message(const std::vector<Diagnostic>& problems) {
  if (problems.empty()) return "the model cannot be run";
  std::string m = problems.front().message;
  if (problems.size() > 1)
    m += " (and " + std::to_string(problems.size() - 1) + " more problem" +
         (problems.size() == 2 ? "" : "s") + ")";
  return m;
}

}  // namespace

PlanError::PlanError(std::vector<Diagnostic> problems, std::string file)
    : Error(ErrorKind::invalid, problems.empty() ? "exec.bad-graph" : problems.front().rule,
            std::move(file), problems.empty() ? "" : problems.front().location,
            first_message(problems)),
      problems_(std::move(problems)) {}

std::string PlanError::summary() const {
  // "no kernel for A-1, B-2; <other distinct messages>"
  const std::string kNoKernel = "no kernel for ";
  std::vector<std::string> kernels, others;
  std::set<std::string> seen;
  for (const auto& d : problems_) {
    if (!seen.insert(d.message).second) continue;
    if (d.message.rfind(kNoKernel, 0) == 0)
      kernels.push_back(d.message.substr(kNoKernel.size()));
    else
      others.push_back(d.message);
  }
  std::string s;
  for (std::size_t i = 0; i < kernels.size(); ++i) s += (i ? ", " : kNoKernel) + kernels[i];
  for (const auto& o : others) s += (s.empty() ? "" : "; ") + o;
  return s;
}

// ---- type checks
// ----------------------------------------------------------------------------------

namespace {

std::string tensor_mismatch(const Tensor& t, const onnx::TypeProto::Tensor& want) {
  if (want.elem_type() != 0 && static_cast<int32_t>(t.dtype()) != want.elem_type())
    return "has element type " + std::string(type_name(t.dtype())) + ", expected " +
           elem_type_to_string(want.elem_type());
  if (!want.has_shape()) return "";
  const auto& dims = want.shape().dim();
  bool ok = dims.size() == t.rank();
  for (int i = 0; ok && i < dims.size(); ++i)
    if (dims[i].has_dim_value() && dims[i].dim_value() != t.shape()[static_cast<std::size_t>(i)])
      ok = false;
  if (ok) return "";
  return "has shape " + shape_to_string(t.shape()) + ", expected " + shape_to_string(want.shape());
}

}  // namespace

std::string value_type_mismatch(const Value& v, const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      if (!v.is_tensor()) return "is " + v.describe() + ", expected a tensor";
      return tensor_mismatch(v.tensor(), type.tensor_type());
    case onnx::TypeProto::kSequenceType:
      if (!v.is_sequence()) return "is " + v.describe() + ", expected a sequence";
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        std::string why = value_type_mismatch(v.items()[i], type.sequence_type().elem_type());
        if (!why.empty()) return "element " + std::to_string(i) + " " + why;
      }
      return "";
    case onnx::TypeProto::kOptionalType:
      return v.is_none() ? "" : value_type_mismatch(v, type.optional_type().elem_type());
    case onnx::TypeProto::kMapType:
      if (!v.is_map()) return "is " + v.describe() + ", expected a map";
      if (static_cast<int32_t>(v.map_keys().dtype()) != type.map_type().key_type())
        return "has keys of type " + std::string(type_name(v.map_keys().dtype())) + ", expected " +
               elem_type_to_string(type.map_type().key_type());
      return "";
    default:
      return "";
  }
}

std::string describe_ports(const std::vector<Session::Port>& ports) {
  // Models of IR < 4 list every weight as an input with an initializer: hundreds of optional
  // inputs. Past a few, they are counted and the first ones named.
  constexpr std::size_t kOptionalListed = 3;
  std::size_t optional = 0;
  for (const auto& p : ports) optional += p.has_initializer ? 1 : 0;
  const bool summarise = optional > kOptionalListed;
  std::string s, named;
  std::size_t seen = 0;
  for (const auto& p : ports) {
    const std::string text = p.name + ": " + (p.type ? type_to_string(*p.type) : "(no type)");
    if (p.has_initializer && summarise) {
      if (seen++ < kOptionalListed) named += (named.empty() ? "" : ", ") + text;
      continue;
    }
    if (!s.empty()) s += ", ";
    s += text + (p.has_initializer ? " (optional)" : "");
  }
  if (summarise)
    s += (s.empty() ? "" : "; ") + std::to_string(optional) +
         " optional inputs that have initializers (" + named + ", ...)";
  return s.empty() ? "no inputs" : s;
}

// ---- the executor's passes ----------------------------------------------------------------------

std::vector<std::string> executor_pass_names() {
  return {exec_detail::FuseDequantized::kName,    exec_detail::FoldConstants::kName,
          exec_detail::WidenFloat16::kName,       exec_detail::CancelTransposes::kName,
          exec_detail::FuseChannelAffine::kName,  exec_detail::FuseScaledOutput::kName,
          exec_detail::FuseResidual::kName,       exec_detail::FuseEpilogue::kName,
          exec_detail::FuseInputTransform::kName, exec_detail::FuseElementwise::kName,
          exec_detail::ChannelsLastValues::kName, exec_detail::kAssembleConcatName};
}

namespace {

PassPipeline executor_passes(exec_detail::PlanContext& ctx, const SessionOptions& options) {
  PassPipeline pipeline;
  // Before folding, which would turn the dequantization of a constant W into a float W.
  pipeline.add(std::make_unique<exec_detail::FuseDequantized>(ctx));
  pipeline.add(std::make_unique<exec_detail::FoldConstants>(ctx));
  if (!options.fold_constants) pipeline.set_enabled(exec_detail::FoldConstants::kName, false);
  // After folding (the constants it widens are initializers by then), before the fusions,
  // which then see float32 nodes.
  pipeline.add(std::make_unique<exec_detail::WidenFloat16>(ctx));
  // After folding (a constant's transposes are folded by then), before the fusions, which may
  // find their pairs once a transpose pair between them is gone.
  pipeline.add(std::make_unique<exec_detail::CancelTransposes>(ctx));
  // After folding: parameters that constant subgraphs compute are initializers by then.
  pipeline.add(std::make_unique<exec_detail::FuseChannelAffine>(ctx));
  // After folding (a bias reshaped by nodes is a constant by then), before the residual Add
  // and the activation, which come after the scale and the bias.
  pipeline.add(std::make_unique<exec_detail::FuseScaledOutput>(ctx));
  // Before epilogues: the Relu after a residual Add then folds into the Conv that took the Add.
  pipeline.add(std::make_unique<exec_detail::FuseResidual>(ctx));
  // After folding affine nodes: a Conv, BatchNormalization, Relu chain becomes one Conv.
  pipeline.add(std::make_unique<exec_detail::FuseEpilogue>(ctx));
  // After epilogues: a BatchNormalization carries its Relu by then, and both go into the Conv
  // reading them.
  pipeline.add(std::make_unique<exec_detail::FuseInputTransform>(ctx));
  // Last: the fusions into Conv and MatMul kernels take their activations first.
  pipeline.add(std::make_unique<exec_detail::FuseElementwise>(ctx));
  // After every fusion into the kernels: which residuals, epilogues and input transforms they
  // apply decides which layouts they can read and write.
  pipeline.add(std::make_unique<exec_detail::ChannelsLastValues>(ctx));
  if (!options.fuse) {
    pipeline.set_enabled(exec_detail::FuseDequantized::kName, false);
    pipeline.set_enabled(exec_detail::WidenFloat16::kName, false);
    pipeline.set_enabled(exec_detail::CancelTransposes::kName, false);
    pipeline.set_enabled(exec_detail::FuseChannelAffine::kName, false);
    pipeline.set_enabled(exec_detail::FuseScaledOutput::kName, false);
    pipeline.set_enabled(exec_detail::FuseResidual::kName, false);
    pipeline.set_enabled(exec_detail::FuseEpilogue::kName, false);
    pipeline.set_enabled(exec_detail::FuseInputTransform::kName, false);
    pipeline.set_enabled(exec_detail::FuseElementwise::kName, false);
    pipeline.set_enabled(exec_detail::ChannelsLastValues::kName, false);
  }
  for (const auto& name : options.disabled_passes) pipeline.set_enabled(name, false);
  return pipeline;
}

void check_pass_names(const SessionOptions& options) {
  const auto known = executor_pass_names();
  for (const auto& name : options.disabled_passes) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    throw_usage("no executor pass named " + quoted_name(name) + "; the passes are " + list);
  }
}

}  // namespace

// ---- Session ------------------------------------------------------------------------------------

namespace {

// A run frees its intermediate tensors and the next run allocates the same sizes again. glibc
// serves large blocks with fresh mmaps (and trims the heap), so every run would fault every page
// of every big buffer back in: a third of a small CNN's time. Keeping freed memory in the heap
// makes the second run reuse it. Process-wide, set once, before the first plan allocates.
void keep_freed_buffers_mapped() {
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, 512 << 20);
    mallopt(M_TRIM_THRESHOLD, 1024 << 20);
    // Large tensors from reused huge-page blocks, unless a caller (a test counting
    // allocations) installed its own allocator.
    if (kUseHugePageMappings)
      if (StorageAllocator* theirs = set_storage_allocator(&exec_detail::large_block_allocator()))
        set_storage_allocator(theirs);
  });
}

// Types and shapes for the kernels' prepare steps. Findings are the checker's business, not the
// executor's: they are logged, never fatal.
std::unique_ptr<InferResult> infer_for_planning(const Model& model, const Registry& registry) {
  DiagSink sink(0);
  InferOptions options;
  options.registry = &registry;
  try {
    return std::make_unique<InferResult>(infer_model(model, options, sink));
  } catch (const Error& e) {
    spdlog::debug("planning {}: shape inference stopped: {}", model.name, e.message());
    return nullptr;
  }
}

// Numbers the nodes in the order of collect_timings, which is Session::profile()'s.
void number_nodes(const exec_detail::GraphPlan& plan, int32_t& next) {
  for (const auto& pn : plan.nodes) {
    pn.timing->trace_index = next++;
    for (const auto& [graph, sub] : pn.subgraphs) number_nodes(*sub, next);
  }
}

}  // namespace

Session::Session(const Model& model, SessionOptions options)
    : model_(model), options_(std::move(options)) {
  check_pass_names(options_);
  keep_freed_buffers_mapped();
  const auto start = std::chrono::steady_clock::now();
  // OpenBLAS sets environment variables while it loads: do it before any worker thread exists.
  blas::info();
  pool_ = std::make_unique<ThreadPool>(options_.threads);
  runner_ = std::make_unique<exec_detail::Runner>(*pool_, model.name);
  const Registry& registry = options_.registry ? *options_.registry : Registry::standard();
  if (options_.infer_shapes) inferred_ = infer_for_planning(model, registry);
  spdlog::debug(
      "shape inference for planning: {:.1f} ms",
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  {
    const exec_detail::LargeBlockArenaPaused planning;
    plan_ = build_plan(options_.fold_constants, stats_, &warnings_);
  }
  if (options_.profile && options_.trace) {
    recorder_ = std::make_unique<TraceRecorder>(pool_->size(), kMaxTraceSpans);
    int32_t next = 0;
    number_nodes(*plan_, next);
  }

  const auto& g = model.proto->graph();
  std::set<std::string> initializers;
  for (const auto& t : g.initializer()) initializers.insert(t.name());
  for (const auto& in : g.input())
    inputs_.push_back(
        {in.name(), in.has_type() ? &in.type() : nullptr, initializers.count(in.name()) > 0});
  for (const auto& out : g.output())
    outputs_.push_back({out.name(), out.has_type() ? &out.type() : nullptr, false});
  // The inference results serve planning only: kept while a second plan may still be built.
  const bool may_replan =
      std::any_of(inputs_.begin(), inputs_.end(), [](const Port& p) { return p.has_initializer; });
  if (!may_replan || !options_.fold_constants) inferred_.reset();
  stats_.plan_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  spdlog::debug("planned {}: {} nodes to run, {} folded at load ({} bytes), {:.1f} ms", model.name,
                stats_.nodes, stats_.folded_nodes, stats_.constant_bytes, stats_.plan_ms);
}

Session::~Session() = default;

std::unique_ptr<exec_detail::GraphPlan> Session::build_plan(
    bool defaults_as_constants, SessionStats& stats, std::vector<Diagnostic>* warnings) const {
  const Registry& registry = options_.registry ? *options_.registry : Registry::standard();
  exec_detail::PlanContext ctx{model_, registry, options_, *runner_, stats,
                               {},     {},       {},       0,        defaults_as_constants};
  ctx.inferred = inferred_.get();
  ctx.threads = pool_->size();
  ctx.functions = LocalFunctions(*model_.proto);
  // The passes edit a view of the model; the plan refers to the stored nodes they left as they
  // were and keeps its own copy of the others, so the view is not needed once planned.
  const auto start = std::chrono::steady_clock::now();
  ir::ModelGraph graph = ir::ModelGraph::view(model_.proto);
  spdlog::debug(
      "viewed {} as an editable graph in {:.1f} ms", model_.name,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  if (graph.graph()) {
    exec_detail::drop_reserved_attributes(ctx, *graph.graph());
    exec_detail::order_by_data(ctx, *graph.graph());
    // A cycle stops here: the passes assume an order.
    if (!ctx.problems.empty()) throw PlanError(ctx.problems, model_.name);
  }
  PassContext pass_ctx;
  pass_ctx.registry = &registry;
  pass_ctx.inferred = inferred_.get();
  executor_passes(ctx, options_).run(graph, pass_ctx);
  auto plan = exec_detail::plan_model(ctx, graph);
  if (warnings) *warnings = std::move(ctx.warnings);
  return plan;
}

const exec_detail::GraphPlan& Session::plan_for(
    const std::vector<std::pair<std::string, Value>>& feeds) {
  if (!options_.fold_constants) return *plan_;
  const bool feeds_a_default = std::any_of(feeds.begin(), feeds.end(), [&](const auto& feed) {
    return std::any_of(inputs_.begin(), inputs_.end(),
                       [&](const Port& p) { return p.has_initializer && p.name == feed.first; });
  });
  if (!feeds_a_default) return *plan_;
  // Built on first need; concurrent runs wait for the one that builds it.
  std::call_once(plan_fed_defaults_once_, [&] {
    SessionStats unused;
    const exec_detail::LargeBlockArenaPaused planning;
    plan_fed_defaults_ = build_plan(false, unused);
  });
  return *plan_fed_defaults_;
}

int Session::threads() const {
  return pool_->size();
}

void Session::bind_feeds(const std::vector<std::pair<std::string, Value>>& feeds,
                         Frame& frame) const {
  auto bad = [&](const std::string& message) {
    throw Error(ErrorKind::usage, "exec.bad-input", model_.name, "",
                message + "; the model expects " + describe_ports(inputs_));
  };
  std::vector<bool> given(inputs_.size(), false);
  for (const auto& [name, value] : feeds) {
    std::size_t i = 0;
    while (i < inputs_.size() && inputs_[i].name != name) ++i;
    if (i == inputs_.size()) bad("the model has no input " + quoted_name(name));
    if (given[i]) bad("input " + quoted_name(name) + " is given twice");
    given[i] = true;
    if (inputs_[i].type) {
      const std::string why = value_type_mismatch(value, *inputs_[i].type);
      if (!why.empty()) bad("input " + quoted_name(name) + " " + why);
    }
    frame.slots[static_cast<std::size_t>(frame.plan->input_slots[i])] = value;
  }
  std::string missing;
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    if (given[i]) continue;
    if (const auto& d = frame.plan->input_defaults[i]) {
      frame.slots[static_cast<std::size_t>(frame.plan->input_slots[i])] =
          frame.plan->constants[static_cast<std::size_t>(*d)];
      continue;
    }
    missing += (missing.empty() ? "" : ", ") + quoted_name(inputs_[i].name);
  }
  if (!missing.empty()) bad("missing input " + missing);
}

namespace {

// The main graph's inputs that were fed (not the defaults of those with initializers: weights,
// in models of IR < 4).
void report_inputs(const std::vector<std::pair<std::string, Value>>& feeds,
                   const ValueObserver& observer) {
  const std::string none;
  for (const auto& [name, value] : feeds)
    observer(ProducedValue{name, none, none, none, nullptr, value});
}

}  // namespace

std::vector<Value> Session::run(const std::vector<std::pair<std::string, Value>>& feeds,
                                const ValueObserver* observer) {
  const exec_detail::GraphPlan& plan = plan_for(feeds);
  Frame frame{&plan, std::vector<Value>(static_cast<std::size_t>(plan.num_slots)), nullptr,
              observer};
  bind_feeds(feeds, frame);
  if (observer) report_inputs(feeds, *observer);
  const exec_detail::RunDeadline deadline(options_.timeout_seconds);
  if (recorder_ && recorder_->claim()) {
    run_traced(frame);
  } else {
    runner_->run(frame);
  }
  std::vector<Value> outs;
  outs.reserve(plan.outputs.size());
  for (const auto& ref : plan.outputs) outs.push_back(exec_detail::resolve(ref, frame));
  return outs;
}

namespace {

void reset_timings(const exec_detail::GraphPlan& plan) {
  for (const auto& pn : plan.nodes) {
    pn.timing->calls.store(0);
    pn.timing->total_ns.store(0);
    pn.timing->macs.store(0);
    for (const auto& [graph, sub] : pn.subgraphs) reset_timings(*sub);
  }
}

void collect_timings(const exec_detail::GraphPlan& plan, int depth, std::vector<NodeProfile>& out) {
  for (const auto& pn : plan.nodes) {
    const auto& n = *pn.node;
    out.push_back({pn.location, n.domain().empty() ? n.op_type() : n.domain() + "." + n.op_type(),
                   depth, !pn.subgraphs.empty(), pn.timing->calls.load(),
                   pn.timing->total_ns.load(), pn.timing->macs.load()});
    for (const auto& [graph, sub] : pn.subgraphs) collect_timings(*sub, depth + 1, out);
  }
}

}  // namespace

void Session::reset_profile() {
  reset_timings(*plan_);
  if (recorder_) recorder_->clear();
}

std::vector<TraceSpan> Session::trace() const {
  return recorder_ ? recorder_->spans() : std::vector<TraceSpan>{};
}

bool Session::trace_truncated() const {
  return recorder_ && recorder_->truncated();
}

// A run into the trace (the recorder claimed by the caller): its span on lane 0, whatever thread
// calls, so that it never shares a lane with the pool's workers.
void Session::run_traced(Frame& frame) const {
  struct Claim {
    TraceRecorder& recorder;
    int lane = trace_thread();
    ~Claim() {
      set_trace_thread(lane);
      recorder.release();
    }
  } claim{*recorder_};
  set_trace_thread(0);
  const TraceScope scope({recorder_.get(), -1});
  TraceSpan span;
  span.begin_ns = recorder_->now_ns();
  runner_->run(frame);
  span.end_ns = recorder_->now_ns();
  recorder_->add(span);
}

std::vector<NodeProfile> Session::profile() const {
  std::vector<NodeProfile> out;
  collect_timings(*plan_, 0, out);
  return out;
}

}  // namespace onnxtool
