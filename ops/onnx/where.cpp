// SPDX-License-Identifier: Apache-2.0
// Where: the ai.onnx operator. output = condition ? X : Y element by element, the three inputs
// broadcast as numpy does. Shape values propagate through it (exporters pick between a shape
// and a fallback with Where(Equal(shape, -1), ...)).
#include <algorithm>
#include <array>
#include <complex>
#include <optional>
#include <string>

#include "core/infer/helpers.h"
#include "ops/onnx/elementwise.h"

namespace onnxtool::ops {

namespace {

// Selection copies elements whole, so numeric types are handled by their size alone (16 bytes:
// complex128).
using SelectTypes =
    ew::Types<uint8_t, uint16_t, uint32_t, uint64_t, std::complex<double>, std::string>;

DataType storage_type(DataType t) {
  if (t == DataType::string) return t;
  switch (type_info(t).mem_bytes) {
    case 1:
      return DataType::uint8;
    case 2:
      return DataType::uint16;
    case 4:
      return DataType::uint32;
    case 8:
      return DataType::uint64;
    default:
      return DataType::complex128;
  }
}

template <class T>
void select_row(const bool* c, int64_t sc, const T* x, int64_t sx, const T* y, int64_t sy, T* r,
                int64_t n) {
  if (sc && sx && sy) {
    for (int64_t i = 0; i < n; ++i) r[i] = c[i] ? x[i] : y[i];
  } else {
    for (int64_t i = 0; i < n; ++i) r[i] = c[i * sc] ? x[i * sx] : y[i * sy];
  }
}

template <class T>
void run_where(KernelContext& ctx, const std::array<const Tensor*, 3>& in, Tensor& out) {
  const std::array<const Shape*, 3> shapes{&in[0]->shape(), &in[1]->shape(), &in[2]->shape()};
  const ew::Broadcast p = ew::plan_broadcast(out.shape(), shapes);
  const bool* c = in[0]->data<bool>();
  const T* x = ew::cdata<T>(*in[1]);
  const T* y = ew::cdata<T>(*in[2]);
  T* r = ew::mdata<T>(out);
  ctx.parallel_for(p.numel, ew::kCheapGrain, [&](int64_t begin, int64_t end) {
    ew::walk_rows<3>(p, begin, end, [&](const std::array<int64_t, 3>& off, int64_t at, int64_t n) {
      select_row(c + off[0], p.inner_stride(0), x + off[1], p.inner_stride(1), y + off[2],
                 p.inner_stride(2), r + at, n);
    });
  });
}

void where_kernel(KernelContext& ctx) {
  const std::array<const Tensor*, 3> in{&ctx.input(0), &ctx.input(1), &ctx.input(2)};
  if (in[0]->dtype() != DataType::boolean)
    ctx.fail("condition has element type " + std::string(type_name(in[0]->dtype())) +
             ", expected bool");
  ew::require_same_type(ctx, *in[1], *in[2]);
  const std::array<const Shape*, 3> shapes{&in[0]->shape(), &in[1]->shape(), &in[2]->shape()};
  Tensor& out = ctx.output(0, in[1]->dtype(), ew::broadcast_shapes(ctx, shapes));
  ew::dispatch(ctx, storage_type(in[1]->dtype()), SelectTypes{},
               [&](auto tag) { run_where<decltype(tag)>(ctx, in, out); });
}

// The condition's values: propagated (Equal's output) or a small bool constant as 0/1.
std::optional<Dims> condition_values(const InferContext& ctx) {
  if (const Dims* v = ctx.input_values(0)) return *v;
  const Tensor* t = ctx.input_constant(0);
  if (!t || t->dtype() != DataType::boolean || t->rank() > 1 || t->numel() > 4096)
    return std::nullopt;
  Dims out;
  for (bool b : t->span<bool>()) out.push_back(Dim::value(b ? 1 : 0));
  return out;
}

// Picks each value from X's or Y's; unknown where the condition is unknown and they differ.
void propagate_where_values(InferContext& ctx) {
  const auto c = condition_values(ctx);
  const Dims* x = ctx.input_values(1);
  const Dims* y = ctx.input_values(2);
  if (!c || !x || !y) return;
  const std::size_t n = std::max({c->size(), x->size(), y->size()});
  for (std::size_t s : {c->size(), x->size(), y->size()})
    if (s != n && s != 1) return;
  auto at = [n](const Dims& d, std::size_t i) -> const Dim& { return d[d.size() == n ? i : 0]; };
  Dims out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Dim& ci = at(*c, i);
    if (ci.is_known())
      out[i] = ci.value() ? at(*x, i) : at(*y, i);
    else if (at(*x, i).same_as(at(*y, i)))
      out[i] = at(*x, i);
  }
  bool scalar = true;
  for (std::size_t i = 0; i < 3; ++i) scalar = scalar && ctx.input_type(i).rank() == 0;
  ctx.set_output_values(0, std::move(out), scalar);
}

void infer_where(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {1, 2});
  set_output_tensor(ctx, 0, elem, broadcast_input_shapes(ctx));
  propagate_where_values(ctx);
}

}  // namespace

void define_Where(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("condition", "B", D::non_differentiable)
      .input("X", "T", D::differentiable)
      .input("Y", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("B", {"tensor(bool)"})
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(16)
      .input("condition", "B", D::non_differentiable)
      .input("X", "T", D::differentiable)
      .input("Y", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("B", {"tensor(bool)"})
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_where).kernel(where_kernel);
}

}  // namespace onnxtool::ops
