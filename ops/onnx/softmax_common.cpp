// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/softmax_common.h"

#include <cmath>
#include <limits>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/kernels/vmath.h"
#include "core/util/scratch.h"
#include "onnx.pb.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops::nn {

namespace {

// The rows the operation runs over, as [outer, axis, inner]: the coerced 2-D view before 13.
AxisSplit softmax_split(const KernelContext& ctx, const Shape& shape) {
  const auto rank = static_cast<int64_t>(shape.size());
  // The schema gives each version's default axis.
  const int64_t axis = ctx.attrs().get_int("axis");
  if (ctx.schema().since >= 13) {
    if (rank == 0) return {};
    return split_at(shape, kernel_axis(ctx, axis, rank));
  }
  // Coerced to 2-D; axis may equal the rank (one element per row), or be 0 for a scalar.
  if (axis < -rank || axis > rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
  return {product(shape, 0, a), product(shape, a, shape.size()), 1};
}

// One [axis, inner] block: max, then exponentials and their sum, then the normalisation, each
// pass running along `inner` (contiguous) for every position on the axis.
template <class T>
void softmax_block(SoftmaxKind kind, const T* x, T* y, int64_t len, int64_t inner,
                   std::vector<acc_t<T>>& scratch) {
  using A = acc_t<T>;
  scratch.assign(static_cast<std::size_t>(2 * inner), A(0));
  A* mx = scratch.data();
  A* sum = mx + inner;
  std::fill(mx, mx + inner, -std::numeric_limits<A>::infinity());
  std::vector<int64_t> arg(kind == SoftmaxKind::hardmax ? static_cast<std::size_t>(inner) : 0, 0);
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      const A v = load<T>(x[r * inner + i]);
      if (v > mx[i]) {
        mx[i] = v;
        if (kind == SoftmaxKind::hardmax) arg[static_cast<std::size_t>(i)] = r;
      }
    }
  if (kind == SoftmaxKind::hardmax) {
    for (int64_t r = 0; r < len; ++r)
      for (int64_t i = 0; i < inner; ++i)
        y[r * inner + i] = store<T>(arg[static_cast<std::size_t>(i)] == r ? A(1) : A(0));
    return;
  }
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i) {
      const A e = std::exp(load<T>(x[r * inner + i]) - mx[i]);
      sum[i] += e;
      if (kind == SoftmaxKind::softmax) y[r * inner + i] = store<T>(e);
    }
  if (kind == SoftmaxKind::softmax) {
    for (int64_t i = 0; i < inner; ++i) sum[i] = A(1) / sum[i];
    if constexpr (std::is_same_v<T, A>) {
      for (int64_t r = 0; r < len; ++r)
        for (int64_t i = 0; i < inner; ++i) y[r * inner + i] *= sum[i];
      return;
    } else {
      // Narrow types: recompute rather than round twice.
      for (int64_t r = 0; r < len; ++r)
        for (int64_t i = 0; i < inner; ++i)
          y[r * inner + i] = store<T>(std::exp(load<T>(x[r * inner + i]) - mx[i]) * sum[i]);
      return;
    }
  }
  for (int64_t i = 0; i < inner; ++i) sum[i] = mx[i] + std::log(sum[i]);
  for (int64_t r = 0; r < len; ++r)
    for (int64_t i = 0; i < inner; ++i)
      y[r * inner + i] = store<T>(load<T>(x[r * inner + i]) - sum[i]);
}

// A float32 softmax along contiguous rows (the axis is the last one that is not 1): the
// vector kernels of core/kernels/vmath.h, whose sum keeps one order on every CPU.
void softmax_rows_f32(const float* x, float* y, int64_t rows, int64_t len) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* src = x + r * len;
    float* dst = y + r * len;
    const float mx = kernels::max_f32(src, len);
    const float sum = kernels::exp_shifted_sum_f32(src, mx, dst, len);
    kernels::scale_f32(dst, len, 1.0f / sum);
  }
}

// A float32 log-softmax along contiguous rows, on the same vector kernels: x - (max + log(sum
// of e^(x - max))), the exponentials into a scratch (x may be y).
void log_softmax_rows_f32(const float* x, float* y, int64_t rows, int64_t len) {
  thread_local std::vector<float> exps;
  scratch_of(exps, static_cast<std::size_t>(len));
  for (int64_t r = 0; r < rows; ++r) {
    const float* src = x + r * len;
    float* dst = y + r * len;
    const float mx = kernels::max_f32(src, len);
    const float shift = mx + std::log(kernels::exp_shifted_sum_f32(src, mx, exps.data(), len));
    for (int64_t i = 0; i < len; ++i) dst[i] = src[i] - shift;
  }
}

}  // namespace

void infer_softmax(InferContext& ctx) {
  const Type& t = ctx.input_type(0);
  if (t.has_shape() && ctx.schema().since >= 13 && t.rank() > 0)
    ctx.normalize_axis(ctx.attrs().get_int("axis", -1), t.rank());
  propagate_elem_type(ctx, 0, 0);
  propagate_shape(ctx, 0, 0);
}

