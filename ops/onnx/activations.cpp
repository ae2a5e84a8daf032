// SPDX-License-Identifier: Apache-2.0
// The activation family of ai.onnx, one row per operator: Relu, LeakyRelu, PRelu, Elu, Selu,
// Celu, Gelu, Sigmoid, HardSigmoid, HardSwish, Mish, Softplus, Softsign, ThresholdedRelu, Swish,
// Clip, Shrink. The output has the input's type and shape; float16 and bfloat16 compute in
// float; attributes are read once per run.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/kernels/vmath.h"
#include "core/registry/fusion.h"
#include "core/types/float_formats.h"
#include "onnx.pb.h"
#include "ops/onnx/elementwise.h"

namespace onnxtool::ops {

namespace {

using ew::FloatTypes;
using ew::kCostlyGrain;

template <class Kernel>
void define_activation(OpDef& op, const Kernel& kernel) {
  op.all()
      .infer(same_as_input())
      .kernel(kernel)
      .trait(Trait::elementwise)
      .trait(Trait::float_generic);
}

// A kernel for float types whose function reads attributes: make(attrs) gives it, once per
// node.
template <class Make>
PreparedKernel float_with(Make make, int64_t grain = kCostlyGrain) {
  return ew::unary_kernel_with<FloatTypes>(
      [make](const NodeInfo& node) { return make(node.attrs()); }, grain);
}

template <class F>
KernelFn float_fn(F f, int64_t grain = kCostlyGrain) {
  return ew::unary_kernel<FloatTypes>(f, grain);
}

// 1 / (1 + e^-x) without overflow for large |x|.
template <class C>
C sigmoid(C x) {
  if (x >= C{0}) return C{1} / (C{1} + std::exp(-x));
  const C e = std::exp(x);
  return e / (C{1} + e);
}

// ln(1 + e^x) without overflow for large x.
template <class C>
C softplus(C x) {
  return x > C{0} ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

auto relu_fn = [](auto x) {
  using C = decltype(x);
  return x < C{0} ? C{0} : x;  // NaN stays NaN
};

// ---- epilogues (core/registry/fusion.h): the same arithmetic, applied by a Conv ------------

using kernels::Epilogue;

bool relu_epilogue(const FusionNode&, Epilogue& e) {
  e.kind = Epilogue::Kind::clamp;
  e.lo = 0;
  e.hi = std::numeric_limits<float>::infinity();
  return true;
}

bool leaky_relu_epilogue(const FusionNode& n, Epilogue& e) {
  e.kind = Epilogue::Kind::leaky;
  e.alpha = n.attrs.get_float("alpha", 0.01f);
  return true;
}

// Clip-1 and 6: the bounds are attributes, as prepare_clip_attr reads them.
bool clip_attr_epilogue(const FusionNode& n, Epilogue& e) {
  e.kind = Epilogue::Kind::clamp;
  e.lo = n.attrs.opt_float("min").value_or(-std::numeric_limits<float>::infinity());
  e.hi = n.attrs.opt_float("max").value_or(std::numeric_limits<float>::infinity());
  return true;
}

// A constant scalar bound of Clip as float32, exactly (float32, float16 or bfloat16).
std::optional<float> float_bound(const Tensor* t) {
  if (!t || t->numel() != 1) return std::nullopt;
  switch (t->dtype()) {
    case DataType::float32:
      return t->data<float>()[0];
    case DataType::float16:
      return to_float(t->data<Float16>()[0]);
    case DataType::bfloat16:
      return to_float(t->data<BFloat16>()[0]);
    default:
      return std::nullopt;
  }
}

// Clip-11 on: constant float scalars, or absent (the float range, as clip_input_kernel uses).
bool clip_input_epilogue(const FusionNode& n, Epilogue& e) {
  float bounds[2] = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
  for (std::size_t i = 1; i < 3; ++i) {
    if (i >= n.input_named.size() || !n.input_named[i]) continue;
    const std::optional<float> bound = float_bound(n.constants[i]);
    if (!bound) return false;
    bounds[i - 1] = *bound;
  }
  e.kind = Epilogue::Kind::clamp;
  e.lo = bounds[0];
  e.hi = bounds[1];
  return true;
}

auto leaky_relu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 0.01f);
  return [alpha](auto x) {
    using C = decltype(x);
    return x < C{0} ? static_cast<C>(alpha) * x : x;
  };
};

auto elu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) {
    using C = decltype(x);
    return x < C{0} ? static_cast<C>(alpha) * std::expm1(x) : x;
  };
};

