// SPDX-License-Identifier: Apache-2.0
// Tile: the ai.onnx operator.
#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/types/element.h"
#include "core/types/float_formats.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The repeats per axis. Tile-1 repeats one axis (inputs `tiles` and `axis`, of the data's
// type); Tile-6+ takes one int64 per axis.
std::optional<std::vector<int64_t>> infer_repeats(const InferContext& ctx, std::size_t rank) {
  if (since(ctx) >= 6) return input_ints(ctx, 1);
  const Tensor* tiles = ctx.input_constant(1);
  const Tensor* axis = ctx.input_constant(2);
  if (!tiles || !axis || tiles->numel() != 1 || axis->numel() != 1) return std::nullopt;
  std::vector<int64_t> r(rank, 1);
  const auto a =
      normalize_axis(static_cast<int64_t>(element_as_double(*axis, 0)), static_cast<int64_t>(rank));
  r[static_cast<std::size_t>(a)] = static_cast<int64_t>(element_as_double(*tiles, 0));
  return r;
}

void tile_values(InferContext& ctx, int64_t times) {
  const auto v = input_dims_values(ctx, 0);
  if (!v || times < 0 || static_cast<int64_t>(v->size()) * times > 4096) return;
  Dims out;
  for (int64_t t = 0; t < times; ++t) out.insert(out.end(), v->begin(), v->end());
  set_values(ctx, 0, std::move(out), false);
}

// Each dim is multiplied by its repeat count (symbolic N gives N*3).
void infer_tile(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto repeats = infer_repeats(ctx, in->size());
  if (!repeats) {
    set_output_tensor(ctx, 0, elem, Dims(in->size()));
    ctx.explain(0, "the repeats are not known");
    return;
  }
  if (repeats->size() != in->size())
    infer_fail("repeats has " + std::to_string(repeats->size()) +
               " entries but the input has rank " + std::to_string(in->size()));
  Dims out;
  for (std::size_t k = 0; k < in->size(); ++k) {
    if ((*repeats)[k] < 0) infer_fail(indexed("repeats", k) + " is negative");
    out.push_back((*in)[k] * Dim::value((*repeats)[k]));
  }
  set_output_tensor(ctx, 0, elem, out);
  if (in->size() == 1) tile_values(ctx, (*repeats)[0]);
}

std::vector<int64_t> kernel_repeats(const KernelContext& ctx, int64_t rank) {
  if (since(ctx) >= 6) return read_ints(ctx, ctx.input(1), "repeats");
  std::vector<int64_t> r(static_cast<std::size_t>(rank), 1);
  const auto tiles = static_cast<int64_t>(element_as_double(ctx.input(1), 0));
  const auto axis =
      kernel_axis(ctx, static_cast<int64_t>(element_as_double(ctx.input(2), 0)), rank);
  r[static_cast<std::size_t>(axis)] = tiles;
  return r;
}

// The output seen as [r0, d0, r1, d1, ...] is the input read with stride 0 over each repeat:
// one strided copy.
void tile_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<int64_t> repeats = kernel_repeats(ctx, x.rank());
  if (static_cast<int64_t>(repeats.size()) != x.rank())
    ctx.fail("repeats has " + std::to_string(repeats.size()) + " entries but the input has rank " +
             std::to_string(x.rank()));
  const auto in_strides = contiguous_strides(x.shape());
  Shape out, iter;
  Layout from;
  for (std::size_t k = 0; k < repeats.size(); ++k) {
    if (repeats[k] < 0)
      ctx.fail(indexed("repeats", k) + " = " + std::to_string(repeats[k]) + " is negative");
    out.push_back(x.shape()[k] * repeats[k]);
    iter.insert(iter.end(), {repeats[k], x.shape()[k]});
    from.strides.insert(from.strides.end(), {0, in_strides[k]});
  }
  Tensor& y = ctx.output(0, x.dtype(), out);
  strided_copy(x, from, y, Layout{0, contiguous_strides(iter)}, iter, &ctx);
}

// ---- version adapters --------------------------------------------------------------------

