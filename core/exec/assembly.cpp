// SPDX-License-Identifier: Apache-2.0
#include "core/exec/assembly.h"

#include <cstring>

#include "core/registry/schema.h"

namespace onnxtool::exec_detail {

namespace {

// Regions start and end on this boundary: Storage::allocate's alignment, with no tail past a
// region's end that a kernel could take as its own padding.
constexpr std::size_t kRegionAlign = 64;

// The bytes of a tensor of this type and shape; nullopt when a dim is negative or the count
// overflows (what inference says of a hostile model need not fit in memory).
std::optional<std::size_t> byte_size(DataType t, const Shape& shape) {
  if (t == DataType::undefined || t == DataType::string || is_packed(t)) return std::nullopt;
  std::size_t n = static_cast<std::size_t>(type_info(t).mem_bytes);
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(n, static_cast<std::size_t>(d), &n)) return std::nullopt;
  return n;
}

// What planning knows of an input of a node of this graph: a slot's facts, or a constant's.
std::optional<SlotFacts> input_facts(const GraphPlan& plan, const AssemblyInputs& in,
                                     const ValueRef& ref) {
  if (ref.depth != 0) return std::nullopt;
  if (!ref.constant) return in.facts(ref.index);
  const Value& v = plan.constants[static_cast<std::size_t>(ref.index)];
  if (!v.is_tensor()) return std::nullopt;
  return SlotFacts{v.tensor().dtype(), v.tensor().shape()};
}

// The assembly a node's output 0 could be: every input's shape known and joined along an axis
// with only 1s before it, so that each input is one block of the output; nullopt otherwise.
std::optional<Assembly> plan_assembly(const GraphPlan& plan, const AssemblyInputs& in, int n) {
  const PlanNode& pn = plan.nodes[static_cast<std::size_t>(n)];
  if (!pn.schema || pn.function || !pn.schema->concatenates || !pn.attrs || pn.prepare_error ||
      pn.outputs.empty() || pn.outputs[0] < 0 || pn.inputs.empty())
    return std::nullopt;
  const std::optional<SlotFacts> out = in.facts(pn.outputs[0]);
  const std::optional<std::size_t> out_bytes =
      out ? byte_size(out->dtype, out->shape) : std::nullopt;
  if (!out_bytes) return std::nullopt;
  const auto rank = static_cast<int64_t>(out->shape.size());
  const std::optional<int64_t> axis = pn.schema->concatenates(*pn.schema, *pn.attrs, rank);
  if (!axis) return std::nullopt;
  for (int64_t k = 0; k < *axis; ++k)
    if (out->shape[static_cast<std::size_t>(k)] != 1) return std::nullopt;
  Assembly a;
  a.node = n;
  a.dtype = out->dtype;
  a.shape = out->shape;
  a.bytes = *out_bytes;
  std::size_t offset = 0;
  for (const auto& ref : pn.inputs) {
    const std::optional<SlotFacts> f = ref ? input_facts(plan, in, *ref) : std::nullopt;
    if (!f || f->dtype != a.dtype || f->shape.size() != a.shape.size()) return std::nullopt;
    for (std::size_t k = 0; k < a.shape.size(); ++k)
      if (k != static_cast<std::size_t>(*axis) && f->shape[k] != a.shape[k]) return std::nullopt;
    const std::optional<std::size_t> bytes = byte_size(f->dtype, f->shape);
    if (!bytes || *bytes > a.bytes - offset) return std::nullopt;
    a.parts.push_back({f->shape, offset, *bytes});
    offset += *bytes;
  }
  if (offset != a.bytes) return std::nullopt;
  return a;
}

bool aligned_region(const Assembly::Part& part) {
  return part.bytes > 0 && part.offset % kRegionAlign == 0 && part.bytes % kRegionAlign == 0;
}

// Marks the producer of input k of assembly `index` to write into its region; false when it
// cannot (a graph input or output, a value placed already, a function's result).
bool place_input(GraphPlan& plan, const AssemblyInputs& in, std::vector<bool>& placed,
                 const Assembly& a, int index, std::size_t k) {
  const auto& ref = plan.nodes[static_cast<std::size_t>(a.node)].inputs[k];
  if (!ref || ref->depth != 0 || ref->constant || !aligned_region(a.parts[k])) return false;
  const auto slot = static_cast<std::size_t>(ref->index);
  if (placed[slot] || in.graph_output[slot] || in.producer[slot] < 0) return false;
  PlanNode& producer = plan.nodes[static_cast<std::size_t>(in.producer[slot])];
  const Placement where{index, static_cast<int>(k)};
  // A concatenation assembled itself becomes a region of this one (nested concatenations).
  if (producer.assembles >= 0) {
    plan.assemblies[static_cast<std::size_t>(producer.assembles)].within = where;
  } else {
    if (!producer.schema || producer.function) return false;
    producer.placements.resize(producer.outputs.size());
    for (std::size_t j = 0; j < producer.outputs.size(); ++j)
      if (producer.outputs[j] == ref->index) producer.placements[j] = where;
  }
  placed[slot] = true;
  return true;
}

// The memory of assembly `index` in this run: made now if no producer asked for it yet, as a
// region of the enclosing assembly when it is nested in one.
std::shared_ptr<Storage> assembly_block(const Frame& frame, int index) {
  const auto& assemblies = frame.plan->assemblies;
  auto& blocks = frame.assembly_storage;
  if (blocks.size() < assemblies.size()) blocks.resize(assemblies.size());
  std::shared_ptr<Storage>& block = blocks[static_cast<std::size_t>(index)];
  if (block) return block;
  const Assembly& a = assemblies[static_cast<std::size_t>(index)];
  if (a.within.assembly < 0) {
    block = Storage::allocate(a.bytes, Storage::Fill::none);
  } else {
    const Assembly& outer = assemblies[static_cast<std::size_t>(a.within.assembly)];
    block = Storage::window(assembly_block(frame, a.within.assembly),
                            outer.parts[static_cast<std::size_t>(a.within.part)].offset, a.bytes);
  }
  return block;
}

}  // namespace

