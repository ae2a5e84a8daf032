// SPDX-License-Identifier: Apache-2.0
#include "core/exec/elementwise_region.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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
// count), as one value, or through strides (0 where it is broadcast) over the output's dims.
struct RegionOperand {
  enum class Kind { full, scalar, strided } kind = Kind::full;
  const float* data = nullptr;
  std::vector<int64_t> strides;  // strided only: one per dim of RegionShape::dims
};

// The output's dims with neighbours merged where every strided input steps through both alike
// (both broadcast, or both read), so that rows are as long as they can be.
struct RegionShape {
  Shape shape;
  int64_t numel = 1;
  std::vector<int64_t> dims;
};

Shape broadcast_region_inputs(const KernelContext& ctx, const std::vector<const Tensor*>& inputs) {
  std::size_t rank = 0;
  for (const Tensor* t : inputs) rank = std::max(rank, t->shape().size());
  Shape out(rank, 1);
  for (const Tensor* t : inputs) {
    const Shape& s = t->shape();
    for (std::size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[rank - s.size() + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o != 1)
        ctx.fail("inputs of shapes " + shape_to_string(out) + " and " + shape_to_string(s) +
                 " do not broadcast");
      o = s[i];
    }
  }
  return out;
}

// Input strides over the output's dims (0 where the input is broadcast).
std::vector<int64_t> strides_over(const Shape& in, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t step = 1;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::size_t d = out.size() - 1 - k;
    const int64_t dim = in[in.size() - 1 - k];
    if (dim != 1) strides[d] = step;
    step *= dim;
  }
  return strides;
}

// Drops the output's size-1 dims and merges neighbours where that keeps every strided operand's
// element offsets (stride[d] == stride[d+1] * dims[d+1]), so that rows are as long as can be.
void merge_region_dims(RegionShape& rs, std::vector<RegionOperand>& ops) {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides(ops.size());
  for (std::size_t d = 0; d < rs.shape.size(); ++d) {
    if (rs.shape[d] == 1) continue;
    dims.push_back(rs.shape[d]);
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == RegionOperand::Kind::strided) strides[i].push_back(ops[i].strides[d]);
  }
  for (std::size_t d = dims.size(); d-- > 1;) {
    bool mergeable = true;
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == RegionOperand::Kind::strided &&
          strides[i][d - 1] != strides[i][d] * dims[d])
        mergeable = false;
    if (!mergeable) continue;
    dims[d - 1] *= dims[d];
    dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(d));
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == RegionOperand::Kind::strided)
        strides[i].erase(strides[i].begin() + static_cast<std::ptrdiff_t>(d - 1));
  }
  if (dims.empty()) dims.push_back(1);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != RegionOperand::Kind::strided) continue;
    if (strides[i].empty()) strides[i].push_back(0);
    ops[i].strides = std::move(strides[i]);
  }
  rs.dims = std::move(dims);
}

// Copies output elements [at, at + n) of a strided operand into dst, a row at a time.
void gather_operand(const RegionOperand& op, const std::vector<int64_t>& dims, int64_t at,
                    int64_t n, float* dst) {
  const std::size_t rank = dims.size();
  std::array<int64_t, 16> idx{};
  std::vector<int64_t> big_idx;
  int64_t* index = idx.data();
  if (rank > idx.size()) {
    big_idx.resize(rank);
    index = big_idx.data();
  }
  int64_t rest = at;
  for (std::size_t d = rank; d-- > 0;) {
    index[d] = rest % dims[d];
    rest /= dims[d];
  }
  const int64_t inner = dims.back(), inner_stride = op.strides.back();
  while (n > 0) {
    int64_t offset = 0;
    for (std::size_t d = 0; d < rank; ++d) offset += index[d] * op.strides[d];
    const int64_t run = std::min(n, inner - index[rank - 1]);
    if (inner_stride)
      std::copy(op.data + offset, op.data + offset + run, dst);
    else
      std::fill(dst, dst + run, op.data[offset]);
    dst += run;
    n -= run;
    index[rank - 1] += run;
    for (std::size_t d = rank; d-- > 1 && index[d] == dims[d];) {
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

// Runs every step on output elements [begin, end), a block at a time.
void run_region_range(const ElementwiseProgram& prog, const std::vector<RegionOperand>& ops,
                      const RegionShape& rs, const std::vector<float*>& outs, int64_t begin,
                      int64_t end) {
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
          gather_operand(ops[i], rs.dims, at, n, block_of(i));
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
  RegionShape rs;
  rs.shape = broadcast_region_inputs(ctx, inputs);
  for (int64_t d : rs.shape) rs.numel *= d;

  std::vector<RegionOperand> ops(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    RegionOperand& op = ops[i];
    op.data = inputs[i]->data<float>();
    if (inputs[i]->numel() == rs.numel) {
      op.kind = RegionOperand::Kind::full;
    } else if (inputs[i]->numel() == 1) {
      op.kind = RegionOperand::Kind::scalar;
    } else {
      op.kind = RegionOperand::Kind::strided;
      op.strides = strides_over(inputs[i]->shape(), rs.shape);
    }
  }
  merge_region_dims(rs, ops);

  std::vector<float*> outs(prog.num_outputs);
  for (std::size_t k = 0; k < prog.num_outputs; ++k)
    outs[k] = ctx.output_uninitialized(k, DataType::float32, rs.shape).mutable_data<float>();
  if (rs.numel == 0) return;
  ctx.parallel_for(rs.numel, kRegionGrain, [&](int64_t begin, int64_t end) {
    run_region_range(prog, ops, rs, outs, begin, end);
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