auto selu = [](const AttrView& a) {
  // The Changelog prints the defaults rounded (1.67326, 1.0507); these are the exact float values
  // the operator defines.
  const float alpha = a.has("alpha") ? a.get_float("alpha") : 1.67326319217681884765625f;
  const float gamma = a.has("gamma") ? a.get_float("gamma") : 1.05070102214813232421875f;
  return [alpha, gamma](auto x) {
    using C = decltype(x);
    const C g = static_cast<C>(gamma);
    return x > C{0} ? g * x : g * static_cast<C>(alpha) * std::expm1(x);
  };
};

// max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
auto celu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) {
    using C = decltype(x);
    if (std::isnan(x)) return x;
    const C al = static_cast<C>(alpha);
    const C e = al * std::expm1(x / al);
    return (x > C{0} ? x : C{0}) + (e < C{0} ? e : C{0});
  };
};

// 0.5 x (1 + erf(x / sqrt 2)), or with approximate="tanh"
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), computed as x / (1 + e^-2u) with u the
// tanh's argument: the same value, without the cancellation of 1 + tanh(u) where u is very
// negative (x = -3: 1 + tanh(u) is 3e-3, and a float tanh's last bit is 2 % of it).
// approximate: "none" or "tanh"; anything else is an error message.
std::string gelu_mode_error(const AttrView& a) {
  const std::string mode = a.get_string("approximate", "none");
  if (mode == "none" || mode == "tanh") return "";
  return "approximate is \"" + mode + "\", expected \"none\" or \"tanh\"";
}

void infer_gelu(InferContext& ctx) {
  if (auto e = gelu_mode_error(ctx.attrs()); !e.empty()) ctx.fail(e);
  ctx.set_output_type(0, ctx.input_type(0));
}

// The tanh form's 2u, in one order for every type and path.
template <class C>
C gelu_twice_tanh_argument(C x) {
  const C k = static_cast<C>(0.7978845608028654);  // sqrt(2 / pi)
  return C{2} * (k * (x + static_cast<C>(0.044715) * x * x * x));
}

auto gelu_of(bool tanh_form) {
  return [tanh_form](auto x) {
    using C = decltype(x);
    if (tanh_form) return x * sigmoid(gelu_twice_tanh_argument(x));
    return C{0.5} * x * (C{1} + std::erf(x * static_cast<C>(0.7071067811865476)));
  };
}

// y = finish(x, f(arg(x))) a block at a time: arg and finish element by element, f a vector
// function of core/kernels/vmath.h on the block.
template <class Arg, class Finish>
void through_vector(const float* x, float* y, int64_t n, Arg arg, ew::VectorF32 f, Finish finish) {
  constexpr int64_t kBlock = 1024;
  float t[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = std::min(kBlock, n - i0);
    for (int64_t i = 0; i < m; ++i) t[i] = arg(x[i0 + i]);
    f(t, t, m);
    for (int64_t i = 0; i < m; ++i) y[i0 + i] = finish(x[i0 + i], t[i]);
  }
}

// Gelu's two forms on float32, gelu_of's arithmetic with the vector sigmoid and erf.
void gelu_tanh_f32(const float* x, float* y, int64_t n) {
  through_vector(
      x, y, n, [](float v) { return gelu_twice_tanh_argument(v); }, kernels::sigmoid_f32,
      [](float v, float s) { return v * s; });
}
void gelu_erf_f32(const float* x, float* y, int64_t n) {
  through_vector(
      x, y, n, [](float v) { return v * 0.7071067811865476f; }, kernels::erf_f32,
      [](float v, float e) { return 0.5f * v * (1.0f + e); });
}

struct GeluState {
  bool tanh_form = false;
};

GeluState prepare_gelu(PrepareContext& ctx) {
  if (auto e = gelu_mode_error(ctx.attrs()); !e.empty()) throw KernelFailure{e};
  return {ctx.attrs().get_string("approximate", "none") == "tanh"};
}

