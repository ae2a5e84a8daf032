// SPDX-License-Identifier: Apache-2.0
// What the remaining ai.onnx operators share (attention, losses, sequences and optionals,
// recurrent networks, quantization, sampling, signal processing, strings, random numbers):
// reading any real tensor as float/double/int64 values and writing computed values back in any
// element type, matrix products in the compute type, and a few inference conveniences.
//
// Kernels here compute in `double` for double tensors and in `float` for every other float type
// (float16, bfloat16, the float8 formats), rounding back once per result: what ONNX's reference
// implementation does for the narrow types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/infer/helpers.h"
#include "ops/op.h"

namespace onnxtool::ops::misc {

// ---- inference ---------------------------------------------------------------------------------

// Input i's dims when it is a tensor of known rank, else nullptr.
const Dims* input_dims(const InferContext& ctx, std::size_t i);
// dims[i], or an unknown dim when dims is null or too short.
Dim dim_at(const Dims* dims, std::size_t i);
// A dim from an optional attribute value: known when present.
Dim dim_of(const std::optional<int64_t>& v);

// ---- element conversion ------------------------------------------------------------------------

bool is_float_type(DataType t);

// Every element of t as C (float, double or int64_t): any real or bool type. Strings and complex
// numbers fail the node naming `what`.
template <class C>
std::vector<C> values_as(const KernelContext& ctx, const Tensor& t, const char* what);
// One element of t as C (same types as above).
template <class C>
C value_at(const KernelContext& ctx, const Tensor& t, int64_t index, const char* what);

// Writes values into `out` (same element count), converting to out's element type: narrow floats
// rounded to nearest even, integers by static_cast (callers round first), bool as != 0.
template <class C>
void store_values(const KernelContext& ctx, Tensor& out, std::span<const C> values);
// Allocates output i of type `type` and shape `shape` and stores values into it.
template <class C>
void write_output(KernelContext& ctx, std::size_t i, DataType type, const Shape& shape,
                  std::span<const C> values);

// Calls f(double{}) for double tensors, f(float{}) for every other type: the compute type.
template <class F>
decltype(auto) visit_compute(DataType t, F&& f) {
  if (t == DataType::float64) return f(double{});
  return f(float{});
}

// Fails unless t is one of the allowed types (a clear message naming `what`).
void require_type(const KernelContext& ctx, const Tensor& t, std::span<const DataType> allowed,
                  const char* what);
// Fails unless t is float, double, float16 or bfloat16.
void require_float(const KernelContext& ctx, const Tensor& t, const char* what);

// ---- sequences and moving elements -------------------------------------------------------------

// Input i as a sequence; fails naming it when it is something else.
const Value& sequence_input(const KernelContext& ctx, std::size_t i, const char* what);
// A scalar (or one-element) int32/int64 tensor's value.
int64_t scalar_index(const KernelContext& ctx, const Tensor& t, const char* what);
// The tensors concatenated along `axis` (normalized): same type, same dims except the axis.
Tensor concat_along(const KernelContext& ctx, const std::vector<Tensor>& parts, int64_t axis);
// x[..., start:start+length, ...] along `axis` (kept, of size length).
Tensor slice_range(const Tensor& x, int64_t axis, int64_t start, int64_t length);
// The element type a sequence (or optional) type holds; unknown when t is not one.
Type element_type(const Type& t);
// The tensor type of several values that may each be any of them: element types unified
// (failing when two differ), shapes joined (dims that differ become unknown).
Type join_tensor_types(const std::vector<Type>& types, const std::string& what);

// Multidirectional broadcasting of two shapes (Broadcasting.md): the result's shape, and for a
// flat index of the result the flat index of each operand.
class Broadcast2 {
 public:
  Broadcast2(const KernelContext& ctx, const Shape& a, const Shape& b);
  const Shape& shape() const { return out_; }
  int64_t size() const { return size_; }
  int64_t a_index(int64_t i) const { return index(i, a_strides_); }
  int64_t b_index(int64_t i) const { return index(i, b_strides_); }

 private:
  int64_t index(int64_t i, const std::vector<int64_t>& strides) const;
  Shape out_;
  int64_t size_ = 1;
  std::vector<int64_t> a_strides_, b_strides_;
};

// ---- arithmetic --------------------------------------------------------------------------------

// Row-major C = alpha * op(A) * op(B) + beta * C in the compute type, through the BLAS wrapper
// (split over the kernel's threads when large).
void gemm(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha,
          const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
          int64_t ldc);
void gemm(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha,
          const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
          int64_t ldc);
// The same on the calling thread only (inside a parallel_for body).
void gemm_serial(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                 int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm_serial(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a,
                 int64_t lda, const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

// Product of shape[from, to).
int64_t shape_size(const Shape& shape, std::size_t from = 0,
                   std::size_t to = static_cast<std::size_t>(-1));

// "[1,2,3]" for messages.
std::string ints_text(std::span<const int64_t> v);

}  // namespace onnxtool::ops::misc
