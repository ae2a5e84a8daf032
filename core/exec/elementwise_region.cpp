// SPDX-License-Identifier: Apache-2.0
#include "core/exec/elementwise_region.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/kernel.h"
#include "core/kernels/epilogue.h"
#include "core/types/tensor.h"

namespace onnxtool::exec_detail {

namespace {

// Output elements per block: every step's result for one block stays in L1 (a step's result
// takes 2 KB; a region has at most a few dozen steps, and most results are dead after one).
constexpr int64_t kRegionBlock = 512;
// Elements per thread chunk: one chunk costs a few microseconds to hand out.
constexpr int64_t kRegionGrain = int64_t{1} << 14;

// How one region input is read over the output: as the output's own layout (same element
// count), as one value, or through a broadcast plan of its own (core/exec/broadcast.h).
struct RegionOperand {
  enum class Kind { full, scalar, strided } kind = Kind::full;
  const float* data = nullptr;
  Broadcast plan;  // strided only
};

// Copies output elements [at, at + n) of a strided operand into dst, a row at a time.
void gather_operand(const RegionOperand& op, int64_t at, int64_t n, float* dst) {
  const bool along = op.plan.inner_stride(0) != 0;
  walk_rows<1>(op.plan, at, at + n,
               [&](const std::array<int64_t, 1>& off, int64_t pos, int64_t len) {
                 float* to = dst + (pos - at);
                 if (along)
                   std::copy(op.data + off[0], op.data + off[0] + len, to);
                 else
                   std::fill(to, to + len, op.data[off[0]]);
               });
}

// Runs every step on output elements [begin, end), a block at a time.
void run_region_range(const ElementwiseProgram& prog, const std::vector<RegionOperand>& ops,
                      const std::vector<float*>& outs, int64_t begin, int64_t end) {
  const std::size_t num_steps = prog.steps.size();
  // Per input a block (scalars filled once), per step a block for a result that is not an
  // output; kept per thread between runs, so that a run allocates nothing once warm.
  thread_local std::vector<float> scratch;
  thread_local std::vector<const float*> inputs, results, operands;
  scratch.resize(static_cast<std::size_t>(kRegionBlock) * (ops.size() + num_steps));
  inputs.resize(ops.size());
  results.resize(num_steps);
  const auto block_of = [&](std::size_t k) { return scratch.data() + k * kRegionBlock; };
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].kind == RegionOperand::Kind::scalar)
      std::fill_n(block_of(i), kRegionBlock, ops[i].data[0]);

  for (int64_t at = begin; at < end; at += kRegionBlock) {
    const int64_t n = std::min(kRegionBlock, end - at);
    for (std::size_t i = 0; i < ops.size(); ++i) {
      switch (ops[i].kind) {
        case RegionOperand::Kind::full:
          inputs[i] = ops[i].data + at;
          break;
        case RegionOperand::Kind::scalar:
          inputs[i] = block_of(i);
          break;
        case RegionOperand::Kind::strided:
          gather_operand(ops[i], at, n, block_of(i));
          inputs[i] = block_of(i);
          break;
      }
    }
    for (std::size_t s = 0; s < num_steps; ++s) {
      const ElementwiseProgram::Step& step = prog.steps[s];
      operands.clear();
      for (int o : step.operands)
        operands.push_back(o >= 0 ? inputs[static_cast<std::size_t>(o)]
                                  : results[static_cast<std::size_t>(~o)]);
      float* dst = step.output >= 0 ? outs[static_cast<std::size_t>(step.output)] + at
                                    : block_of(ops.size() + s);
      step.fn(operands.data(), dst, n, step.params.data());
      results[s] = dst;
    }
  }
}

void run_region(KernelContext& ctx) {
  const auto& prog = ctx.state<ElementwiseProgram>();
  std::vector<const Tensor*> inputs;
  for (std::size_t i = 0; i < prog.num_inputs; ++i) {
    const Tensor& t = ctx.input(i);
    if (t.dtype() != DataType::float32)
      ctx.fail("input " + std::to_string(i) + " has element type " +
               std::string(type_name(t.dtype())) + ", expected float");
    inputs.push_back(&t);
  }
  std::vector<const Shape*> shapes;
  for (const Tensor* t : inputs) shapes.push_back(&t->shape());
  const Shape out = broadcast_shapes(ctx, shapes);
  int64_t numel = 1;
  for (int64_t d : out) numel *= d;

  std::vector<RegionOperand> ops(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    RegionOperand& op = ops[i];
    op.data = inputs[i]->data<float>();
    if (inputs[i]->numel() == numel) {
      op.kind = RegionOperand::Kind::full;
    } else if (inputs[i]->numel() == 1) {
      op.kind = RegionOperand::Kind::scalar;
    } else {
      op.kind = RegionOperand::Kind::strided;
      const std::array<const Shape*, 1> one{shapes[i]};
      op.plan = plan_broadcast(out, one);
    }
  }

  std::vector<float*> outs(prog.num_outputs);
  for (std::size_t k = 0; k < prog.num_outputs; ++k)
    outs[k] = ctx.output_uninitialized(k, DataType::float32, out).mutable_data<float>();
  if (numel == 0) return;
  ctx.parallel_for(numel, kRegionGrain, [&](int64_t begin, int64_t end) {
    run_region_range(prog, ops, outs, begin, end);
  });
}

OpVersion make_region_version() {
  OpVersion v;
  v.domain = kExecutorDomain;
  v.name = kRegionOpType;
  v.since = 1;
  v.kernel = run_region;
  return v;
}

}  // namespace

std::shared_ptr<const KernelState> region_state(ElementwiseProgram program) {
  return std::make_shared<const PreparedState<ElementwiseProgram>>(std::move(program));
}

const OpVersion& region_version() {
  static const OpVersion version = make_region_version();
  return version;
}

void epilogue_step(const float* const* operands, float* out, int64_t n, const float* params) {
  kernels::Epilogue e;
  e.kind = static_cast<kernels::Epilogue::Kind>(static_cast<int64_t>(params[0]));
  e.lo = params[1];
  e.hi = params[2];
  e.alpha = params[3];
  std::copy(operands[0], operands[0] + n, out);
  e.apply(out, n);
}

std::vector<float> epilogue_params(const kernels::Epilogue& e) {
  return {static_cast<float>(static_cast<int64_t>(e.kind)), e.lo, e.hi, e.alpha};
}

}  // namespace onnxtool::exec_detail