// float32 on the vector sigmoid (tanh form) or erf (core/kernels/vmath.h); the other types
// element by element. On 128 x 3072 elements, one thread: the tanh form 7.47 -> 0.52 ms (and
// within 3e-6 of the true value relative for x > -5, where 1 + tanh(u) lost up to 30 %), the
// erf form 2.21 -> 0.49 ms, as accurate as std::erf's (both within 5e-7 absolute).
void run_gelu(KernelContext& ctx, const GeluState& s) {
  if (ctx.input(0).dtype() != DataType::float32)
    return ew::run_unary_kernel<FloatTypes>(ctx, gelu_of(s.tanh_form), kCostlyGrain);
  ew::run_vector_f32(ctx, s.tanh_form ? gelu_tanh_f32 : gelu_erf_f32, ew::kCheapGrain);
}

auto hard_sigmoid = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 0.2f);
  const float beta = a.get_float("beta", 0.5f);
  return [alpha, beta](auto x) { return kernels::hard_sigmoid_of(x, alpha, beta); };
};

// HardSigmoid's step: params alpha, beta.
void hard_sigmoid_step(const float* const* in, float* out, int64_t n, const float* params) {
  const float* x = in[0];
  for (int64_t i = 0; i < n; ++i) out[i] = kernels::hard_sigmoid_of(x[i], params[0], params[1]);
}

bool hard_sigmoid_step_hook(const FusionNode& n, ElementwiseStep& s) {
  s.fn = hard_sigmoid_step;
  s.operands = {0};
  s.params = {n.attrs.get_float("alpha", 0.2f), n.attrs.get_float("beta", 0.5f)};
  return true;
}

auto sigmoid_fn = [](auto x) { return sigmoid(x); };

bool sigmoid_epilogue(const FusionNode&, Epilogue& e) {
  e.kind = Epilogue::Kind::sigmoid;
  return true;
}

bool hard_sigmoid_epilogue(const FusionNode& n, Epilogue& e) {
  e.kind = Epilogue::Kind::hard_sigmoid;
  e.alpha = n.attrs.get_float("alpha", 0.2f);
  e.lo = n.attrs.get_float("beta", 0.5f);
  return true;
}

bool hard_swish_epilogue(const FusionNode&, Epilogue& e) {
  e.kind = Epilogue::Kind::hard_swish;
  return true;
}
auto softplus_fn = [](auto x) { return softplus(x); };

// x * max(0, min(1, x / 6 + 0.5))
auto hard_swish_fn = [](auto x) { return kernels::hard_swish_of(x); };

auto thresholded_relu = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) {
    using C = decltype(x);
    return x > static_cast<C>(alpha) ? x : C{0};
  };
};

auto swish = [](const AttrView& a) {
  const float alpha = a.get_float("alpha", 1.0f);
  return [alpha](auto x) { return x * sigmoid(static_cast<decltype(x)>(alpha) * x); };
};

// ---- PRelu ------------------------------------------------------------------------------------

auto prelu_fn = [](auto x, auto slope) {
  using C = decltype(x);
  if constexpr (std::is_unsigned_v<C>) {
    static_cast<void>(slope);  // an unsigned x is never negative
    return x;
  } else {
    return x < C{0} ? ew::wrap_mul(slope, x) : x;
  }
};

// The shape slope broadcasts as: unidirectionally to X (opset 7 on); before that also the
// common reading of "shared across channels", a 1-D slope of X's channel count (dim 1).
Shape prelu_slope_shape(const KernelContext& ctx, const Shape& x, const Shape& slope, bool legacy) {
  if (legacy && slope.size() == 1 && x.size() >= 2 && slope[0] == x[1] && x.back() != slope[0]) {
    Shape aligned = slope;
    aligned.resize(x.size() - 1, 1);
    return aligned;
  }
  const std::array<const Shape*, 2> shapes{&x, &slope};
  if (ew::broadcast_shapes(ctx, shapes) != x)
    ctx.fail("slope of shape " + shape_to_string(slope) + " does not broadcast to X's shape " +
             shape_to_string(x) + " (unidirectional broadcasting)");
  return slope;
}

