// SPDX-License-Identifier: Apache-2.0
// Gemm: the ai.onnx operator. Y = alpha * op(A) * op(B) + beta * C, C broadcast to [M, N]
// (every version accepts a broadcastable C; Gemm-1 and -6 spelled it out with `broadcast`).
#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/registry/fusion.h"
#include "onnx.pb.h"
#include "ops/onnx/nn_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_gemm(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1, 2});
  const Type &a = ctx.input_type(0), &b = ctx.input_type(1);
  if (a.has_shape() && a.rank() != 2)
    ctx.fail("A must be 2-D, has rank " + std::to_string(a.rank()));
  if (b.has_shape() && b.rank() != 2)
    ctx.fail("B must be 2-D, has rank " + std::to_string(b.rank()));
  if (!a.has_shape() || !b.has_shape()) {
    set_output_tensor(ctx, 0, elem, Dims(2));
    return;
  }
  const bool ta = ctx.attrs().get_int("transA", 0) != 0, tb = ctx.attrs().get_int("transB", 0) != 0;
  const Dims &sa = *a.shape, &sb = *b.shape;
  ctx.unify_dims(sa[ta ? 0 : 1], sb[tb ? 1 : 0], "the inner dimension of A and B");
  const Dims y{sa[ta ? 1 : 0], sb[tb ? 0 : 1]};
  if (ctx.has_input(2) && ctx.input_type(2).has_shape()) broadcast_to(y, *ctx.input_type(2).shape);
  set_output_tensor(ctx, 0, elem, y);
}

struct GemmShape {
  bool ta = false, tb = false;
  int64_t m = 0, n = 0, k = 0;
  float alpha = 1, beta = 1;
  const Tensor* c = nullptr;
};

// What Gemm decodes once per node.
struct GemmState {
  bool ta = false, tb = false;
  float alpha = 1, beta = 1;
  // float16/bfloat16 B and C given as constants, converted to float32 at planning.
  std::optional<Tensor> b32, c32;
  // What fusions gave a float32 Gemm (core/registry/fusion.h): a residual summand's input
  // (-1: none) and an activation, applied to Y after the product in that order.
  int64_t residual_input = -1;
  kernels::Epilogue activation;
};

GemmState prepare_gemm(PrepareContext& ctx) {
  GemmState s;
  s.residual_input = residual_input_of(ctx.attrs());
  s.activation = epilogue_of(ctx.attrs());
  s.ta = ctx.attrs().get_int("transA", 0) != 0;
  s.tb = ctx.attrs().get_int("transB", 0) != 0;
  s.alpha = ctx.attrs().get_float("alpha", 1.0f);
  s.beta = ctx.attrs().get_float("beta", 1.0f);
  s.b32 = nn::prepared_float32(ctx, 1);
  s.c32 = nn::prepared_float32(ctx, 2);
  return s;
}

GemmShape gemm_shape(const KernelContext& ctx, const GemmState& s, const Tensor& a,
                     const Tensor& b) {
  if (a.rank() != 2 || b.rank() != 2)
    ctx.fail("A " + shape_to_string(a.shape()) + " and B " + shape_to_string(b.shape()) +
             " must be 2-D");
  GemmShape g;
  g.ta = s.ta;
  g.tb = s.tb;
  g.alpha = s.alpha;
  g.beta = s.beta;
  g.m = a.shape()[g.ta ? 1 : 0];
  g.k = a.shape()[g.ta ? 0 : 1];
  g.n = b.shape()[g.tb ? 0 : 1];
  if (b.shape()[g.tb ? 1 : 0] != g.k)
    ctx.fail("A " + shape_to_string(a.shape()) + " and B " + shape_to_string(b.shape()) +
             " do not multiply (inner dims differ, transA " + std::to_string(g.ta) + ", transB " +
             std::to_string(g.tb) + ")");
  if (ctx.has_input(2)) {
    g.c = &ctx.input(2);
    const Shape& cs = g.c->shape();
    const bool fits = cs.size() <= 2 && (cs.size() < 1 || cs.back() == 1 || cs.back() == g.n) &&
                      (cs.size() < 2 || cs[0] == 1 || cs[0] == g.m);
    if (!fits)
      ctx.fail("C " + shape_to_string(cs) + " does not broadcast to [" + std::to_string(g.m) + "," +
               std::to_string(g.n) + "]");
  }
  return g;
}

