// SPDX-License-Identifier: Apache-2.0
// Range: the ai.onnx operator.
#include <cmath>

#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

constexpr int64_t kMaxValues = 4096;  // longer ranges are not worth propagating as values

// max(ceil((limit - start) / delta), 0) for integers, without overflow in the common cases.
int64_t int_range_length(int64_t start, int64_t limit, int64_t delta) {
  const __int128 span = static_cast<__int128>(limit) - start;
  if ((span > 0) != (delta > 0) || span == 0) return 0;
  const __int128 mag = delta > 0 ? delta : -static_cast<__int128>(delta);
  const __int128 s = span > 0 ? span : -span;
  return static_cast<int64_t>((s + mag - 1) / mag);
}

double float_range_length(double start, double limit, double delta) {
  return std::max(std::ceil((limit - start) / delta), 0.0);
}

// A scalar input's value as double, when the input is a known constant.
std::optional<double> constant_scalar(const InferContext& ctx, std::size_t i) {
  const Tensor* t = ctx.input_constant(i);
  if (!t || t->numel() != 1) return std::nullopt;
  return element_as_double(*t, 0);
}

// The length when all three inputs are known; integer inputs may also be symbolic (a Shape
// element as limit), which gives a symbolic length with a known positive delta.
void infer_range(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1, 2});
  for (std::size_t i = 0; i < 3; ++i) {
    const Dims* s = input_shape(ctx, i);
    if (s && !(s->empty() || (s->size() == 1 && (*s)[0].is_known() && (*s)[0].value() == 1)))
      infer_fail("input " + std::to_string(i) + " must be a scalar, got shape " +
                 dims_to_string(*s));
  }
  const auto start = input_dims_values(ctx, 0), limit = input_dims_values(ctx, 1),
             delta = input_dims_values(ctx, 2);
  if (start && limit && delta && start->size() == 1 && limit->size() == 1 && delta->size() == 1) {
    const Dim &s = (*start)[0], &l = (*limit)[0], &d = (*delta)[0];
    if (d.is_known() && d.value() == 0) infer_fail("delta is 0");
    Dim n;
    if (s.is_known() && l.is_known() && d.is_known())
      n = Dim::value(int_range_length(s.value(), l.value(), d.value()));
    else
      n = range_length(s, l, d);
    set_output_tensor(ctx, 0, elem, Dims{n});
    if (n.is_known() && d.is_known() && n.value() <= kMaxValues) {
      Dims values;
      for (int64_t i = 0; i < n.value(); ++i) values.push_back(s + Dim::value(i * d.value()));
      set_values(ctx, 0, std::move(values), false);
    }
    return;
  }
  const auto fs = constant_scalar(ctx, 0), fl = constant_scalar(ctx, 1),
             fd = constant_scalar(ctx, 2);
  if (fs && fl && fd && *fd != 0) {
    set_output_tensor(ctx, 0, elem,
                      Dims{Dim::value(static_cast<int64_t>(float_range_length(*fs, *fl, *fd)))});
    return;
  }
  set_output_tensor(ctx, 0, elem, Dims{Dim()});
  ctx.explain(0, "the range's start, limit and delta are not all known");
}

// output[i] = start + i * delta, computed in double for floats (float for float16/bfloat16,
// unless Range-27's stash_type asks for the type itself), exactly for integers.
template <class T>
void fill_range(const KernelContext& ctx, Tensor& y, double start, double delta) {
  T* out = y.mutable_data<T>();
  const int64_t n = y.numel();
  if constexpr (std::is_integral_v<T>) {
    const auto s = static_cast<int64_t>(start), d = static_cast<int64_t>(delta);
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(s + i * d);
  } else if constexpr (is_narrow_float_v<T>) {
    const bool stash = since(ctx) < 27 || ctx.attrs().get_int("stash_type", 1) == 1;
    for (int64_t i = 0; i < n; ++i) {
      const auto step = static_cast<float>(i) * static_cast<float>(delta);
      out[i] = stash ? narrow_float<T>(static_cast<float>(start) + step)
                     : narrow_float<T>(static_cast<float>(start) + to_float(narrow_float<T>(step)));
    }
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(start + static_cast<double>(i) * delta);
  }
}