KernelFn prelu_kernel(bool legacy) {
  using Types = decltype(FloatTypes{} | ew::Types<int32_t, int64_t, uint32_t, uint64_t>{});
  return [legacy](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& slope = ctx.input(1);
    ew::require_same_type(ctx, x, slope);
    const Shape s = prelu_slope_shape(ctx, x.shape(), slope.shape(), legacy);
    ew::dispatch(ctx, x.dtype(), Types{}, [&](auto tag) {
      using T = decltype(tag);
      Tensor& y = ctx.output(0, x.dtype(), x.shape());
      const std::array<const Shape*, 2> shapes{&x.shape(), &s};
      ew::binary_loop(ctx, ew::plan_broadcast(x.shape(), shapes), ew::cdata<T>(x),
                      ew::cdata<T>(slope), ew::mdata<T>(y), ew::lift_binary<T>(prelu_fn),
                      ew::kCheapGrain);
    });
  };
}

// Output: X's shape; opset 7 on, slope must broadcast to it.
void infer_prelu(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1});
  const auto& x = ctx.input_type(0).shape;
  const auto& slope = ctx.input_type(1).shape;
  if (x && slope && ctx.opset() >= 7) broadcast_to(*x, *slope);
  set_output_tensor(ctx, 0, elem, x);
}

// ---- Clip -------------------------------------------------------------------------------------

// min(max(x, lo), hi): when lo > hi everything becomes hi, NaN stays NaN.
template <class C>
C clip(C x, C lo, C hi) {
  const C y = x < lo ? lo : x;
  return y > hi ? hi : y;
}

template <class T>
void run_clip(KernelContext& ctx, const Tensor& x, ew::compute_t<T> lo, ew::compute_t<T> hi) {
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  ew::unary_loop(ctx, ew::cdata<T>(x), ew::mdata<T>(y), x.numel(),
                 ew::lift_unary<T>([lo, hi](auto v) { return clip(v, lo, hi); }), ew::kCheapGrain);
}

// Clip-1 and Clip-6: bounds are attributes (Clip-1's are optional: no bound when absent).
struct ClipBounds {
  float lo, hi;
};

ClipBounds prepare_clip_attr(PrepareContext& ctx) {
  return {ctx.attrs().opt_float("min").value_or(-std::numeric_limits<float>::infinity()),
          ctx.attrs().opt_float("max").value_or(std::numeric_limits<float>::infinity())};
}

void clip_attr_kernel(KernelContext& ctx, const ClipBounds& bounds) {
  const Tensor& x = ctx.input(0);
  const float lo = bounds.lo, hi = bounds.hi;
  ew::dispatch(ctx, x.dtype(), FloatTypes{}, [&](auto tag) {
    using T = decltype(tag);
    using C = ew::compute_t<T>;
    run_clip<T>(ctx, x, static_cast<C>(lo), static_cast<C>(hi));
  });
}

// Clip-11 on: bounds are optional scalar inputs of X's type; absent ones do not bound.
void clip_input_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  using Types = decltype(ew::NumericTypes{});
  ew::dispatch(ctx, x.dtype(), Types{}, [&](auto tag) {
    using T = decltype(tag);
    using C = ew::compute_t<T>;
    const auto lo = ew::scalar_input<T>(ctx, 1, "min");
    const auto hi = ew::scalar_input<T>(ctx, 2, "max");
    run_clip<T>(ctx, x, lo ? C(ew::load(*lo)) : std::numeric_limits<C>::lowest(),
                hi ? C(ew::load(*hi)) : std::numeric_limits<C>::max());
  });
}

// min and max, when given, must hold one element.
void infer_clip(InferContext& ctx) {
  for (std::size_t i = 1; i < 3 && i < ctx.num_inputs(); ++i) {
    const auto& s = ctx.input_type(i).shape;
    if (!ctx.has_input(i) || !s) continue;
    for (const Dim& d : *s)
      if (d.is_known() && d.value() != 1)
        ctx.fail(std::string(i == 1 ? "min" : "max") + " must be a scalar, but has shape " +
                 dims_to_string(*s));
  }
  unify_all_input_elem_types(ctx);
  ctx.set_output_type(0, ctx.input_type(0));
}

// ---- Shrink -----------------------------------------------------------------------------------

