// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/nn_common.h"

#include <algorithm>
#include <stdexcept>

#include "core/exec/blas.h"
#include "core/infer/helpers.h"
#include "core/kernels/half.h"
#include "onnx.pb.h"

namespace onnxtool::ops::nn {

// ---- element conversion ----------------------------------------------------------------------

Tensor to_float32(const Tensor& x) {
  if (x.dtype() == DataType::float32) return x;
  Tensor out = Tensor::uninitialized(DataType::float32, x.shape());  // every element written
  float* o = out.mutable_data<float>();
  visit_type(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_narrow_float_v<T>) {
      kernels::narrow_to_float(x.data<T>(), o, x.numel());
    } else if constexpr (std::is_arithmetic_v<T>) {
      const T* in = x.data<T>();
      for (int64_t i = 0; i < x.numel(); ++i) o[i] = static_cast<float>(load<T>(in[i]));
    } else {
      std::fill(o, o + x.numel(), 0.0f);
    }
  });
  return out;
}

void store_float32(const float* values, Tensor& out) {
  visit_type(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_narrow_float_v<T>) {
      kernels::float_to_narrow(values, out.mutable_data<T>(), out.numel());
    } else if constexpr (std::is_arithmetic_v<T>) {
      T* o = out.mutable_data<T>();
      for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<T>(values[i]);
    }
  });
}

namespace {

// Elements per task of the threaded conversions: enough to outweigh handing a task out.
constexpr int64_t kConvertGrain = 16384;

// Calls fn(tag, begin, end) across ctx's threads over t's elements when t is float16 or
// bfloat16 (tag: a value of that type); false otherwise.
template <class Fn>
bool for_half_floats(const KernelContext& ctx, const Tensor& t, const Fn& fn) {
  bool done = false;
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
      ctx.parallel_for(t.numel(), kConvertGrain,
                       [&](int64_t begin, int64_t end) { fn(tag, begin, end); });
      done = true;
    }
  });
  return done;
}

}  // namespace

bool widen_half_floats(const KernelContext& ctx, const Tensor& x, float* out) {
  return for_half_floats(ctx, x, [&](auto tag, int64_t begin, int64_t end) {
    using T = decltype(tag);
    kernels::narrow_to_float(x.data<T>() + begin, out + begin, end - begin);
  });
}

Tensor to_float32(const KernelContext& ctx, const Tensor& x) {
  if (x.dtype() != DataType::float16 && x.dtype() != DataType::bfloat16) return to_float32(x);
  Tensor out = Tensor::uninitialized(DataType::float32, x.shape());  // every element written
  widen_half_floats(ctx, x, out.mutable_data<float>());
  return out;
}

void store_float32(const KernelContext& ctx, const float* values, Tensor& out) {
  const bool done = for_half_floats(ctx, out, [&](auto tag, int64_t begin, int64_t end) {
    using T = decltype(tag);
    kernels::float_to_narrow(values + begin, out.mutable_data<T>() + begin, end - begin);
  });
  if (!done) store_float32(values, out);
}

const Tensor* residual_summand(const KernelContext& ctx, int64_t input, const Tensor& y) {
  if (input < 0) return nullptr;
  const auto index = static_cast<std::size_t>(input);
  const Tensor& r = ctx.input(index);
  const bool typed =
      r.dtype() == y.dtype() && (y.dtype() == DataType::float32 || y.dtype() == DataType::float16 ||
                                 y.dtype() == DataType::bfloat16);
  if (!typed || r.shape() != y.shape())
    ctx.fail("the fused residual summand \"" + ctx.node().input(static_cast<int>(index)) +
             "\" has type " + std::string(type_name(r.dtype())) + " and shape " +
             shape_to_string(r.shape()) + ", expected " + std::string(type_name(y.dtype())) + " " +
             shape_to_string(y.shape()));
  return &r;
}