// C broadcast to [m, n]: element (i, j)'s index in C.
int64_t c_index(const Shape& cs, int64_t i, int64_t j) {
  const int64_t cn = cs.empty() ? 1 : cs.back();
  const int64_t cm = cs.size() < 2 ? 1 : cs[0];
  return (cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j);
}

template <class F>
void gemm_float(const KernelContext& ctx, const GemmShape& g, const F* a, const F* b, const F* c,
                F* y) {
  F beta = 0;
  if (c && g.beta != 0.0f) {
    const Shape& cs = g.c->shape();
    for (int64_t i = 0; i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j)
        y[i * g.n + j] = static_cast<F>(g.beta) * c[c_index(cs, i, j)];
    beta = 1;
  }
  nn::matmul<F>(ctx, g.ta, g.tb, g.m, g.n, g.k, static_cast<F>(g.alpha), a, g.ta ? g.m : g.k, b,
                g.tb ? g.k : g.n, beta, y, g.n);
}

template <class T>
void gemm_int(const GemmShape& g, const T* a, const T* b, const T* c, T* y) {
  nn::int_matmul<T>(g.ta, g.tb, g.m, g.n, g.k, a, g.ta ? g.m : g.k, b, g.tb ? g.k : g.n, y, g.n);
  const bool exact = g.alpha == 1.0f && (g.beta == 1.0f || !c);
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      T& v = y[i * g.n + j];
      const T cv = c ? c[c_index(g.c->shape(), i, j)] : T(0);
      if (exact)
        v = static_cast<T>(static_cast<std::make_unsigned_t<T>>(v) +
                           static_cast<std::make_unsigned_t<T>>(cv));
      else
        v = static_cast<T>(static_cast<double>(g.alpha) * static_cast<double>(v) +
                           static_cast<double>(g.beta) * static_cast<double>(cv));
    }
}

// The fused residual Add and activation on a float32 Y, as the nodes did them.
void finish_fused(const KernelContext& ctx, const GemmState& s, Tensor& y) {
  const Tensor* residual = nn::residual_summand(ctx, s.residual_input, y);
  s.activation.apply(y.mutable_data<float>(), y.numel(),
                     residual ? residual->data<float>() : nullptr);
}

void gemm_kernel(KernelContext& ctx, const GemmState& s) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  const GemmShape g = gemm_shape(ctx, s, a, b);
  if (b.dtype() != a.dtype() || (g.c && g.c->dtype() != a.dtype()))
    ctx.fail("A, B and C must have the same element type");
  Tensor& y = ctx.output(0, a.dtype(), {g.m, g.n});
  if (y.numel() == 0) return;
  switch (a.dtype()) {
    case DataType::float64:
      return gemm_float<double>(ctx, g, a.data<double>(), b.data<double>(),
                                g.c ? g.c->data<double>() : nullptr, y.mutable_data<double>());
    case DataType::int32:
      return gemm_int<int32_t>(g, a.data<int32_t>(), b.data<int32_t>(),
                               g.c ? g.c->data<int32_t>() : nullptr, y.mutable_data<int32_t>());
    case DataType::int64:
      return gemm_int<int64_t>(g, a.data<int64_t>(), b.data<int64_t>(),
                               g.c ? g.c->data<int64_t>() : nullptr, y.mutable_data<int64_t>());
    case DataType::uint32:
      return gemm_int<uint32_t>(g, a.data<uint32_t>(), b.data<uint32_t>(),
                                g.c ? g.c->data<uint32_t>() : nullptr, y.mutable_data<uint32_t>());
    case DataType::uint64:
      return gemm_int<uint64_t>(g, a.data<uint64_t>(), b.data<uint64_t>(),
                                g.c ? g.c->data<uint64_t>() : nullptr, y.mutable_data<uint64_t>());
    default:
      break;
  }
  nn::visit_float(ctx, a.dtype(), [](auto) {});  // fails for types no version allows
  // float32 as is; float16 and bfloat16 through float32 (constant B and C converted once).
  const Tensor a32 = nn::to_float32(ctx, a);
  const Tensor b32 = nn::float32_of(s.b32, b);
  const Tensor c32_tensor = g.c ? nn::float32_of(s.c32, *g.c) : Tensor();
  const float* c32 = g.c ? c32_tensor.data<float>() : nullptr;
  if (y.dtype() == DataType::float32) {
    gemm_float<float>(ctx, g, a32.data<float>(), b32.data<float>(), c32, y.mutable_data<float>());
    return finish_fused(ctx, s, y);
  }
  Tensor y32(DataType::float32, y.shape());
  gemm_float<float>(ctx, g, a32.data<float>(), b32.data<float>(), c32, y32.mutable_data<float>());
  nn::store_float32(ctx, y32.data<float>(), y);
}