// x + bias below -lambd, x - bias above lambd, else 0; integers compute in double and convert
// back as Cast does.
auto shrink = [](const AttrView& a) {
  const double lambd = a.get_float("lambd", 0.5f);
  const double bias = a.get_float("bias", 0.0f);
  return [lambd, bias](auto x) {
    using C = decltype(x);
    const auto v = static_cast<double>(x);
    const double y = v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0);
    if constexpr (std::is_integral_v<C>)
      return ew::float_to_int<C>(y);
    else
      return static_cast<C>(y);
  };
};

}  // namespace

namespace {
// Relu-14 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kReluBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Relu (X) => (Y) {
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  Y = Max (X, zero_x)
}
)onnx";
}  // namespace

void define_Relu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(14)
      .is_function({18})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float)", "tensor(int32)", "tensor(int8)", "tensor(int16)",
                        "tensor(int64)", "tensor(float16)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(14).function(kReluBody, 18);
  define_activation(op, ew::unary_kernel<decltype(FloatTypes{} | ew::SignedIntTypes{})>(
                            relu_fn, ew::kCheapGrain));
  op.all().epilogue(relu_epilogue);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

namespace {
// LeakyRelu-16 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kLeakyReluBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
LeakyRelu <alpha> (X) => (Y) {
  slope = Constant <value_float: float = @alpha> ()
  slope_x = CastLike (slope, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  negative = Less (X, zero_x)
  scaled = Mul (slope_x, X)
  Y = Where (negative, scaled, X)
}
)onnx";
}  // namespace

void define_LeakyRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.01f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 0.01f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(16)
      .is_function({16})
      .attr("alpha", AttrType::f, 0.01f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(16).function(kLeakyReluBody, 18);
  define_activation(op, float_with(leaky_relu, ew::kCheapGrain));
  op.all().epilogue(leaky_relu_epilogue);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

// Opset 7 on: slope broadcasts to X unidirectionally (Broadcasting.md).
namespace {
// PRelu-16 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kPReluBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
PRelu (X, slope) => (Y) {
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  negative = Less (X, zero_x)
  scaled = Mul (slope, X)
  Y = Where (negative, scaled, X)
}
)onnx";
// ---- PRelu's version adapters ---------------------------------------------------------------

void prelu_slope_per_channel(AdapterContext& ctx) {
  const auto x = ew::known_dims(ctx, 0), slope = ew::known_dims(ctx, 1);
  if (!x || !slope)
    ctx.refuse(
        "the shapes of X and slope are not known, and PRelu-7 broadcasts slope the numpy "
        "way where earlier versions applied it per channel");
  const int64_t rank = static_cast<int64_t>(x->size());
  const bool per_channel =
      slope->size() == 1 && rank > 2 && x->size() > 1 && (*slope)[0] == (*x)[1] && (*slope)[0] != 1;
  if (!per_channel) return;  // numpy broadcasting says the same
  onnx::NodeProto unsqueeze;
  unsqueeze.set_op_type("Unsqueeze");
  unsqueeze.add_input(ctx.input(1));
  const std::string out = ctx.fresh_name(ctx.input(1) + "_per_channel");
  unsqueeze.add_output(out);
  auto* axes = unsqueeze.add_attribute();
  axes->set_name("axes");
  axes->set_type(onnx::AttributeProto::INTS);
  for (int64_t k = 1; k < rank - 1; ++k) axes->add_ints(k);
  ctx.insert_before(std::move(unsqueeze));
  ctx.set_input(1, out);
  ctx.describe("slope per channel: unsqueezed to [C,1,...] for numpy broadcasting");
}

void prelu_slope_legacy(AdapterContext& ctx) {
  const auto x = ew::known_dims(ctx, 0), slope = ew::known_dims(ctx, 1);
  if (!x || !slope) ctx.refuse("the shapes of X and slope are not known");
  int64_t numel = 1;
  for (int64_t d : *slope) numel *= d;
  if (numel == 1 || *slope == *x) return;
  // [C,1,...,1] against [N,C,...]: the per-channel slope of the earlier versions, as [C].
  const bool per_channel =
      x->size() > 2 && slope->size() == x->size() - 1 && (*slope)[0] == (*x)[1] &&
      std::all_of(slope->begin() + 1, slope->end(), [](int64_t d) { return d == 1; });
  if (!per_channel)
    ctx.refuse(
        "a slope of shape other than X's, one element or one per channel has no sure "
        "equivalent before version 7");
  onnx::NodeProto squeeze;
  squeeze.set_op_type("Squeeze");
  squeeze.add_input(ctx.input(1));
  const std::string out = ctx.fresh_name(ctx.input(1) + "_channels");
  squeeze.add_output(out);
  auto* axes = squeeze.add_attribute();
  axes->set_name("axes");
  axes->set_type(onnx::AttributeProto::INTS);
  for (std::size_t k = 1; k < slope->size(); ++k) axes->add_ints(static_cast<int64_t>(k));
  ctx.insert_before(std::move(squeeze));
  ctx.set_input(1, out);
  ctx.describe("slope [C,1,...] squeezed to [C] (per channel)");
}

}  // namespace

