// SPDX-License-Identifier: Apache-2.0
// Building blocks for operators' inference functions. Everything here handles missing
// information the same way: an unknown rank stays unknown (nullopt), an unknown dim stays
// unknown, a symbolic dim stays symbolic through arithmetic (Dim folds what it can).
//
// Contradictions (two known dims that must agree and do not, an axis out of range) throw
// InferFailure through infer_fail(); the engine records it as an error at the node and keeps
// going with the next node. So a helper can be called without checking anything first:
//
//   void infer_matmul(InferContext& ctx) {
//     int32_t elem = unify_input_elem_types(ctx, {0, 1});
//     auto a = ctx.input_type(0).shape, b = ctx.input_type(1).shape;
//     set_output_tensor(ctx, 0, elem, (a && b) ? std::optional(matmul_shape(ctx, *a, *b))
//                                              : std::nullopt);
//   }
//   op.from(13).infer(infer_matmul);
//
// Ready-made InferFns cover the common shapes of operator: same_as_input(0) (Relu, Identity),
// broadcast_elementwise() (Add, Pow), broadcast_elementwise_to(BOOL) (Equal, Less).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/infer/context.h"
#include "core/infer/dim.h"
#include "core/infer/type.h"
#include "core/registry/schema.h"

namespace onnxtool {

// ---- failing -------------------------------------------------------------------------------

// Throws InferFailure{message}: the node's inference stops and the message is reported at it.
[[noreturn]] void infer_fail(const std::string& message);

// ---- ready-made inference functions --------------------------------------------------------

// Output `out` gets input `in`'s whole type (element type and shape): Relu, Identity, Neg...
InferFn same_as_input(std::size_t in = 0, std::size_t out = 0);
// Every output gets input `in`'s type (e.g. Dropout's output; its mask is set separately).
InferFn same_as_input_all_outputs(std::size_t in = 0);
// Output 0: the element type shared by all inputs (unified, see unify_input_elem_types) and
// the multidirectional broadcast of all present inputs' shapes (Broadcasting.md). With
// `values_op` ('+', '-', '*', '/', 'm' min, 'M' max; see combine_values) it also propagates
// integer values when inputs 0 and 1 have them: Add/Sub/Mul/Div/Min/Max on shape vectors.
InferFn broadcast_elementwise(char values_op = 0);
// As broadcast_elementwise(), but output 0 has the element type `elem` (BOOL for comparisons).
InferFn broadcast_elementwise_to(int32_t elem, char values_op = 0);

// ---- types ---------------------------------------------------------------------------------

// Sets output i to a tensor type (a nullopt shape means rank unknown).
void set_output_tensor(InferContext& ctx, std::size_t i, int32_t elem,
                       std::optional<Dims> shape = std::nullopt);
// Output `out` takes input `in`'s element type (not its shape); keeps what is already set for
// the shape. Does nothing when the input's type is unknown.
void propagate_elem_type(InferContext& ctx, std::size_t in, std::size_t out);
// Output `out` takes input `in`'s shape with the element type `elem` (0: input's own).
void propagate_shape(InferContext& ctx, std::size_t in, std::size_t out, int32_t elem = 0);

// The element type the given inputs share: the known one (0 if none is known). Two different
// known element types throw (e.g. Add of float and int64). Absent inputs are skipped.
int32_t unify_input_elem_types(const InferContext& ctx, std::initializer_list<std::size_t> inputs);
// The same for every present input from `first` on (variadic Sum, Concat, Max...).
int32_t unify_all_input_elem_types(const InferContext& ctx, std::size_t first = 0);

// Both types hold for the same value: keeps what either knows. A known dim refines an unknown
// or symbolic one; two different known dims, element types, ranks or kinds throw. `what` names
// the value in the message.
Type unify_types(const Type& a, const Type& b, const std::string& what = "value");
Dim unify_dim(const Dim& a, const Dim& b, const std::string& what = "dimension");
std::optional<Dims> unify_shapes(const std::optional<Dims>& a, const std::optional<Dims>& b,
                                 const std::string& what = "shape");
// One of the two types holds (the branches of If, a loop-carried value before and after an
// iteration): keeps only what both agree on. Dims that differ become unknown, ranks that
// differ make the rank unknown, element types that differ make it unknown.
Type join_types(const Type& a, const Type& b);
Dim join_dim(const Dim& a, const Dim& b);

// ---- shapes --------------------------------------------------------------------------------

// axis in [-rank, rank) -> [0, rank); throws with `what` ("axis", "axes[1]") otherwise.
int64_t normalize_axis(int64_t axis, int64_t rank, const std::string& what = "axis");
// Each normalized; throws on a repeated axis.
std::vector<int64_t> normalize_axes(std::span<const int64_t> axes, int64_t rank,
                                    const std::string& what = "axes");

// Multidirectional (numpy) broadcasting of two or more shapes, Broadcasting.md: right-aligned,
// a dim of 1 stretches, equal dims stay. With symbols: 1 and N gives N, N and N gives N, a known
// d > 1 and N gives d (N must then be d or 1); N and M, or anything with an unknown dim, gives
// unknown. nullopt if any shape's rank is unknown. Two known dims other than 1 that differ
// throw.
std::optional<Dims> broadcast_shapes(std::span<const std::optional<Dims>> shapes);
Dims broadcast_shapes(const Dims& a, const Dims& b);
Dim broadcast_dim(const Dim& a, const Dim& b);
// The broadcast shape of every present input of the node (nullopt if one has unknown rank).
std::optional<Dims> broadcast_input_shapes(const InferContext& ctx);
// Unidirectional broadcasting: `b` must broadcast to `a` (Gemm's C, PRelu's slope). Returns a.
Dims broadcast_to(const Dims& a, const Dims& b);

// The shape after reducing `axes` (already normalized; empty means all axes unless
// noop_with_empty_axes, then the shape is unchanged). keepdims keeps them as 1.
Dims reduce_shape(const Dims& in, std::span<const int64_t> axes, bool keepdims,
                  bool noop_with_empty_axes = false);

// Concatenation along `axis` (normalized): other dims unified, the axis dims summed.
Dims concat_shapes(std::span<const Dims> shapes, int64_t axis);

// numpy.matmul's shape rule: 1-D operands are promoted and the added dim removed again; batch
// dims broadcast; a's last dim must equal b's second-to-last (unified, may bind symbols).
Dims matmul_shape(const Dims& a, const Dims& b);

// Slicing: the number of elements of a dim of size `dim` taken by start:end:step with the
// clamping rules of Slice-10+ (negative indices count from the end). A symbolic dim gives a
// symbolic length where the result is determined: 0:INT_MAX:1 -> N, 1:INT_MAX:1 -> N-1,
// 0:-1:1 -> N-1, 0:k:1 -> k only when N is known; else unknown.
Dim slice_length(const Dim& dim, int64_t start, int64_t end, int64_t step);
// The indices start:end:step selects from a known length (Slice data propagation).
std::vector<int64_t> slice_indices(int64_t length, int64_t start, int64_t end, int64_t step);

// Reshape's rule: target values may hold 0 (copy the input dim, unless allowzero) and one -1
// (the rest: the input's element count divided by the product of the others, symbolic when
// needed). Unknown target entries stay unknown. `in` may be nullopt (rank unknown): then -1
// cannot be resolved and 0 copies nothing known.
Dims reshape_shape(const std::optional<Dims>& in, const Dims& target, bool allowzero = false);

// ---- convolution and pooling windows ------------------------------------------------------

// Per spatial axis window parameters, from a node's attributes (Conv, ConvTranspose, pools).
struct WindowParams {
  std::vector<int64_t> kernel;     // kernel_shape
  std::vector<int64_t> strides;    // default 1
  std::vector<int64_t> dilations;  // default 1
  std::vector<int64_t> pads;       // begin..., end...; default 0
  std::string auto_pad = "NOTSET";
  bool ceil_mode = false;
};

// Reads kernel_shape (or takes `kernel` when given, e.g. Conv's weight shape), strides,
// dilations, pads, auto_pad and ceil_mode for `spatial_rank` spatial axes, with the defaults
// above, checking the list lengths (throws on a wrong length).
WindowParams window_params(const AttrView& attrs, std::size_t spatial_rank,
                           const std::optional<std::vector<int64_t>>& kernel = std::nullopt);

// Output size of one spatial axis of a convolution or pooling window:
//   NOTSET: floor_or_ceil((in + pad_begin + pad_end - dilation*(kernel-1) - 1) / stride) + 1
//   SAME_UPPER / SAME_LOWER: ceil(in / stride);  VALID: floor((in - dilation*(kernel-1) - 1) /
//   stride) + 1. Symbolic `in` gives a symbolic size ("floor((H-1)/2)+1" folds to canonical form).
// ceil_mode follows MaxPool-10+: the last window must start inside the input or left padding.
Dim window_output_dim(const Dim& in, int64_t kernel, int64_t stride, int64_t dilation,
                      int64_t pad_begin, int64_t pad_end, const std::string& auto_pad,
                      bool ceil_mode = false);
// All spatial axes: `spatial_in` are the input's dims after batch and channel.
Dims window_output_dims(const Dims& spatial_in, const WindowParams& p);
// ConvTranspose: stride*(in-1) + output_padding + ((kernel-1)*dilation+1) - pad_begin - pad_end,
// or in*stride for SAME_* auto_pad.
Dim conv_transpose_output_dim(const Dim& in, int64_t kernel, int64_t stride, int64_t dilation,
                              int64_t pad_begin, int64_t pad_end, int64_t output_padding,
                              const std::string& auto_pad);

// ---- data propagation ---------------------------------------------------------------------

// All values of input i when each is known: from a constant tensor of any integer type or from
// propagated values. nullopt when absent, not constant or any element unknown.
std::optional<std::vector<int64_t>> input_ints(const InferContext& ctx, std::size_t i);
// One known integer (a scalar or 1-element input).
std::optional<int64_t> input_int(const InferContext& ctx, std::size_t i);
// Known or symbolic values of input i as dims (input_values), or nullopt.
std::optional<Dims> input_dims_values(const InferContext& ctx, std::size_t i);
// Values (e.g. the output of Shape) read as a shape: negative known values become unknown.
Dims dims_from_values(const Dims& values);
// All elements known? Then their integers.
std::optional<std::vector<int64_t>> known_values(const Dims& values);

// Element-wise arithmetic on propagated values with broadcasting between a scalar and a
// vector or two vectors of equal length. nullopt when either input has no values, or the
// lengths do not broadcast. `op` is one of '+', '-', '*', '/' (floor division, as integer Div
// for the non-negative sizes shapes hold), 'm' (min), 'M' (max).
std::optional<Dims> combine_values(const Dims& a, const Dims& b, char op);
// Sets output 0's values from inputs 0 and 1 combined by `op`, when both have values; the
// output is a scalar when both inputs are scalars. Returns whether it did.
bool propagate_binary_values(InferContext& ctx, char op);

// Gather on values (Gather of a Shape output): indices may be negative (from the end); nullopt
// when one is out of range.
std::optional<Dims> gather_values(const Dims& data, std::span<const int64_t> indices);
// Slice on values: the elements start:end:step selects (clamped as Slice-10+ does).
Dims slice_values(const Dims& data, int64_t start, int64_t end, int64_t step);
// Range's length, max(ceil((limit - start) / delta), 0): known when all three are; with a known
// positive delta and symbolic bounds, ceil((limit-start)/delta) (assuming limit >= start).
Dim range_length(const Dim& start, const Dim& limit, const Dim& delta);

// Copies input `in`'s values to output `out` unchanged (Cast, Identity, Squeeze/Unsqueeze of a
// shape vector); the output is a scalar when its type set so far has rank 0. Returns whether
// the input had values.
bool propagate_values(InferContext& ctx, std::size_t in = 0, std::size_t out = 0);

// ---- element types ------------------------------------------------------------------------

// The ONNX element type a constraint allows when it allows exactly one tensor type
// ("tensor(int64)" -> INT64), else 0.
int32_t single_allowed_elem_type(const TypeConstraint& c);
// TensorProto.DataType number for a name like "float" or "int64" (0 when unknown).
int32_t elem_type_from_name(const std::string& name);

}  // namespace onnxtool