// ---- version adapters --------------------------------------------------------------------

// broadcast=1 stretched C over the last dims of (M, N), as numpy broadcasting does.
void gemm_drop_broadcast(AdapterContext& ctx) {
  if (!ctx.has_attribute("broadcast")) return;
  ctx.describe("broadcast=" + std::to_string(ctx.int_attribute("broadcast").value_or(0)) +
               " dropped (C broadcasts the numpy way)");
  ctx.remove_attribute("broadcast");
}

std::optional<std::vector<int64_t>> gemm_known_dims(const Type* t) {
  if (!t || !t->shape) return std::nullopt;
  std::vector<int64_t> dims;
  for (const Dim& d : *t->shape) {
    if (!d.is_known()) return std::nullopt;
    dims.push_back(d.value());
  }
  return dims;
}

void gemm_zero_c(AdapterContext& ctx) {
  if (ctx.has_input(2)) return;
  const Type* a = ctx.input_type(0);
  if (!a || a->elem <= 0) ctx.refuse("C is required before version 11, and A's type is not known");
  ctx.set_input(
      2, ctx.add_constant(ctx.name_base() + "_zero_c", Tensor(static_cast<DataType>(a->elem), {})));
  ctx.describe("C: a zero scalar (required before version 11)");
}

// Down to 6: C of Y's shape needs nothing; C matching Y's last dims (or one element) is
// broadcast=1; any other numpy broadcasting has no equivalent.
void gemm_legacy_broadcast(AdapterContext& ctx) {
  if (!ctx.has_input(2)) ctx.refuse("C is optional only from version 11");
  const auto c = gemm_known_dims(ctx.input_type(2));
  const auto y = gemm_known_dims(ctx.output_type(0));
  if (!c || !y)
    ctx.refuse(
        "the shapes of C and Y are not known, and version 6 broadcasts C only over Y's last dims");
  if (*c == *y) return;
  const bool suffix = c->size() <= y->size() && std::equal(c->rbegin(), c->rend(), y->rbegin());
  const bool one = std::all_of(c->begin(), c->end(), [](int64_t d) { return d == 1; });
  if (!suffix && !one) ctx.refuse("numpy broadcasting of C has no equivalent before version 7");
  ctx.set_attribute("broadcast", int64_t{1});
  ctx.describe("broadcast=1 (C over Y's last dims)");
}

// For the executor's fusions (core/registry/fusion.h): a Gemm whose Y is float32 applies a
// residual Add and an activation after it, in float32 as the nodes do.
bool gemm_finishes(const FusionNode& n) {
  return n.output_elem == onnx::TensorProto::FLOAT;
}

}  // namespace

void define_Gemm(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("broadcast", AttrType::i, int64_t{0})
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(11)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .input_optional("C", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(13)
      .attr("alpha", AttrType::f, 1.0f)
      .attr("beta", AttrType::f, 1.0f)
      .attr("transA", AttrType::i, int64_t{0})
      .attr("transB", AttrType::i, int64_t{0})
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .input_optional("C", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(infer_gemm)
      .kernel(prepared_kernel(prepare_gemm, gemm_kernel))
      .takes_epilogue(gemm_finishes)
      .takes_residual(gemm_finishes)
      .macs([](const WorkShapes& s, const AttrView& attrs) {
        return nn::product_macs(s, 0, attrs.get_int("transA", 0) != 0);
      });
  // Version 7 broadcasts C the numpy way, without the broadcast attribute.
  op.at(7).upgrade(gemm_drop_broadcast).downgrade(gemm_legacy_broadcast);
  // C is optional from 11; before, a zero C says the same.
  op.at(11).upgrade(convert::unchanged("")).downgrade(gemm_zero_c);
}

}  // namespace onnxtool::ops
