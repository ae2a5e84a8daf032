// SPDX-License-Identifier: Apache-2.0
// MatMul: the ai.onnx operator, numpy.matmul's semantics: 1-D operands are promoted to matrices
// (and the added dim removed again), batch dims broadcast.
#include <algorithm>
#include <string>
#include <vector>

#include "core/infer/helpers.h"
#include "core/kernels/gemm.h"
#include "core/registry/fusion.h"
#include "core/util/scratch.h"
#include "onnx.pb.h"
#include "ops/onnx/nn_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_matmul(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1});
  const auto a = ctx.input_type(0).shape, b = ctx.input_type(1).shape;
  set_output_tensor(ctx, 0, elem,
                    a && b ? std::optional<Dims>(matmul_shape(*a, *b)) : std::nullopt);
}

// Operands promoted to matrices with their batch dims broadcast: batch item i reads A at
// a_offset[i] and B at b_offset[i].
struct MatmulPlan {
  int64_t m = 0, n = 0, k = 0;
  Shape out;
  std::vector<int64_t> a_offset, b_offset;
  bool fold_batch = false;  // B is one matrix shared by A's contiguous batch: one product
};

Shape batch_dims(const Shape& s) {
  return Shape(s.begin(), s.end() - 2);
}

MatmulPlan plan_matmul(const NodeInfo& ctx, const Shape& a_shape, const Shape& b_shape) {
  if (a_shape.empty() || b_shape.empty()) ctx.fail("MatMul operands must have rank >= 1");
  Shape sa = a_shape, sb = b_shape;
  if (sa.size() == 1) sa.insert(sa.begin(), 1);
  if (sb.size() == 1) sb.push_back(1);
  MatmulPlan p;
  p.m = sa[sa.size() - 2];
  p.k = sa.back();
  p.n = sb.back();
  if (sb[sb.size() - 2] != p.k)
    ctx.fail("A " + shape_to_string(a_shape) + " and B " + shape_to_string(b_shape) +
             " do not multiply (A's last dim must equal B's second-to-last)");
  Shape ba = batch_dims(sa), bb = batch_dims(sb);
  const std::size_t rank = std::max(ba.size(), bb.size());
  ba.insert(ba.begin(), rank - ba.size(), 1);
  bb.insert(bb.begin(), rank - bb.size(), 1);
  Shape batch(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    if (ba[i] != bb[i] && ba[i] != 1 && bb[i] != 1)
      ctx.fail("the batch dims of A " + shape_to_string(a_shape) + " and B " +
               shape_to_string(b_shape) + " do not broadcast");
    batch[i] = ba[i] == 1 ? bb[i] : ba[i];
  }
  const int64_t items = nn::product(batch, 0, rank);
  // Strides of each operand's batch dims (0 where it is broadcast).
  std::vector<int64_t> sa_stride(rank), sb_stride(rank);
  for (std::size_t i = rank, ea = p.m * p.k, eb = p.k * p.n; i-- > 0;) {
    sa_stride[i] = ba[i] == 1 ? 0 : static_cast<int64_t>(ea);
    sb_stride[i] = bb[i] == 1 ? 0 : static_cast<int64_t>(eb);
    ea *= static_cast<std::size_t>(ba[i]);
    eb *= static_cast<std::size_t>(bb[i]);
  }
  p.fold_batch = nn::product(bb, 0, rank) == 1 && nn::product(ba, 0, rank) == items;
  for (int64_t it = 0; it < items && !p.fold_batch; ++it) {
    int64_t oa = 0, ob = 0;
    for (std::size_t i = rank, rest = static_cast<std::size_t>(it); i-- > 0;) {
      const auto idx = static_cast<int64_t>(rest % static_cast<std::size_t>(batch[i]));
      rest /= static_cast<std::size_t>(batch[i]);
      oa += idx * sa_stride[i];
      ob += idx * sb_stride[i];
    }
    p.a_offset.push_back(oa);
    p.b_offset.push_back(ob);
  }
  p.out = batch;
  if (a_shape.size() > 1) p.out.push_back(p.m);
  if (b_shape.size() > 1) p.out.push_back(p.n);
  if (p.fold_batch) {
    p.m *= items;
    p.a_offset = {0};
    p.b_offset = {0};
  }
  return p;
}