void define_PRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .input("X", "T", D::differentiable)
      .input("slope", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(16)
      .is_function({16})
      .input("X", "T", D::differentiable)
      .input("slope", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.at(16).function(kPReluBody, 18);
  op.from(1, 6).infer(infer_prelu).kernel(prelu_kernel(true));
  op.from(7).infer(infer_prelu).kernel(prelu_kernel(false));
  op.all().trait(Trait::float_generic);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
  // Before 7 a slope of C values applied per channel (dim 1); from 7 it broadcasts the numpy way,
  // so it gets trailing 1s.
  op.at(7).upgrade(prelu_slope_per_channel).downgrade(prelu_slope_legacy);
}

namespace {
// Elu-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kEluBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Elu <alpha> (X) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  a_x = CastLike (a, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  negative = Less (X, zero_x)
  e = Exp (X)
  em1 = Sub (e, one_x)
  neg_part = Mul (a_x, em1)
  Y = Where (negative, neg_part, X)
}
)onnx";
}  // namespace

void define_Elu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 1.0f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kEluBody, 18);
  define_activation(op, float_with(elu));
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

namespace {
// Selu-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kSeluBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Selu <alpha, gamma> (X) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  a_x = CastLike (a, X)
  g = Constant <value_float: float = @gamma> ()
  g_x = CastLike (g, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  e = Exp (X)
  ae = Mul (a_x, e)
  ae_minus_a = Sub (ae, a_x)
  neg_part = Mul (g_x, ae_minus_a)
  pos_part = Mul (g_x, X)
  positive = Greater (X, zero_x)
  Y = Where (positive, pos_part, neg_part)
}
)onnx";
}  // namespace

void define_Selu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 1.6732f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr("gamma", AttrType::f, 1.0507f)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 1.67326f)
      .attr("gamma", AttrType::f, 1.0507f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 1.67326f)
      .attr("gamma", AttrType::f, 1.0507f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kSeluBody, 18);
  define_activation(op, float_with(selu));
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

namespace {
// Celu-28 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kCeluBody[] = R"onnx(
<domain: "", opset_import: ["" : 22]>
Celu <alpha> (X) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  a_x = CastLike (a, X)
  scaled = Div (X, a_x)
  elu = Elu <alpha = 1.0> (scaled)
  Y = Mul (a_x, elu)
}
)onnx";
}  // namespace

void define_Celu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float)"});
  op.since(28)
      .is_function({28})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(28).function(kCeluBody, 22);
  define_activation(op, float_with(celu));
}

namespace {
// Gelu-20 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kGeluBody[] = R"onnx(
<domain: "", opset_import: ["" : 20]>
Gelu <approximate> (X) => (Y) {
  half = Constant <value = float {0.5}> ()
  half_x = CastLike (half, X)
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  inv_sqrt2 = Constant <value = float {0.70710678}> ()
  inv_sqrt2_x = CastLike (inv_sqrt2, X)
  erf_in = Mul (X, inv_sqrt2_x)
  erf_out = Erf (erf_in)
  exact_phi = Add (one_x, erf_out)
  sqrt_2_over_pi = Constant <value = float {0.79788456}> ()
  sqrt_2_over_pi_x = CastLike (sqrt_2_over_pi, X)
  c = Constant <value = float {0.044715}> ()
  c_x = CastLike (c, X)
  x2 = Mul (X, X)
  x3 = Mul (x2, X)
  cx3 = Mul (c_x, x3)
  inner = Add (X, cx3)
  tanh_in = Mul (sqrt_2_over_pi_x, inner)
  tanh_out = Tanh (tanh_in)
  tanh_phi = Add (one_x, tanh_out)
  mode = Constant <value_string: string = @approximate> ()
  tanh_name = Constant <value_string = "tanh"> ()
  use_tanh = Equal (mode, tanh_name)
  phi = Where (use_tanh, tanh_phi, exact_phi)
  half_xv = Mul (half_x, X)
  Y = Mul (half_xv, phi)
}
)onnx";
}  // namespace

