// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/misc_common.h"

#include <algorithm>
#include <complex>

#include "core/exec/blas.h"
#include "core/types/float_formats.h"
#include "ops/onnx/elementwise.h"

namespace onnxtool::ops::misc {

namespace {

template <class T>
inline constexpr bool is_sub_byte_v = std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> ||
                                      std::is_same_v<T, Int2> || std::is_same_v<T, UInt2>;

// One element of type T as C; false when T has no real value (string, complex).
template <class C, class T>
bool load_as(const T& v, C& out) {
  if constexpr (std::is_arithmetic_v<T>) {
    out = static_cast<C>(v);
    return true;
  } else if constexpr (is_narrow_float_v<T>) {
    out = static_cast<C>(to_float(v));
    return true;
  } else if constexpr (is_sub_byte_v<T>) {
    out = static_cast<C>(v.value);
    return true;
  } else {
    (void)v;
    (void)out;
    return false;
  }
}

// C as the integer I: a floating C by Cast's rule (ew::float_to_int: no undefined behaviour for
// NaN or values out of range), an integral one wrapped.
template <class I, class C>
I as_integer(C v) {
  if constexpr (std::is_floating_point_v<C>)
    return ew::float_to_int<I>(static_cast<double>(v));
  else
    return static_cast<I>(v);
}

// C as an element of type T; false when T cannot hold it (string, complex).
template <class T, class C>
bool store_as(C v, T& out) {
  if constexpr (std::is_same_v<T, bool>) {
    out = v != C{0};
    return true;
  } else if constexpr (std::is_integral_v<T>) {
    out = as_integer<T>(v);
    return true;
  } else if constexpr (std::is_arithmetic_v<T>) {
    out = static_cast<T>(v);
    return true;
  } else if constexpr (is_narrow_float_v<T>) {
    if constexpr (std::is_same_v<C, int64_t>)
      out = narrow_float<T>(static_cast<double>(v));
    else
      out = narrow_float<T>(v);
    return true;
  } else if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Int2>) {
    out.value = as_integer<int8_t>(v);
    return true;
  } else if constexpr (std::is_same_v<T, UInt4> || std::is_same_v<T, UInt2>) {
    out.value = as_integer<uint8_t>(v);
    return true;
  } else {
    (void)v;
    (void)out;
    return false;
  }
}

[[noreturn]] void not_real(const KernelContext& ctx, const Tensor& t, const char* what) {
  ctx.fail(std::string(what) + ": element type " + std::string(type_name(t.dtype())) +
           " has no real value");
}

}  // namespace

const Dims* input_dims(const InferContext& ctx, std::size_t i) {
  if (i >= ctx.num_inputs() || !ctx.has_input(i)) return nullptr;
  const Type& t = ctx.input_type(i);
  if (!t.is_tensor() || !t.shape) return nullptr;
  return &*t.shape;
}

Dim dim_at(const Dims* dims, std::size_t i) {
  if (!dims || i >= dims->size()) return Dim();
  return (*dims)[i];
}

Dim dim_of(const std::optional<int64_t>& v) {
  return v ? Dim::value(*v) : Dim();
}

bool is_float_type(DataType t) {
  return t == DataType::float32 || t == DataType::float64 || t == DataType::float16 ||
         t == DataType::bfloat16;
}

template <class C>
std::vector<C> values_as(const KernelContext& ctx, const Tensor& t, const char* what) {
  std::vector<C> out(static_cast<std::size_t>(t.numel()));
  if (out.empty()) return out;
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>) {
      not_real(ctx, t, what);
    } else {
      const T* p = t.data<T>();
      for (std::size_t i = 0; i < out.size(); ++i)
        if (!load_as(p[i], out[i])) not_real(ctx, t, what);
    }
  });
  return out;
}

template <class C>
C value_at(const KernelContext& ctx, const Tensor& t, int64_t index, const char* what) {
  if (index < 0 || index >= t.numel())
    ctx.fail(std::string(what) + ": element " + std::to_string(index) + " is out of range");
  C out{};
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>) {
      not_real(ctx, t, what);
    } else {
      if (!load_as(t.data<T>()[index], out)) not_real(ctx, t, what);
    }
  });
  return out;
}