template <class F>
void matmul_float(const KernelContext& ctx, const MatmulPlan& p, const F* a, const F* b, F* y) {
  const auto items = static_cast<int64_t>(p.a_offset.size());
  auto one = [&](int64_t i, bool parallel) {
    F* yi = y + i * p.m * p.n;
    const F* ai = a + p.a_offset[static_cast<std::size_t>(i)];
    const F* bi = b + p.b_offset[static_cast<std::size_t>(i)];
    if (parallel)
      nn::matmul<F>(ctx, false, false, p.m, p.n, p.k, F(1), ai, p.k, bi, p.n, F(0), yi, p.n);
    else
      nn::gemm<F>(false, false, p.m, p.n, p.k, F(1), ai, p.k, bi, p.n, F(0), yi, p.n);
  };
  nn::for_each_product(ctx, items, nn::grain_for(p.m * p.n * p.k), one);
}

template <class T>
void matmul_int(const KernelContext& ctx, const MatmulPlan& p, const T* a, const T* b, T* y) {
  const auto items = static_cast<int64_t>(p.a_offset.size());
  ctx.parallel_for(items, nn::grain_for(p.m * p.n * p.k), [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      nn::int_matmul<T>(false, false, p.m, p.n, p.k, a + p.a_offset[static_cast<std::size_t>(i)],
                        p.k, b + p.b_offset[static_cast<std::size_t>(i)], p.n, y + i * p.m * p.n,
                        p.n);
  });
}

// What fusions gave a float32 MatMul (core/registry/fusion.h), applied to each element of Y
// right after its product, in the nodes' order: + bias[j] for column j (an Add or Sub of a
// constant along Y's last axis: a bias), + the residual's element (a residual Add: a tensor
// laid out as Y), then the activation. Each a float32 operation, as the nodes did it.
struct MatmulFinish {
  const float* bias = nullptr;
  const float* residual = nullptr;
  kernels::Epilogue activation;

  bool any() const { return bias || residual || activation; }

  // Rows [0, rows) x columns [c0, c1) of the matrix of Y at y + at (n columns a row).
  void apply(float* y, int64_t at, int64_t rows, int64_t n, int64_t c0, int64_t c1) const {
    for (int64_t r = 0; r < rows; ++r) {
      float* row = y + at + r * n + c0;
      if (bias)
        for (int64_t j = 0; j < c1 - c0; ++j) row[j] += bias[c0 + j];
      activation.apply(row, c1 - c0, residual ? residual + at + r * n + c0 : nullptr);
    }
  }
};

// What MatMul works out once per node: the product plan for the shapes known at planning (runs
// on other shapes plan their own), and a float16/bfloat16 constant B in float32.
struct MatmulState {
  nn::ShapePlan<MatmulPlan> plan;
  std::optional<Tensor> b32;
  // A constant float B of one matrix (rank 2, or leading dims of 1), packed once for the
  // products (not usable() otherwise).
  kernels::PackedB packed_b;
  // Inputs fusions added (-1: none): a bias along Y's last axis, a residual summand; and the
  // activation one gave.
  int64_t bias_input = -1, residual_input = -1;
  kernels::Epilogue activation;
};

void pack_constant_b(const PrepareContext& ctx, MatmulState& s) {
  const Tensor* b = s.b32 ? &*s.b32 : ctx.constant_tensor(1);
  if (!b || b->dtype() != DataType::float32 || b->rank() < 2 || !blas::packed_products()) return;
  const Shape& bs = b->shape();
  if (nn::product(bs, 0, bs.size() - 2) != 1) return;
  const int64_t k = bs[bs.size() - 2], n = bs.back();
  s.packed_b = kernels::PackedB(false, k, n, b->data<float>(), n);
}

MatmulState prepare_matmul(PrepareContext& ctx) {
  MatmulState s;
  s.b32 = nn::prepared_float32(ctx, 1);
  s.plan.prepare(ctx, [&](const Shape& a, const Shape& b) { return plan_matmul(ctx, a, b); });
  pack_constant_b(ctx, s);
  s.residual_input = residual_input_of(ctx.attrs());
  s.activation = epilogue_of(ctx.attrs());
  // Input 2 is no MatMul input: a bias fusion added it, unless it is the residual.
  if (ctx.has_input(2) && s.residual_input != 2) s.bias_input = 2;
  return s;
}

// The fused steps of this run, their operands checked against Y (plan p).
MatmulFinish finish_of(const KernelContext& ctx, const MatmulState& s, const MatmulPlan& p,
                       const Tensor& y) {
  MatmulFinish f;
  f.activation = s.activation;
  if (s.bias_input < 0 && s.residual_input < 0 && !s.activation) return f;
  if (y.dtype() != DataType::float32) ctx.fail("a fused MatMul computes float32 only");
  if (s.bias_input >= 0) {
    const Tensor& bias = ctx.input(s.bias_input);
    if (bias.dtype() != DataType::float32 || bias.numel() != p.n)
      ctx.fail("the fused bias must hold " + std::to_string(p.n) + " float32 values");
    f.bias = bias.data<float>();
  }
  if (const Tensor* residual = nn::residual_summand(ctx, s.residual_input, y))
    f.residual = residual->data<float>();
  return f;
}

