// SPDX-License-Identifier: Apache-2.0
// The executor's widening of float16 and bfloat16 values to float32.
//
// The kernels compute float16 and bfloat16 through float32: each node widens its inputs,
// computes, and rounds its outputs back, which costs two conversions per node and a slower
// path in the kernels that have a float32 one only. A graph converted to float16 (weights and
// values, with Casts at its float32 edges) then runs slower than the float32 graph it came
// from. This pass finds the regions of such values between nodes whose operators compute the
// same arithmetic in every floating type (Trait::float_generic) and makes them float32: the
// constants are widened once, here; a Cast from float32 into the region is bypassed, and a
// Cast out of it to float32 reads the float32 value; a Cast is inserted where a value enters
// from, or leaves to, anything else (a graph input or output, another operator, a subgraph).
//
// The values inside the region are then no longer rounded to float16 between nodes: the
// results change by that rounding (as ONNX Runtime's CPU provider, which also computes such
// graphs in float32). --no-fuse and --disable-pass widen-float16 keep every rounding.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class WidenFloat16 final : public Pass {
 public:
  explicit WidenFloat16(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "widen-float16";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