template <class C>
void store_values(const KernelContext& ctx, Tensor& out, std::span<const C> values) {
  if (static_cast<int64_t>(values.size()) != out.numel())
    ctx.fail("internal: " + std::to_string(values.size()) + " values for " +
             std::to_string(out.numel()) + " elements");
  if (values.empty()) return;
  visit_type(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>) {
      not_real(ctx, out, "output");
    } else {
      T* p = out.mutable_data<T>();
      for (std::size_t i = 0; i < values.size(); ++i)
        if (!store_as(values[i], p[i])) not_real(ctx, out, "output");
    }
  });
}

template <class C>
void write_output(KernelContext& ctx, std::size_t i, DataType type, const Shape& shape,
                  std::span<const C> values) {
  Tensor& out = ctx.output(i, type, shape);
  store_values<C>(ctx, out, values);
}

#define ONNXTOOL_MISC_INSTANTIATE(C)                                                      \
  template std::vector<C> values_as<C>(const KernelContext&, const Tensor&, const char*); \
  template C value_at<C>(const KernelContext&, const Tensor&, int64_t, const char*);      \
  template void store_values<C>(const KernelContext&, Tensor&, std::span<const C>);       \
  template void write_output<C>(KernelContext&, std::size_t, DataType, const Shape&,      \
                                std::span<const C>);
ONNXTOOL_MISC_INSTANTIATE(float)
ONNXTOOL_MISC_INSTANTIATE(double)
ONNXTOOL_MISC_INSTANTIATE(int64_t)
#undef ONNXTOOL_MISC_INSTANTIATE

void require_type(const KernelContext& ctx, const Tensor& t, std::span<const DataType> allowed,
                  const char* what) {
  if (std::find(allowed.begin(), allowed.end(), t.dtype()) != allowed.end()) return;
  std::string names;
  for (DataType a : allowed) {
    if (!names.empty()) names += ", ";
    names += type_name(a);
  }
  ctx.fail(std::string(what) + " has element type " + std::string(type_name(t.dtype())) +
           ", expected one of " + names);
}

void require_float(const KernelContext& ctx, const Tensor& t, const char* what) {
  static constexpr DataType kFloats[] = {DataType::float32, DataType::float64, DataType::float16,
                                         DataType::bfloat16};
  require_type(ctx, t, kFloats, what);
}

const Value& sequence_input(const KernelContext& ctx, std::size_t i, const char* what) {
  if (!ctx.has_input(i)) ctx.fail(std::string(what) + " is required but missing");
  const Value& v = ctx.input_value(i);
  if (!v.is_sequence()) ctx.fail(std::string(what) + " must be a sequence, got " + v.describe());
  return v;
}

int64_t scalar_index(const KernelContext& ctx, const Tensor& t, const char* what) {
  if (t.numel() != 1)
    ctx.fail(std::string(what) + " must hold one value, got shape " + shape_to_string(t.shape()));
  if (t.dtype() == DataType::int64) return t.data<int64_t>()[0];
  if (t.dtype() == DataType::int32) return t.data<int32_t>()[0];
  ctx.fail(std::string(what) + " must be int32 or int64, got " + std::string(type_name(t.dtype())));
}

namespace {

// Copies n elements from src[src_at] to dst[dst_at], any element type.
void copy_run(const Tensor& src, int64_t src_at, Tensor& dst, int64_t dst_at, int64_t n) {
  if (n <= 0) return;
  if (src.dtype() == DataType::string) {
    const auto& from = src.strings();
    auto& to = dst.mutable_strings();
    std::copy_n(from.begin() + src_at, n, to.begin() + dst_at);
    return;
  }
  const auto w = static_cast<std::size_t>(type_info(src.dtype()).mem_bytes);
  std::copy_n(src.raw() + static_cast<std::size_t>(src_at) * w, static_cast<std::size_t>(n) * w,
              dst.mutable_raw() + static_cast<std::size_t>(dst_at) * w);
}

}  // namespace