// Y_i = A_i B for each batch item with B packed: column tiles of each product split across the
// threads (or whole items, when there are enough of them).
void matmul_packed_b(const KernelContext& ctx, const MatmulPlan& p, const kernels::PackedB& b,
                     const float* a, float* y, const MatmulFinish& finish = {}) {
  const auto items = static_cast<int64_t>(p.a_offset.size());
  // Columns [c0, c1) of item i's product; with `packed_a` (item i's A, packed once for all its
  // tiles) the product skips packing A.
  auto product = [&](int64_t i, int64_t c0, int64_t c1, const float* packed_a) {
    kernels::PackedBGemmArgs g;
    g.m = p.m;
    g.col0 = c0;
    g.n = c1 - c0;
    g.a = a + p.a_offset[static_cast<std::size_t>(i)];
    g.lda = p.k;
    g.a_packed = packed_a;
    g.b = &b;
    g.c = y + i * p.m * p.n + c0;
    g.ldc = p.n;
    kernels::gemm_packed_b(g);
  };
  // The product of a block, then the fused steps on it while it is in cache.
  auto block = [&](int64_t i, int64_t c0, int64_t c1, const float* packed_a = nullptr) {
    product(i, c0, c1, packed_a);
    if (finish.any()) finish.apply(y, i * p.m * p.n, p.m, p.n, c0, c1);
  };
  if (items >= 2 * ctx.threads()) {
    ctx.parallel_for(items, nn::grain_for(p.m * p.n * p.k), [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) block(i, 0, p.n);
    });
    return;
  }
  // Four tiles a thread where the columns allow, each a whole number of packed panels.
  const int64_t align = b.col_align();
  const int64_t panels = (p.n + align - 1) / align;
  const int64_t tiles = std::min<int64_t>(panels, 4 * ctx.threads());
  const int64_t tile = (panels + tiles - 1) / tiles * align;
  const int64_t count = (p.n + tile - 1) / tile;
  // A packed once for all the tiles, which would each pack all of it (a BERT layer's 128 x 3072
  // activations eight times over, 14 % of the encoder's time), by both threads in whole panels.
  const kernels::PackedBLayout a_layout = kernels::packed_a_layout(p.k, p.m, b.level());
  const int64_t a_panels = (p.m + a_layout.panel - 1) / a_layout.panel;
  thread_local std::vector<float> caller_packed;  // kept between runs; workers use it by reference
  std::vector<float>& packed_a = caller_packed;
  if (p.m >= 2) scratch_of(packed_a, static_cast<std::size_t>(a_layout.size()));
  for (int64_t i = 0; i < items; ++i) {
    if (p.m < 2) {  // one row: the product reads it as it is
      ctx.parallel_for(count, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) block(i, t * tile, std::min(p.n, (t + 1) * tile));
      });
      continue;
    }
    const float* a_i = a + p.a_offset[static_cast<std::size_t>(i)];
    ctx.parallel_for(a_panels, nn::grain_for(a_layout.panel * p.k), [&](int64_t lo, int64_t hi) {
      kernels::pack_a_rows(a_layout, a_i + lo * a_layout.panel * p.k, p.k, lo * a_layout.panel,
                           std::min(p.m, hi * a_layout.panel), packed_a.data());
    });
    ctx.parallel_for(count, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t t = lo; t < hi; ++t)
        block(i, t * tile, std::min(p.n, (t + 1) * tile), packed_a.data());
    });
  }
}

// The packed B is the constant input B (as float32) every run of this plan sees.
bool uses_packed_b(const MatmulState& s, const MatmulPlan& p) {
  if (!s.packed_b.usable()) return false;
  if (s.packed_b.k() != p.k || s.packed_b.n() != p.n) return false;
  for (int64_t off : p.b_offset)
    if (off != 0) return false;
  return true;
}

