// SPDX-License-Identifier: Apache-2.0
// Concatenations made in place (private to core/exec): planning picks the assemblies (see
// Assembly in plan.h), and a run gives their producers regions of the output to write into.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "core/exec/plan.h"

namespace onnxtool::exec_detail {

// The name --disable-pass knows this planning step by (it is listed with the graph passes).
inline constexpr const char* kAssembleConcatName = "assemble-concat";

// What planning knows of one slot of the graph being planned.
struct SlotFacts {
  DataType dtype = DataType::undefined;
  Shape shape;
};

struct AssemblyInputs {
  std::vector<int> producer;       // per slot: the node making it, -1 for a graph input
  std::vector<bool> graph_output;  // per slot: the graph gives it back (never placed)
  std::function<std::optional<SlotFacts>(int slot)> facts;  // static type and shape, if known
};

// Finds the plan's concatenations that can be assembled in place and marks their producers;
// returns how many inputs were placed.
int64_t place_assemblies(GraphPlan& plan, const AssemblyInputs& in);

// A run: output i of pn as a region of its assembly, when it is placed and the kernel asks for
// the type and shape planned; an undefined tensor otherwise (the kernel's own memory then).
Tensor placed_output(const PlanNode& pn, const Frame* frame, std::size_t i, DataType type,
                     const Shape& shape);

// A run of an assembling node: its output, with the inputs not already in their regions
// copied there; nullopt when the inputs are not what was planned (the kernel runs instead).
std::optional<Value> assemble(const PlanNode& pn, const Frame& frame,
                              const std::vector<const Value*>& inputs);

}  // namespace onnxtool::exec_detail