void store_float32_plus(const KernelContext& ctx, const float* values, const Tensor& residual,
                        const kernels::Epilogue& act, Tensor& out) {
  const bool done = for_half_floats(ctx, out, [&](auto tag, int64_t begin, int64_t end) {
    using T = decltype(tag);
    const T* r = residual.data<T>();
    T* o = out.mutable_data<T>();
    // Blocks that stay in L1: the conversions are the kernels' bulk ones.
    constexpr int64_t kBlock = 1024;
    float sum[kBlock], addend[kBlock];
    T rounded[kBlock];
    for (int64_t i = begin; i < end; i += kBlock) {
      const int64_t n = std::min(kBlock, end - i);
      kernels::float_to_narrow(values + i, rounded, n);
      kernels::narrow_to_float(rounded, sum, n);
      kernels::narrow_to_float(r + i, addend, n);
      for (int64_t j = 0; j < n; ++j) sum[j] += addend[j];
      kernels::float_to_narrow(sum, o + i, n);
      if (!act) continue;
      // The activation on the rounded sums: a clamp's bounds or a leaky slope's products are
      // rounded again, as the activation node rounds its results.
      kernels::narrow_to_float(o + i, sum, n);
      act.apply(sum, n);
      kernels::float_to_narrow(sum, o + i, n);
    }
  });
  if (!done) throw std::logic_error("store_float32_plus: float16 or bfloat16 only");
}

void require_conv_operands(const NodeInfo& ctx, const Shape& x, const Shape& w) {
  if (x.size() < 3)
    ctx.fail("X has shape " + shape_to_string(x) + "; expected [N, C, D1, ...] (rank 3 or more)");
  if (w.size() != x.size())
    ctx.fail("W has shape " + shape_to_string(w) + " but X has shape " + shape_to_string(x) +
             " (expected equal ranks)");
}

std::optional<Tensor> prepared_float32(const PrepareContext& ctx, std::size_t i) {
  const Tensor* t = ctx.constant_tensor(i);
  if (!t || (t->dtype() != DataType::float16 && t->dtype() != DataType::bfloat16))
    return std::nullopt;
  return to_float32(*t);
}

Tensor float32_of(const std::optional<Tensor>& prepared, const Tensor& t) {
  return prepared ? *prepared : to_float32(t);
}

double element_as_double(const Tensor& t, int64_t i) {
  double v = 0;
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_narrow_float_v<T>)
      v = to_float(t.data<T>()[i]);
    else if constexpr (std::is_arithmetic_v<T>)
      v = static_cast<double>(t.data<T>()[i]);
  });
  return v;
}

std::vector<double> doubles_of(const Tensor& t) {
  std::vector<double> v(static_cast<std::size_t>(t.numel()));
  for (int64_t k = 0; k < t.numel(); ++k) v[static_cast<std::size_t>(k)] = element_as_double(t, k);
  return v;
}

// ---- matrix products ------------------------------------------------------------------------