Tensor concat_along(const KernelContext& ctx, const std::vector<Tensor>& parts, int64_t axis) {
  if (parts.empty()) ctx.fail("cannot concatenate an empty list of tensors");
  const Tensor& first = parts.front();
  Shape out_shape = first.shape();
  const auto a = static_cast<std::size_t>(axis);
  if (axis < 0 || axis >= first.rank())
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
             std::to_string(first.rank()));
  out_shape[a] = 0;
  for (const Tensor& p : parts) {
    bool same = p.dtype() == first.dtype() && p.rank() == first.rank();
    for (std::size_t d = 0; same && d < out_shape.size(); ++d)
      same = d == a || p.shape()[d] == first.shape()[d];
    if (!same)
      ctx.fail("cannot concatenate " + std::string(type_name(p.dtype())) +
               shape_to_string(p.shape()) + " with " + std::string(type_name(first.dtype())) +
               shape_to_string(first.shape()) + " along axis " + std::to_string(axis));
    out_shape[a] += p.shape()[a];
  }
  Tensor out(first.dtype(), out_shape);
  const int64_t outer = shape_size(out_shape, 0, a), inner = shape_size(out_shape, a + 1);
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& p : parts) {
      const int64_t run = p.shape()[a] * inner;
      copy_run(p, o * run, out, at, run);
      at += run;
    }
  }
  return out;
}

Tensor slice_range(const Tensor& x, int64_t axis, int64_t start, int64_t length) {
  const auto a = static_cast<std::size_t>(axis);
  Shape shape = x.shape();
  const int64_t dim = shape[a];
  shape[a] = length;
  Tensor out(x.dtype(), shape);
  const int64_t outer = shape_size(shape, 0, a), inner = shape_size(shape, a + 1);
  for (int64_t o = 0; o < outer; ++o)
    copy_run(x, (o * dim + start) * inner, out, o * length * inner, length * inner);
  return out;
}

Type element_type(const Type& t) {
  if (t.kind == Type::Kind::sequence || t.kind == Type::Kind::optional) return t.element();
  return Type::unknown();
}

Type join_tensor_types(const std::vector<Type>& types, const std::string& what) {
  int32_t elem = 0;
  std::optional<Type> joined;
  bool some_unknown = false;
  for (const Type& t : types) {
    some_unknown = some_unknown || !t.is_tensor();
    if (!t.is_tensor()) continue;
    if (t.elem != 0 && elem != 0 && t.elem != elem)
      infer_fail(what + " mixes " + type_name_or_number(elem) + " and " +
                 type_name_or_number(t.elem) + " tensors");
    if (t.elem != 0) elem = t.elem;
    joined = joined ? join_types(*joined, t) : t;
  }
  if (!joined) return Type::unknown();
  return Type::tensor(elem, some_unknown ? std::nullopt : joined->shape);
}

Broadcast2::Broadcast2(const KernelContext& ctx, const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  out_.assign(rank, 1);
  a_strides_.assign(rank, 0);
  b_strides_.assign(rank, 0);
  int64_t sa = 1, sb = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t d = rank - 1 - k;
    const int64_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
    const int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1)
      ctx.fail("shapes " + shape_to_string(a) + " and " + shape_to_string(b) + " do not broadcast");
    out_[d] = da == 1 ? db : da;
    a_strides_[d] = da == 1 ? 0 : sa;
    b_strides_[d] = db == 1 ? 0 : sb;
    sa *= da;
    sb *= db;
  }
  size_ = shape_size(out_);
}

int64_t Broadcast2::index(int64_t i, const std::vector<int64_t>& strides) const {
  int64_t at = 0;
  for (std::size_t d = out_.size(); d-- > 0;) {
    const int64_t dim = out_[d];
    at += (i % dim) * strides[d];
    i /= dim;
  }
  return at;
}

void gemm(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha,
          const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
          int64_t ldc) {
  blas::sgemm(ctx, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha,
          const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
          int64_t ldc) {
  blas::dgemm(ctx, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm_serial(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                 int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  blas::sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm_serial(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a,
                 int64_t lda, const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  blas::dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int64_t shape_size(const Shape& shape, std::size_t from, std::size_t to) {
  to = std::min(to, shape.size());
  int64_t n = 1;
  for (std::size_t i = from; i < to; ++i) n *= shape[i];
  return n;
}

std::string ints_text(std::span<const int64_t> v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s + "]";
}

}  // namespace onnxtool::ops::misc