void softmax_kernel(KernelContext& ctx, SoftmaxKind kind) {
  const Tensor& x = ctx.input(0);
  // Every path writes every element.
  Tensor& y = ctx.output_uninitialized(0, x.dtype(), x.shape());
  if (x.numel() == 0) return;
  const AxisSplit s = softmax_split(ctx, x.shape());
  if (kind != SoftmaxKind::hardmax && x.dtype() == DataType::float32 && s.inner == 1) {
    const float* src = x.data<float>();
    float* dst = y.mutable_data<float>();
    ctx.parallel_for(s.outer, grain_for(s.axis * 8), [&](int64_t lo, int64_t hi) {
      if (kind == SoftmaxKind::softmax)
        softmax_rows_f32(src + lo * s.axis, dst + lo * s.axis, hi - lo, s.axis);
      else
        log_softmax_rows_f32(src + lo * s.axis, dst + lo * s.axis, hi - lo, s.axis);
    });
    return;
  }
  visit_float(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = y.mutable_data<T>();
    const int64_t block = s.axis * s.inner;
    ctx.parallel_for(s.outer, grain_for(block * 4), [&](int64_t lo, int64_t hi) {
      std::vector<acc_t<T>> scratch;
      for (int64_t o = lo; o < hi; ++o)
        softmax_block<T>(kind, src + o * block, dst + o * block, s.axis, s.inner, scratch);
    });
  });
}

// ---- version adapters -----------------------------------------------------------------

namespace {

onnx::NodeProto make_node(const std::string& op, std::vector<std::string> inputs,
                          std::vector<std::string> outputs) {
  onnx::NodeProto n;
  n.set_op_type(op);
  for (auto& i : inputs) n.add_input(std::move(i));
  for (auto& o : outputs) n.add_output(std::move(o));
  return n;
}

void set_int(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void set_ints(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

int64_t input_rank(const AdapterContext& ctx) {
  const Type* t = ctx.input_type(0);
  return t ? t->rank() : -1;
}

// Up to 13: rows of the 2-D coercion at `axis` (default 1). When that is the last axis the new
// version says the same with axis=-1; otherwise the input is flattened to those rows, the
// operation runs along axis 1, and the result takes the input's shape back.
void coerced_rows_to_axis(AdapterContext& ctx) {
  const int64_t axis = ctx.int_attribute("axis").value_or(1);
  const int64_t rank = input_rank(ctx);
  if (axis == -1 || (rank >= 0 && axis == rank - 1)) {
    ctx.set_attribute("axis", int64_t{-1});
    ctx.describe("axis " + std::to_string(axis) + " is the last: axis=-1");
    return;
  }
  if (rank < 0)
    ctx.refuse("axis=" + std::to_string(axis) + " coerces the input to 2-D rows, and its rank " +
               "is not known");
  const std::string x = ctx.input(0);
  const std::string rows = ctx.fresh_name(x + "_rows");
  auto flatten = make_node("Flatten", {x}, {rows});
  set_int(flatten, "axis", axis);
  ctx.insert_before(std::move(flatten));
  const std::string shape = ctx.fresh_name(x + "_shape");
  ctx.insert_before(make_node("Shape", {x}, {shape}));
  // The node itself runs on the rows and writes a fresh value; a Reshape gives back the output.
  const std::string out = ctx.output(0);
  const std::string row_out = ctx.fresh_name(out + "_rows");
  ctx.set_input(0, rows);
  ctx.set_attribute("axis", int64_t{1});
  ctx.rename_output(0, row_out);
  ctx.insert_after(make_node("Reshape", {row_out, shape}, {out}));
  ctx.describe("rows of the 2-D coercion at axis " + std::to_string(axis) +
               ": Flatten, then along axis 1, then Reshape back");
}

// Down to 12: along one axis. The last axis is rows of a coercion at rank-1; another axis is
// moved last with a Transpose, and moved back after.
void axis_to_coerced_rows(AdapterContext& ctx) {
  const int64_t axis = ctx.int_attribute("axis").value_or(-1);
  const int64_t rank = input_rank(ctx);
  if (axis == -1 || (rank >= 0 && axis == rank - 1)) {
    ctx.set_attribute("axis", rank >= 0 ? rank - 1 : int64_t{-1});
    ctx.describe("along the last axis: rows of the coercion at axis " +
                 std::to_string(rank >= 0 ? rank - 1 : -1));
    return;
  }
  if (rank < 0)
    ctx.refuse("axis=" + std::to_string(axis) + " is not the last, and the input's rank is not " +
               "known");
  const int64_t a = axis < 0 ? axis + rank : axis;
  std::vector<int64_t> perm;
  for (int64_t k = 0; k < rank; ++k) perm.push_back(k);
  std::swap(perm[static_cast<std::size_t>(a)], perm.back());
  const std::string x = ctx.input(0);
  const std::string moved = ctx.fresh_name(x + "_axis_last");
  auto in_t = make_node("Transpose", {x}, {moved});
  set_ints(in_t, "perm", perm);
  ctx.insert_before(std::move(in_t));
  const std::string out = ctx.output(0);
  const std::string moved_out = ctx.fresh_name(out + "_axis_last");
  ctx.set_input(0, moved);
  ctx.set_attribute("axis", rank - 1);
  ctx.rename_output(0, moved_out);
  auto out_t = make_node("Transpose", {moved_out}, {out});
  set_ints(out_t, "perm", perm);  // a swap is its own inverse
  ctx.insert_after(std::move(out_t));
  ctx.describe("axis " + std::to_string(axis) + ": moved last with Transpose, and back");
}

}  // namespace

void add_softmax_adapters(OpDef& op) {
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
  op.at(13).upgrade(coerced_rows_to_axis).downgrade(axis_to_coerced_rows);
}

}  // namespace onnxtool::ops::nn