void range_kernel(KernelContext& ctx) {
  const Tensor& s = ctx.input(0);
  const DataType type = s.dtype();
  for (std::size_t i = 0; i < 3; ++i) {
    if (ctx.input(i).numel() != 1) ctx.fail("input " + std::to_string(i) + " must be a scalar");
    if (ctx.input(i).dtype() != type) ctx.fail("start, limit and delta must have one type");
  }
  int64_t n = 0;
  double start = 0, delta = 0;
  if (is_integer(type)) {
    const int64_t a = read_scalar_int(ctx, s, "start"),
                  l = read_scalar_int(ctx, ctx.input(1), "limit"),
                  d = read_scalar_int(ctx, ctx.input(2), "delta");
    if (d == 0) ctx.fail("delta is 0");
    n = int_range_length(a, l, d);
    start = static_cast<double>(a);
    delta = static_cast<double>(d);
    Tensor& y = ctx.output(0, type, {n});
    visit_type(type, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T>) {
        T* out = y.mutable_data<T>();
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(a + i * d);
      }
    });
    return;
  }
  start = element_as_double(s, 0);
  delta = element_as_double(ctx.input(2), 0);
  if (delta == 0) ctx.fail("delta is 0");
  const double len = float_range_length(start, element_as_double(ctx.input(1), 0), delta);
  if (!(len < 1e12)) ctx.fail("the range has too many elements");
  n = static_cast<int64_t>(len);
  Tensor& y = ctx.output(0, type, {n});
  visit_type(type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T> || is_narrow_float_v<T>)
      fill_range<T>(ctx, y, start, delta);
  });
}

// The function body. stash_type matters only for float16 and bfloat16, and integers need an
// exact count (no rounding through a float), so the body finds out at run time which kind of
// type it has: an integer type truncates 0.5 to 0, and a 16-bit float rounds 2049 to 2048 (the
// other float types keep both). Indices come from CumSum rather than Range, which would call
// this very function. Each path computes start + i * delta; a 16-bit float's element count is
// taken in float whatever stash_type says, so that it does not depend on the stash precision.
constexpr const char kRangeBody[] = R"onnx(
<domain: "", opset_import: ["" : 27]>
Range <stash_type> (start, limit, delta) => (output) {
  half = Constant <value_float = 0.5> ()
  half_t = CastLike (half, start)
  half_back = Cast <to = 1> (half_t)
  is_int = Less (half_back, half)
  odd = Constant <value_float = 2049.0> ()
  odd_t = CastLike (odd, start)
  odd_back = Cast <to = 1> (odd_t)
  is_narrow = Less (odd_back, odd)
  zero = Constant <value_int = 0> ()
  one_1d = Constant <value_ints = [1]> ()
  output = If (is_int) <
    then_branch = int_range () => (int_out) {
      span = Sub (limit, start)
      neg_span = Neg (span)
      rem = Mod (neg_span, delta)
      floor_part = Sub (neg_span, rem)
      neg_count = Div (floor_part, delta)
      count_t = Neg (neg_count)
      zero_t = CastLike (zero, start)
      count_nn = Max (count_t, zero_t)
      count = Cast <to = 7> (count_nn)
      count_1d = Reshape (count, one_1d)
      ones = ConstantOfShape <value = int64[1] {1}> (count_1d)
      upto = CumSum (ones, zero)
      idx = Sub (upto, one_1d)
      idx_t = CastLike (idx, start)
      steps = Mul (idx_t, delta)
      int_out = Add (start, steps)
    },
    else_branch = float_range () => (float_out) {
      float_out = If (is_narrow) <
        then_branch = stashed_range () => (stashed_out) {
          s = Cast <to: int = @stash_type> (start)
          d = Cast <to: int = @stash_type> (delta)
          s_f = Cast <to = 1> (start)
          l_f = Cast <to = 1> (limit)
          d_f = Cast <to = 1> (delta)
          span = Sub (l_f, s_f)
          ratio = Div (span, d_f)
          up = Ceil (ratio)
          zero_f = Cast <to = 1> (zero)
          count_f = Max (up, zero_f)
          count = Cast <to = 7> (count_f)
          count_1d = Reshape (count, one_1d)
          ones = ConstantOfShape <value = int64[1] {1}> (count_1d)
          upto = CumSum (ones, zero)
          idx = Sub (upto, one_1d)
          idx_c = CastLike (idx, s)
          steps = Mul (idx_c, d)
          values = Add (s, steps)
          stashed_out = CastLike (values, start)
        },
        else_branch = plain_range () => (plain_out) {
          span = Sub (limit, start)
          ratio = Div (span, delta)
          up = Ceil (ratio)
          zero_t = CastLike (zero, start)
          count_t = Max (up, zero_t)
          count = Cast <to = 7> (count_t)
          count_1d = Reshape (count, one_1d)
          ones = ConstantOfShape <value = int64[1] {1}> (count_1d)
          upto = CumSum (ones, zero)
          idx = Sub (upto, one_1d)
          idx_t = CastLike (idx, start)
          steps = Mul (idx_t, delta)
          plain_out = Add (start, steps)
        }
      >
    }
  >
}
)onnx";

}  // namespace

void define_Range(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("start", "T")
      .input("limit", "T")
      .input("delta", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int16)", "tensor(int32)",
                        "tensor(int64)"});
  op.since(27)
      .is_function({27})
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("start", "T")
      .input("limit", "T")
      .input("delta", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int16)", "tensor(int32)",
                        "tensor(int64)", "tensor(float16)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(27).function(kRangeBody, 27);
  op.all().infer(infer_range).kernel(range_kernel);
}

}  // namespace onnxtool::ops