// A whole number held in a one-element float tensor (Tile-1's tiles and axis).
std::optional<int64_t> whole_number(const Tensor& t) {
  if (t.numel() != 1) return std::nullopt;
  double v = 0;
  switch (t.dtype()) {
    case DataType::float32:
      v = t.data<float>()[0];
      break;
    case DataType::float64:
      v = t.data<double>()[0];
      break;
    case DataType::int64:
      return t.data<int64_t>()[0];
    default:
      return std::nullopt;
  }
  if (v != static_cast<double>(static_cast<int64_t>(v))) return std::nullopt;
  return static_cast<int64_t>(v);
}

void tile_axis_to_repeats(AdapterContext& ctx) {
  const auto tiles = ctx.constant_input(1), axis = ctx.constant_input(2);
  const auto count = tiles ? whole_number(*tiles) : std::nullopt;
  const auto at = axis ? whole_number(*axis) : std::nullopt;
  const Type* t = ctx.input_type(0);
  if (!count || !at)
    ctx.refuse("tiles and axis are computed when the model runs, and " + ctx.to().id() +
               " needs one constant count per dim");
  if (!t || t->rank() < 0) ctx.refuse("the input's rank is not known");
  const int64_t n = count.value_or(1), a = at.value_or(0);
  if (a < 0 || a >= t->rank()) ctx.refuse("axis " + std::to_string(a) + " is out of range");
  std::vector<int64_t> repeats(static_cast<std::size_t>(t->rank()), 1);
  repeats[static_cast<std::size_t>(a)] = n;
  ctx.truncate_inputs(1);
  ctx.set_input(1, ctx.add_constant(ctx.name_base() + "_repeats",
                                    Tensor::from_vector<int64_t>({t->rank()}, repeats)));
  ctx.describe("tiles along axis " + std::to_string(a) + " -> repeats");
}

Tensor scalar_like(DataType type, int64_t v) {
  if (type == DataType::float64) return Tensor::scalar<double>(static_cast<double>(v));
  if (type == DataType::float16) return Tensor::scalar<Float16>(to_float16(static_cast<float>(v)));
  return Tensor::scalar<float>(static_cast<float>(v));
}

void tile_repeats_to_axis(AdapterContext& ctx) {
  const auto repeats = ctx.constant_input(1);
  if (!repeats || repeats->dtype() != DataType::int64)
    ctx.refuse("repeats (input 1) is computed when the model runs, and " + ctx.to().id() +
               " needs a constant count and axis");
  int64_t axis = 0, count = 1, tiled = 0;
  for (int64_t i = 0; i < repeats->numel(); ++i)
    if (repeats->data<int64_t>()[i] != 1) {
      axis = i;
      count = repeats->data<int64_t>()[i];
      ++tiled;
    }
  if (tiled > 1)
    ctx.refuse(ctx.to().id() + " repeats along one axis, and this node along " +
               std::to_string(tiled));
  const Type* t = ctx.input_type(0);
  if (!t || t->kind != Type::Kind::tensor || t->elem <= 0)
    ctx.refuse("the input's element type is not known, and " + ctx.to().id() +
               " takes count and axis in it");
  const auto type = static_cast<DataType>(t->elem);
  ctx.set_input(1, ctx.add_constant(ctx.name_base() + "_tiles", scalar_like(type, count)));
  ctx.set_input(2, ctx.add_constant(ctx.name_base() + "_axis", scalar_like(type, axis)));
  ctx.describe("repeats -> tiles " + std::to_string(count) + " along axis " + std::to_string(axis));
}

}  // namespace

void define_Tile(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("input", "T")
      .input("tiles", "T")
      .input("axis", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(6)
      .input("input", "T")
      .input("repeats", "T1")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(13)
      .input("input", "T", D::differentiable)
      .input("repeats", "T1", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("T1", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_tile).kernel(tile_kernel);
  // Tile-1 repeats along one axis (count and axis as tensors of the data's own type); from 6
  // there is one count per dim.
  op.at(6).upgrade(tile_axis_to_repeats).downgrade(tile_repeats_to_axis);
}

}  // namespace onnxtool::ops