template <class F>
void matmul(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, F alpha,
            const F* a, int64_t lda, const F* b, int64_t ldb, F beta, F* c, int64_t ldc) {
  // One row is a matrix-vector product that reads B once (core/kernels/gemm.h); the split over
  // the threads is by columns then.
  gemm<F>(ctx, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template void matmul<float>(const KernelContext&, bool, bool, int64_t, int64_t, int64_t, float,
                            const float*, int64_t, const float*, int64_t, float, float*, int64_t);
template void matmul<double>(const KernelContext&, bool, bool, int64_t, int64_t, int64_t, double,
                             const double*, int64_t, const double*, int64_t, double, double*,
                             int64_t);

// ---- shapes ----------------------------------------------------------------------------------

namespace {

double numel_of(const Shape& s) {
  double n = 1;
  for (int64_t d : s) n *= static_cast<double>(d);
  return n;
}

}  // namespace

double filter_macs(const WorkShapes& s, std::size_t each, std::size_t w_input, bool each_is_input) {
  const Shape* e = each_is_input ? s.input(each) : s.output(each);
  const Shape* w = s.input(w_input);
  if (!e || !w || w->empty() || (*w)[0] <= 0) return 0;
  return numel_of(*e) * numel_of(*w) / static_cast<double>((*w)[0]);
}

FlopsFn window_flops() {
  return [](const WorkShapes& s, const AttrView& attrs) {
    const Shape* y = s.output(0);
    if (!y) return 0.0;
    double window = 1;
    for (int64_t k : attrs.get_ints("kernel_shape", {})) window *= static_cast<double>(k);
    return numel_of(*y) * window;
  };
}

FlopsFn input_flops(double per_element) {
  return [per_element](const WorkShapes& s, const AttrView&) {
    const Shape* x = s.input(0);
    return x ? numel_of(*x) * per_element : 0.0;
  };
}

double product_macs(const WorkShapes& s, std::size_t a_input, bool k_first) {
  const Shape* a = s.input(a_input);
  const Shape* y = s.output(0);
  if (!a || !y || a->empty()) return 0;
  const int64_t k = k_first && a->size() == 2 ? (*a)[0] : a->back();
  return numel_of(*y) * static_cast<double>(k);
}

int64_t product(std::span<const int64_t> dims, std::size_t begin, std::size_t end) {
  int64_t p = 1;
  for (std::size_t i = begin; i < end && i < dims.size(); ++i) p *= dims[i];
  return p;
}

AxisSplit split_at(const Shape& shape, int64_t axis) {
  const auto a = static_cast<std::size_t>(axis);
  return {product(shape, 0, a), shape[a], product(shape, a + 1, shape.size())};
}

int64_t kernel_axis(const KernelContext& ctx, int64_t axis, int64_t rank, const char* what) {
  if (axis < -rank || axis >= rank)
    ctx.fail(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
             std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

// ---- windows ---------------------------------------------------------------------------------

bool Window::is_pointwise() const {
  for (std::size_t i = 0; i < rank(); ++i)
    if (kernel[i] != 1 || stride[i] != 1 || pad_begin[i] != 0 || pad_end[i] != 0) return false;
  return true;
}

namespace {

std::vector<int64_t> ints_attr(const NodeInfo& ctx, const std::optional<std::vector<int64_t>>& v,
                               const char* name, std::size_t n, int64_t fallback) {
  if (!v || v->empty()) return std::vector<int64_t>(n, fallback);
  if (v->size() != n)
    ctx.fail(std::string("attribute ") + name + " has " + std::to_string(v->size()) +
             " values, expected " + std::to_string(n));
  return *v;
}

int64_t floor_div(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
int64_t ceil_div(int64_t a, int64_t b) {
  return -floor_div(-a, b);
}

// Output size along one axis for explicit pads (NOTSET).
int64_t explicit_out(const NodeInfo& ctx, const Window& w, std::size_t i, bool ceil_mode) {
  const int64_t eff = w.dilation[i] * (w.kernel[i] - 1) + 1;
  const int64_t span = w.in[i] + w.pad_begin[i] + w.pad_end[i] - eff;
  if (span < 0)
    ctx.fail("the window (" + std::to_string(eff) + " wide with dilations) is larger than the " +
             "padded input (" + std::to_string(w.in[i] + w.pad_begin[i] + w.pad_end[i]) +
             ") along spatial axis " + std::to_string(i));
  if (!ceil_mode) return span / w.stride[i] + 1;
  int64_t out = ceil_div(span, w.stride[i]) + 1;
  // The last window must start inside the input or its left padding (MaxPool-10+).
  if ((out - 1) * w.stride[i] >= w.in[i] + w.pad_begin[i]) --out;
  return out;
}

}  // namespace

WindowAttrs window_attrs(const NodeInfo& ctx) {
  WindowAttrs a;
  a.strides = ctx.attrs().opt_ints("strides");
  a.dilations = ctx.attrs().opt_ints("dilations");
  a.pads = ctx.attrs().opt_ints("pads");
  a.auto_pad = ctx.attrs().opt_string("auto_pad").value_or("NOTSET");
  if (a.auto_pad.empty()) a.auto_pad = "NOTSET";
  return a;
}

Window make_window(const KernelContext& ctx, std::span<const int64_t> in,
                   const std::vector<int64_t>& kernel, bool ceil_mode) {
  return make_window(ctx, window_attrs(ctx), in, kernel, ceil_mode);
}

Window make_window(const NodeInfo& ctx, const WindowAttrs& attrs, std::span<const int64_t> in,
                   const std::vector<int64_t>& kernel, bool ceil_mode) {
  const std::size_t r = in.size();
  Window w;
  w.in.assign(in.begin(), in.end());
  w.kernel = kernel;
  if (w.kernel.size() != r)
    ctx.fail("the kernel has " + std::to_string(w.kernel.size()) +
             " spatial dims but the input has " + std::to_string(r));
  w.stride = ints_attr(ctx, attrs.strides, "strides", r, 1);
  w.dilation = ints_attr(ctx, attrs.dilations, "dilations", r, 1);
  const std::vector<int64_t> pads = ints_attr(ctx, attrs.pads, "pads", 2 * r, 0);
  w.pad_begin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(r));
  w.pad_end.assign(pads.begin() + static_cast<std::ptrdiff_t>(r), pads.end());
  const std::string& auto_pad = attrs.auto_pad;
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" &&
      auto_pad != "SAME_LOWER")
    ctx.fail("auto_pad \"" + auto_pad + "\" is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  w.out.resize(r);
  for (std::size_t i = 0; i < r; ++i) {
    if (w.kernel[i] <= 0 || w.stride[i] <= 0 || w.dilation[i] <= 0)
      ctx.fail("kernel_shape, strides and dilations must be positive (spatial axis " +
               std::to_string(i) + ")");
    if (w.pad_begin[i] < 0 || w.pad_end[i] < 0) ctx.fail("pads must not be negative");
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t eff = w.dilation[i] * (w.kernel[i] - 1) + 1;
      w.out[i] = ceil_div(w.in[i], w.stride[i]);
      const int64_t total = std::max<int64_t>((w.out[i] - 1) * w.stride[i] + eff - w.in[i], 0);
      w.pad_begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.pad_end[i] = total - w.pad_begin[i];
    } else if (auto_pad == "VALID") {
      w.pad_begin[i] = w.pad_end[i] = 0;
      w.out[i] = explicit_out(ctx, w, i, ceil_mode);
    } else {
      w.out[i] = explicit_out(ctx, w, i, ceil_mode);
    }
  }
  return w;
}

void require_spatial_input(const KernelContext& ctx, const Tensor& x, const char* what) {
  if (x.rank() < 3)
    ctx.fail(std::string(what) + " has shape " + shape_to_string(x.shape()) +
             "; expected [N, C, D1, ...] (rank 3 or more)");
}

// ---- inference -------------------------------------------------------------------------------

std::optional<Dims> shape_with_min_rank(InferContext& ctx, std::size_t i, int64_t min_rank) {
  const Type& t = ctx.input_type(i);
  if (!t.has_shape()) return std::nullopt;
  if (t.rank() < min_rank)
    ctx.fail("input " + std::to_string(i) + " has rank " + std::to_string(t.rank()) +
             ", expected at least " + std::to_string(min_rank));
  return *t.shape;
}

void infer_pool(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const auto x = shape_with_min_rank(ctx, 0, 3);
  std::optional<Dims> y;
  if (x) {
    const Dims spatial(x->begin() + 2, x->end());
    const WindowParams p = window_params(ctx.attrs(), spatial.size());
    y = Dims{(*x)[0], (*x)[1]};
    for (const Dim& d : window_output_dims(spatial, p)) y->push_back(d);
  }
  set_output_tensor(ctx, 0, elem, y);
  if (ctx.num_outputs() > 1 && ctx.has_output(1))
    set_output_tensor(ctx, 1, static_cast<int32_t>(DataType::int64), y);
}

void infer_global_pool(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  auto y = shape_with_min_rank(ctx, 0, 2);
  if (y)
    for (std::size_t i = 2; i < y->size(); ++i) (*y)[i] = Dim::value(1);
  set_output_tensor(ctx, 0, elem, y);
}

}  // namespace onnxtool::ops::nn