void matmul_kernel(KernelContext& ctx, const MatmulState& s) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (a.dtype() != b.dtype()) ctx.fail("A and B must have the same element type");
  const MatmulPlan p = s.plan.get(a.shape(), b.shape(), [&](const Shape& as, const Shape& bs) {
    return plan_matmul(ctx, as, bs);
  });
  // Every product writes all of Y (beta 0), but an empty k leaves the zeros.
  Tensor& y =
      p.k == 0 ? ctx.output(0, a.dtype(), p.out) : ctx.output_uninitialized(0, a.dtype(), p.out);
  if (y.numel() == 0) return;
  const MatmulFinish finish = finish_of(ctx, s, p, y);
  if (p.k == 0) {  // Y is zeros: the fused steps still apply
    if (finish.any()) finish.apply(y.mutable_data<float>(), 0, y.numel() / p.n, p.n, 0, p.n);
    return;
  }
  if (a.dtype() == DataType::float32 && uses_packed_b(s, p))
    return matmul_packed_b(ctx, p, s.packed_b, a.data<float>(), y.mutable_data<float>(), finish);
  switch (a.dtype()) {
    case DataType::float32:
      matmul_float<float>(ctx, p, a.data<float>(), b.data<float>(), y.mutable_data<float>());
      if (finish.any()) finish.apply(y.mutable_data<float>(), 0, y.numel() / p.n, p.n, 0, p.n);
      return;
    case DataType::float64:
      return matmul_float<double>(ctx, p, a.data<double>(), b.data<double>(),
                                  y.mutable_data<double>());
    case DataType::int32:
      return matmul_int<int32_t>(ctx, p, a.data<int32_t>(), b.data<int32_t>(),
                                 y.mutable_data<int32_t>());
    case DataType::int64:
      return matmul_int<int64_t>(ctx, p, a.data<int64_t>(), b.data<int64_t>(),
                                 y.mutable_data<int64_t>());
    case DataType::uint32:
      return matmul_int<uint32_t>(ctx, p, a.data<uint32_t>(), b.data<uint32_t>(),
                                  y.mutable_data<uint32_t>());
    case DataType::uint64:
      return matmul_int<uint64_t>(ctx, p, a.data<uint64_t>(), b.data<uint64_t>(),
                                  y.mutable_data<uint64_t>());
    default:
      break;
  }
  // float16 and bfloat16 through float32.
  nn::visit_float(ctx, a.dtype(), [](auto) {});
  const Tensor a32 = nn::to_float32(ctx, a);
  Tensor y32 = Tensor::uninitialized(DataType::float32, y.shape());
  if (uses_packed_b(s, p)) {
    matmul_packed_b(ctx, p, s.packed_b, a32.data<float>(), y32.mutable_data<float>());
  } else {
    const Tensor b32 = nn::float32_of(s.b32, b);
    matmul_float<float>(ctx, p, a32.data<float>(), b32.data<float>(), y32.mutable_data<float>());
  }
  nn::store_float32(ctx, y32.data<float>(), y);
}

// ---- fusions (core/registry/fusion.h) ---------------------------------------------------------

// A float32 product whose kernel can finish its own output: Y's type is known to be float32.
bool matmul_finishes(const FusionNode& n) {
  return n.output_elem == onnx::TensorProto::FLOAT;
}

// A shift along Y's last axis after the product (an Add or Sub of a constant: a bias, as a
// transformer's exports write a linear layer), kept as an input 2 of Y's last dim in floats
// that the kernel adds to each element of Y's columns: the Add's own float sum, so the bits
// stay. B must be a constant matrix (its columns are Y's last dim). A scale stays a node of its
// own (folded into B it would round differently), and so does a second shift (two sums round
// twice).
bool matmul_absorb_channel_affine(const FusionNode& n, const ChannelAffine& affine,
                                  ReplacedInputs& out) {
  if (!matmul_finishes(n) || n.output_rank < 1 || n.input_named.size() > 2) return false;
  if (residual_input_of(n.attrs) >= 0 || epilogue_of(n.attrs)) return false;
  const Tensor* b = n.constants.size() > 1 ? n.constants[1] : nullptr;
  if (!b || b->rank() < 2) return false;
  const int64_t cols = b->shape().back();
  // Along the last axis or one value for all, and no more axes than Y (the Add would add some).
  if (affine.axis_from_end > 1 || affine.operand_rank > n.output_rank) return false;
  if (affine.scale.size() != 1 || affine.scale[0] != 1.0) return false;
  const auto shifts = static_cast<int64_t>(affine.shift.size());
  if (shifts != 1 && shifts != cols) return false;
  Tensor bias = Tensor::uninitialized(DataType::float32, {cols});
  float* dst = bias.mutable_data<float>();
  for (int64_t j = 0; j < cols; ++j) dst[j] = static_cast<float>(affine.shift_at(j));
  out.inputs.emplace_back(2, std::move(bias));
  return true;
}

}  // namespace

void define_MatMul(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("A", "T")
      .input("B", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .input("A", "T")
      .input("B", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(13)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(infer_matmul)
      .kernel(prepared_kernel(prepare_matmul, matmul_kernel))
      .absorb_channel_affine(matmul_absorb_channel_affine)
      .takes_epilogue(matmul_finishes)
      .takes_residual(matmul_finishes)
      .macs([](const WorkShapes& s, const AttrView&) { return nn::product_macs(s, 0); });
}

}  // namespace onnxtool::ops