int64_t place_assemblies(GraphPlan& plan, const AssemblyInputs& in) {
  std::vector<bool> placed(in.producer.size(), false);
  int64_t inputs = 0;
  for (int n = 0; n < static_cast<int>(plan.nodes.size()); ++n) {
    std::optional<Assembly> a = plan_assembly(plan, in, n);
    if (!a) continue;
    const auto index = static_cast<int>(plan.assemblies.size());
    int64_t placed_here = 0;
    for (std::size_t k = 0; k < a->parts.size(); ++k)
      placed_here += place_input(plan, in, placed, *a, index, k) ? 1 : 0;
    if (placed_here == 0) continue;
    inputs += placed_here;
    plan.nodes[static_cast<std::size_t>(n)].assembles = index;
    plan.assemblies.push_back(std::move(*a));
  }
  return inputs;
}

Tensor placed_output(const PlanNode& pn, const Frame* frame, std::size_t i, DataType type,
                     const Shape& shape) {
  if (!frame || i >= pn.placements.size() || pn.placements[i].assembly < 0) return {};
  const Placement& where = pn.placements[i];
  const Assembly& a = frame->plan->assemblies[static_cast<std::size_t>(where.assembly)];
  const Assembly::Part& part = a.parts[static_cast<std::size_t>(where.part)];
  if (type != a.dtype || shape != part.shape) return {};
  return Tensor::wrap(
      type, shape,
      Storage::window(assembly_block(*frame, where.assembly), part.offset, part.bytes));
}

std::optional<Value> assemble(const PlanNode& pn, const Frame& frame,
                              const std::vector<const Value*>& inputs) {
  const Assembly& a = frame.plan->assemblies[static_cast<std::size_t>(pn.assembles)];
  if (inputs.size() != a.parts.size()) return std::nullopt;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const Value* v = inputs[k];
    if (!v || !v->is_tensor() || v->tensor().dtype() != a.dtype ||
        v->tensor().shape() != a.parts[k].shape) {
      // The kernel makes the output; the regions filled so far stay with their values.
      if (frame.assembly_storage.size() > static_cast<std::size_t>(pn.assembles))
        frame.assembly_storage[static_cast<std::size_t>(pn.assembles)].reset();
      return std::nullopt;
    }
  }
  std::shared_ptr<Storage> block = assembly_block(frame, pn.assembles);
  frame.assembly_storage[static_cast<std::size_t>(pn.assembles)].reset();
  std::byte* base = block->writable_data();
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const Tensor& t = inputs[k]->tensor();
    std::byte* region = base + a.parts[k].offset;
    // memmove: the source may be a view of another region of the same block.
    if (t.nbytes() && t.raw() != region) std::memmove(region, t.raw(), t.nbytes());
  }
  return Value(Tensor::wrap(a.dtype, a.shape, std::move(block)));
}

}  // namespace onnxtool::exec_detail
