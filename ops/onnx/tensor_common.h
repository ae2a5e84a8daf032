// SPDX-License-Identifier: Apache-2.0
// What the tensor / data-movement operators share (Reshape, Transpose, Concat, Slice, Gather,
// Scatter*, Pad, Tile, Expand, Resize, ...): moving elements of any type by their bytes (strings
// by value), strided block copies with a plain reference twin, numeric access for the few of
// them that compute, reading index tensors with clear errors, and small inference pieces.
//
// Sub-byte and narrow float types are one element per byte or two in memory (core/types), so
// moving them is moving bytes like any other type.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/types/float_formats.h"
#include "ops/op.h"

namespace onnxtool::ops {

// ---- moving elements ------------------------------------------------------------------------

// Bytes per element in memory; 0 for string.
std::size_t elem_width(DataType t);
// Row-major strides (in elements) of a shape.
std::vector<int64_t> contiguous_strides(const Shape& shape);
int64_t shape_product(const Shape& shape, std::size_t from = 0,
                      std::size_t to = static_cast<std::size_t>(-1));

// Copies n elements from src[src_at...] to dst[dst_at...] (element indices), any type.
void copy_elements(const Tensor& src, int64_t src_at, Tensor& dst, int64_t dst_at, int64_t n);
// Writes `value` (one element of dst's type) into dst[at...at+n).
void fill_elements(Tensor& dst, int64_t at, int64_t n, const Tensor& value);

// Where element (i0, i1, ...) of an iteration shape lives in a tensor: offset + sum(ik*strides[k]).
// Strides may be 0 (broadcasting) or negative (reversed slices).
struct Layout {
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

// Copies every element of `shape` from src (laid out by `from`) to dst (by `to`). Dimensions
// contiguous in both are merged and the innermost contiguous run is one memcpy; large copies are
// split over ctx's threads. The two tensors must be distinct.
void strided_copy(const Tensor& src, const Layout& from, Tensor& dst, const Layout& to,
                  const Shape& shape, const KernelContext* ctx = nullptr);
// The plain loop strided_copy must agree with: one element at a time, offsets from indices.
void strided_copy_reference(const Tensor& src, const Layout& from, Tensor& dst, const Layout& to,
                            const Shape& shape);

// A contiguous run of bytes to copy.
struct ByteRun {
  const std::byte* src;
  std::byte* dst;
  int64_t bytes;
};
// Copies every run, all of them shared out by one parallel loop in pieces of the size
// strided_copy cuts long rows into: many small runs (a batch-1 Concat's inputs) keep the threads
// busy together where each alone would stay under parallel_rows's bar.
void copy_runs(const KernelContext& ctx, const std::vector<ByteRun>& runs);

// Splits [0, n) over ctx's threads when the work (n items of `cost` bytes each) is large enough
// to pay for it, else runs fn(0, n) here.
void parallel_rows(const KernelContext* ctx, int64_t n, int64_t cost,
                   const std::function<void(int64_t, int64_t)>& fn);

// Calls fn(flat, offset) for every element of `shape` in row-major order, where offset is
// sum(index[k] * strides[k]) (strides of another tensor, maybe with zeros).
template <class Fn>
void walk_offsets(const Shape& shape, const std::vector<int64_t>& strides, Fn&& fn) {
  const int64_t n = shape_product(shape);
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t off = 0;
  for (int64_t flat = 0; flat < n; ++flat) {
    fn(flat, off);
    for (std::size_t k = shape.size(); k-- > 0;) {
      off += strides[k];
      if (++idx[k] < shape[k]) break;
      off -= strides[k] * shape[k];
      idx[k] = 0;
    }
  }
}

// ---- numbers -------------------------------------------------------------------------------

template <class T>
inline constexpr bool is_complex_v =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
template <class T>
inline constexpr bool is_sub_byte_int_v = std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> ||
                                          std::is_same_v<T, Int2> || std::is_same_v<T, UInt2>;
// Types with an order and arithmetic (reals: built-in numbers and the narrow formats).
template <class T>
inline constexpr bool is_real_v =
    std::is_arithmetic_v<T> || is_narrow_float_v<T> || is_sub_byte_int_v<T>;

// The type arithmetic on T is done in: float for the narrow floats, int for sub-byte ints,
// T itself otherwise.
template <class T>
struct Arith {
  using type = T;
};
template <class T>
requires is_narrow_float_v<T>
struct Arith<T> {
  using type = float;
};
template <class T>
requires is_sub_byte_int_v<T>
struct Arith<T> {
  using type = int;
};
template <class T>
using arith_t = typename Arith<T>::type;

template <class T>
arith_t<T> load(T v) {
  if constexpr (is_narrow_float_v<T>)
    return to_float(v);
  else if constexpr (is_sub_byte_int_v<T>)
    return static_cast<int>(v.value);
  else
    return v;
}

// Stores a computed value back as T (narrow floats rounded to nearest even; sub-byte ints
// wrapped into their range, as a cast would).
template <class T>
T store(arith_t<T> v) {
  if constexpr (is_narrow_float_v<T>) {
    return narrow_float<T>(v);
  } else if constexpr (std::is_same_v<T, Int4>) {
    return Int4{static_cast<int8_t>(((v & 0xF) ^ 0x8) - 0x8)};
  } else if constexpr (std::is_same_v<T, UInt4>) {
    return UInt4{static_cast<uint8_t>(v & 0xF)};
  } else if constexpr (std::is_same_v<T, Int2>) {
    return Int2{static_cast<int8_t>(((v & 0x3) ^ 0x2) - 0x2)};
  } else if constexpr (std::is_same_v<T, UInt2>) {
    return UInt2{static_cast<uint8_t>(v & 0x3)};
  } else {
    return v;
  }
}

// A real value as double, and a double converted to T: integers truncated toward zero and
// saturated to T's range (NaN gives 0), bool is v != 0, narrow floats rounded.
template <class T>
double to_double(T v) {
  if constexpr (is_complex_v<T>)
    return static_cast<double>(v.real());
  else
    return static_cast<double>(load(v));
}
// v truncated toward zero and clamped to [lo, hi] (the integer type's range); NaN gives 0.
template <class I>
I saturate_cast(double v, I lo, I hi) {
  if (std::isnan(v)) return I(0);
  if (v <= static_cast<double>(lo)) return lo;
  if (v >= static_cast<double>(hi)) return hi;
  return static_cast<I>(v);
}
template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else if constexpr (is_complex_v<T>) {
    return T(static_cast<typename T::value_type>(v), 0);
  } else if constexpr (is_narrow_float_v<T>) {
    return narrow_float<T>(v);
  } else if constexpr (std::is_same_v<T, Int4>) {
    return Int4{saturate_cast<int8_t>(v, -8, 7)};
  } else if constexpr (std::is_same_v<T, UInt4>) {
    return UInt4{saturate_cast<uint8_t>(v, 0, 15)};
  } else if constexpr (std::is_same_v<T, Int2>) {
    return Int2{saturate_cast<int8_t>(v, -2, 1)};
  } else if constexpr (std::is_same_v<T, UInt2>) {
    return UInt2{saturate_cast<uint8_t>(v, 0, 3)};
  } else {
    return saturate_cast<T>(v, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
  }
}

// Element i of a numeric or bool tensor as double (complex: the real part); 0 for string.
double element_as_double(const Tensor& t, int64_t i);
// Stores v into element i of a numeric or bool tensor (see from_double).
void store_double(Tensor& t, int64_t i, double v);
// A one-element tensor of type `type` holding v (strings: "").
Tensor scalar_of(DataType type, double v);

// Scatter's reductions (ScatterElements-16+, ScatterND-16+; max/min from 18).
enum class Reduction { none, add, mul, max, min };
Reduction read_reduction(const KernelContext& ctx);
// A block of n elements from src[src_at...] combined into dst[dst_at...].
struct Move {
  int64_t dst = 0, src = 0, n = 1;
};
// Applies every move in order (later ones see earlier results: duplicates accumulate). none
// copies (any type); add/mul/max/min need numbers (bool: or/and/or/and; complex: add/mul).
void apply_moves(const KernelContext& ctx, Tensor& dst, const Tensor& src,
                 const std::vector<Move>& moves, Reduction r);

// ---- indices --------------------------------------------------------------------------------

// Every element of an integer tensor as int64; fails for other types, naming `what`.
std::vector<int64_t> read_ints(const NodeInfo& ctx, const Tensor& t, const std::string& what);
// The single element of an integer tensor (rank 0 or one element).
int64_t read_scalar_int(const NodeInfo& ctx, const Tensor& t, const std::string& what);
// Normalises an index against a dimension: [-dim, dim) -> [0, dim); fails otherwise with
// "<what> = 7 is out of range for <where> of size 3".
int64_t checked_index(const NodeInfo& ctx, int64_t index, int64_t dim, const std::string& what,
                      const std::string& where);
std::string indexed(const std::string& what, std::size_t i);
// checked_index for element i of an indices tensor along `axis`: "indices[i] = 7 is out of
// range for axis 1 of size 3". The message is made only on failure (made for every element,
// it took a GatherElements of 65536 indices 2.9 ms, 45 ns each).
inline int64_t checked_index_at(const NodeInfo& ctx, int64_t index, int64_t dim, std::size_t i,
                                std::size_t axis) {
  if (index >= -dim && index < dim) return index < 0 ? index + dim : index;
  return checked_index(ctx, index, dim, indexed("indices", i), "axis " + std::to_string(axis));
}
// Normalises an axis against a rank (accepting [-rank, rank)); fails otherwise.
int64_t kernel_axis(const KernelContext& ctx, int64_t axis, int64_t rank,
                    const std::string& what = "axis");
// Each of `axes` normalised; fails on a repeat. `allow_negative` false for versions whose
// spec accepts only [0, rank).
std::vector<int64_t> kernel_axes(const KernelContext& ctx, const std::vector<int64_t>& axes,
                                 int64_t rank, bool allow_negative = true);

// "what[3]" for messages.
std::string indexed(const std::string& what, std::size_t i);

// ---- shared between operators ------------------------------------------------------------

// ScatterElements' inference and kernel (ops/onnx/scatter_elements.cpp), which Scatter (its
// name before opset 11) shares.
void infer_scatter_elements(InferContext& ctx);
void scatter_elements_kernel(KernelContext& ctx);

// CumSum and CumProd (ops/onnx/cum_sum.cpp): the input's type and shape; a running sum ('+')
// or product ('*') along the axis input, exclusive and/or reversed.
void infer_cumulative(InferContext& ctx);
KernelFn cumulative_kernel(char op);

// Resize's engine (ops/onnx/resize.cpp), which Upsample shares: what to compute, per axis.
enum class ResizeMode { nearest, linear, cubic };
enum class CoordMode {
  half_pixel,
  half_pixel_symmetric,
  pytorch_half_pixel,
  align_corners,
  asymmetric,
  tf_half_pixel_for_nn,
  tf_crop_and_resize
};
// `simple` is what Resize-10 and Upsample did before nearest_mode existed: floor when
// upsampling, ceil when downsampling.
enum class NearestMode { round_prefer_floor, round_prefer_ceil, floor, ceil, simple };
struct ResizeSpec {
  ResizeMode mode = ResizeMode::nearest;
  CoordMode coord = CoordMode::asymmetric;
  NearestMode nearest = NearestMode::simple;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0;
  bool antialias = false;
  std::vector<double> scales;              // per axis of the input
  Shape out;                               // the output's shape
  std::vector<double> roi_start, roi_end;  // per axis, normalised (tf_crop_and_resize)
};
// Computes the resized x into output 0: nearest moves elements of any type; linear and cubic
// interpolate reals in double, one axis at a time from the innermost.
void resize_into(KernelContext& ctx, const Tensor& x, const ResizeSpec& spec);
// floor(scale * dim), an output dim as Resize and Upsample compute it; nullopt when that is not
// a number or beyond 2^62, which no tensor could hold (and no integer conversion may take).
inline std::optional<int64_t> scaled_extent(double scale, int64_t dim) {
  const double v = std::floor(scale * static_cast<double>(dim));
  if (!(v >= -0x1p62 && v <= 0x1p62)) return std::nullopt;
  return static_cast<int64_t>(v);
}

// ---- inference ------------------------------------------------------------------------------

inline int32_t dtype_code(DataType t) {
  return static_cast<int32_t>(t);
}
// Known dims from a concrete shape.
Dims dims_of(const std::vector<int64_t>& shape);
// Input i's shape, or nullptr when its rank is unknown.
const Dims* input_shape(const InferContext& ctx, std::size_t i);
// Axes from an attribute or an input (whichever the version uses): nullopt when not given,
// and an empty optional inside when given but not known (`known` false).
struct AxesArg {
  bool given = false;
  std::optional<std::vector<int64_t>> values;  // nullopt: given but unknown
};
AxesArg axes_attr_or_input(const InferContext& ctx, bool from_input, std::size_t input,
                           const char* attr = "axes");
// Normalises axes for inference (InferFailure on out of range / repeat; negative refused when
// !allow_negative).
std::vector<int64_t> infer_axes(const std::vector<int64_t>& axes, int64_t rank,
                                bool allow_negative = true);
// Sets output `out`'s values when the output is a scalar or a 1-D vector: data propagation.
void set_values(InferContext& ctx, std::size_t out, Dims values, bool scalar);
// The node's version (the since of the schema in effect).
int since(const InferContext& ctx);
int since(const KernelContext& ctx);

}  // namespace onnxtool::ops