void define_Gelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .is_function({20})
      .attr("approximate", AttrType::s, "none")
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(20).function(kGeluBody, 20);
  op.all().infer(infer_gelu).kernel(prepared_kernel(prepare_gelu, run_gelu));
  op.all().trait(Trait::float_generic);
}

void define_Sigmoid(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  // float32 on the vector sigmoid (core/kernels/vmath.h), which an element-wise region and a
  // producer applying it as an epilogue use too: the same bits either way.
  define_activation(
      op, ew::vector_f32_kernel(kernels::sigmoid_f32, float_fn(sigmoid_fn), ew::kCostlyGrain));
  op.all()
      .elementwise_step(ew::step_on<&ew::vector_step<kernels::sigmoid_f32>, 0>)
      .epilogue(sigmoid_epilogue);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

namespace {
// HardSigmoid-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kHardSigmoidBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
HardSigmoid <alpha, beta> (X) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  a_x = CastLike (a, X)
  b = Constant <value_float: float = @beta> ()
  b_x = CastLike (b, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  ax = Mul (a_x, X)
  line = Add (ax, b_x)
  upper = Min (line, one_x)
  Y = Max (upper, zero_x)
}
)onnx";
}  // namespace

void define_HardSigmoid(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kHardSigmoidBody, 18);
  define_activation(op, float_with(hard_sigmoid, ew::kCheapGrain));
  op.all().elementwise_step(hard_sigmoid_step_hook).epilogue(hard_sigmoid_epilogue);
  convert::bridge_dropped_attribute(op, "consumed_inputs");
}

namespace {
// HardSwish-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kHardSwishBody[] = R"onnx(
<domain: "", opset_import: ["" : 22]>
HardSwish (X) => (Y) {
  gate = HardSigmoid <alpha = 0.16666667, beta = 0.5> (X)
  Y = Mul (X, gate)
}
)onnx";
}  // namespace

void define_HardSwish(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(14)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({22})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kHardSwishBody, 22);
  define_activation(op, float_fn(hard_swish_fn, ew::kCheapGrain));
  op.all()
      .elementwise_step(ew::unary_step_hook<decltype(hard_swish_fn)>)
      .epilogue(hard_swish_epilogue);
}

// x * tanh(softplus(x))
namespace {
// Mish-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kMishBody[] = R"onnx(
<domain: "", opset_import: ["" : 22]>
Mish (X) => (Y) {
  sp = Softplus (X)
  t = Tanh (sp)
  Y = Mul (X, t)
}
)onnx";
}  // namespace

void define_Mish(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({22})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kMishBody, 22);
  define_activation(op, float_fn([](auto x) { return x * std::tanh(softplus(x)); }));
}

namespace {
// Softplus-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kSoftplusBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Softplus (X) => (Y) {
  e = Exp (X)
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  e1 = Add (e, one_x)
  Y = Log (e1)
}
)onnx";
}  // namespace

void define_Softplus(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kSoftplusBody, 18);
  define_activation(op, float_fn(softplus_fn));
  op.all().elementwise_step(ew::unary_step_hook<decltype(softplus_fn)>);
}

// x / (1 + |x|)
namespace {
// Softsign-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kSoftsignBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Softsign (X) => (Y) {
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, X)
  magnitude = Abs (X)
  denominator = Add (one_x, magnitude)
  Y = Div (X, denominator)
}
)onnx";
}  // namespace

void define_Softsign(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kSoftsignBody, 18);
  define_activation(
      op, float_fn([](auto x) { return x / (decltype(x){1} + std::fabs(x)); }, ew::kCheapGrain));
}

namespace {
// ThresholdedRelu-22 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kThresholdedReluBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
ThresholdedRelu <alpha> (X) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  a_x = CastLike (a, X)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  above = Greater (X, a_x)
  Y = Where (above, X, zero_x)
}
)onnx";
}  // namespace

void define_ThresholdedRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(22).function(kThresholdedReluBody, 18);
  define_activation(op, float_with(thresholded_relu, ew::kCheapGrain));
}

// x * sigmoid(alpha * x)
namespace {
// Swish-24 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kSwishBody[] = R"onnx(
<domain: "", opset_import: ["" : 24]>
Swish <alpha> (X) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  a_x = CastLike (a, X)
  ax = Mul (a_x, X)
  gate = Sigmoid (ax)
  Y = Mul (X, gate)
}
)onnx";
}  // namespace

void define_Swish(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(24)
      .is_function({24})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(bfloat16)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(24).function(kSwishBody, 24);
  define_activation(op, float_with(swish));
}

// Clip-1/6 take the bounds as attributes, Clip-11 on as optional inputs (12 on: integers too).
namespace {
// Clip-13 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kClipBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Clip (input, min, max) => (output) {
  has_min = OptionalHasElement (min)
  low = If (has_min) <
    then_branch = take_min () => (low_given) { low_given = Identity (min) },
    else_branch = no_min () => (low_none) { low_none = Identity (input) }
  >
  raised = Max (input, low)
  has_max = OptionalHasElement (max)
  high = If (has_max) <
    then_branch = take_max () => (high_given) { high_given = Identity (max) },
    else_branch = no_max () => (high_none) { high_none = Identity (raised) }
  >
  output = Min (raised, high)
}
)onnx";
}  // namespace

void define_Clip(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr_optional("max", AttrType::f)
      .attr_optional("min", AttrType::f)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("max", AttrType::f, 3.40282347e+38f)  // the spec prints max() of float as (3.402823e+38)
      .attr("min", AttrType::f, -3.40282347e+38f)  // the spec prints lowest() of float as (-3.402823e+38)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .input("input", "T")
      .input_optional("min", "T")
      .input_optional("max", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .input("input", "T")
      .input_optional("min", "T")
      .input_optional("max", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .is_function({13})
      .input("input", "T", D::differentiable)
      .input_optional("min", "T", D::non_differentiable)
      .input_optional("max", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(13).function(kClipBody, 18);
  op.from(1, 6).infer(same_as_input()).kernel(prepared_kernel(prepare_clip_attr, clip_attr_kernel));
  op.from(11).infer(infer_clip).kernel(clip_input_kernel);
  op.from(1, 6).epilogue(clip_attr_epilogue);
  op.from(11).epilogue(clip_input_epilogue);
  op.all().trait(Trait::float_generic);
  // Version 6 drops consumed_inputs; 11 takes min and max as inputs.
  op.at(6)
      .upgrade(convert::drop_attribute("consumed_inputs"))
      .downgrade(convert::drop_attribute("consumed_inputs"));
  op.at(11)
      .upgrade(convert::all_of({convert::float_attribute_to_input("min", 1),
                                convert::float_attribute_to_input("max", 2)}))
      .downgrade(convert::all_of({convert::input_to_float_attribute("max", 2),
                                  convert::input_to_float_attribute("min", 1)}));
}

namespace {
// Shrink-9 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kShrinkBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
Shrink <bias, lambd> (input) => (output) {
  l = Constant <value_float: float = @lambd> ()
  l_x = CastLike (l, input)
  b = Constant <value_float: float = @bias> ()
  b_x = CastLike (b, input)
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, input)
  neg_l = Neg (l_x)
  below = Less (input, neg_l)
  above = Greater (input, l_x)
  plus_b = Add (input, b_x)
  minus_b = Sub (input, b_x)
  upper_or_zero = Where (above, minus_b, zero_x)
  output = Where (below, plus_b, upper_or_zero)
}
)onnx";
}  // namespace

void define_Shrink(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .is_function({18})
      .attr("bias", AttrType::f, 0.0f)
      .attr("lambd", AttrType::f, 0.5f)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(9).function(kShrinkBody, 18);
  op.all()
      .infer(same_as_input())
      .kernel(ew::unary_kernel_with<ew::NumericTypes>(
          [](const NodeInfo& node) { return shrink(node.attrs()); }));
}

}  // namespace onnxtool::ops
