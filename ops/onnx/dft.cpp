// SPDX-License-Identifier: Apache-2.0
// DFT: the ai.onnx operator. The discrete Fourier transform of real ([..., 1]) or complex
// ([..., 2]) signals along one axis, zero-padded or truncated to dft_length; inverse scales by
// 1/n; onesided gives the first n/2 + 1 bins (forward) or takes them and returns the real signal
// (inverse, IRFFT). The axis is an attribute (default 1) in version 17 and an input (default -2)
// from version 20.
#include "core/convert/adapter.h"
#include "ops/onnx/signal_common.h"

namespace onnxtool::ops {

namespace {

// The axis as given (attribute or input), normalised against rank (the last dim excluded).
std::optional<int64_t> given_axis(const InferContext& ctx) {
  if (ctx.schema().since < 20) return ctx.attrs().get_int("axis", 1);
  if (ctx.num_inputs() <= 2 || !ctx.has_input(2)) return -2;
  return input_int(ctx, 2);
}

int64_t check_axis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis > rank - 2 || axis == -1)
    infer_fail("axis " + std::to_string(axis) + " must be in [-rank, -2] or [0, rank-2] for rank " +
               std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

void infer_dft(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* x = misc::input_dims(ctx, 0);
  if (!x) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto rank = static_cast<int64_t>(x->size());
  if (rank < 2) infer_fail("input must have rank >= 2 (signal dims and a last dim of 1 or 2)");
  const Dim last = x->back();
  if (last.is_known() && last.value() != 1 && last.value() != 2)
    infer_fail("the last dim must be 1 (real) or 2 (complex), got " + last.to_string());
  const bool onesided = ctx.attrs().get_int("onesided", 0) != 0;
  const bool inverse = ctx.attrs().get_int("inverse", 0) != 0;
  Dims out = *x;
  out.back() = Dim::value(onesided && inverse ? 1 : 2);
  const std::optional<int64_t> axis = given_axis(ctx);
  if (!axis) {
    for (std::size_t i = 0; i + 1 < out.size(); ++i) out[i] = Dim();
    set_output_tensor(ctx, 0, elem, out);
    ctx.explain(0, "the axis input's value is not known");
    return;
  }
  const auto a = static_cast<std::size_t>(check_axis(*axis, rank));
  Dim n = (*x)[a];
  if (ctx.num_inputs() > 1 && ctx.has_input(1)) {
    const std::optional<int64_t> len = input_int(ctx, 1);
    n = len ? Dim::value(*len) : Dim();
    if (!len) ctx.explain(0, "the dft_length input's value is not known");
  } else if (onesided && inverse) {
    n = ((*x)[a] - Dim::value(1)) * Dim::value(2);
  }
  out[a] = onesided && !inverse ? floor_div(n, Dim::value(2)) + Dim::value(1) : n;
  set_output_tensor(ctx, 0, elem, out);
}

struct DftOptions {
  int64_t axis = 1, length = 0;
  bool inverse = false, onesided = false;
};

DftOptions dft_options(const KernelContext& ctx, const Tensor& x) {
  DftOptions o;
  o.inverse = ctx.attrs().get_int("inverse", 0) != 0;
  o.onesided = ctx.attrs().get_int("onesided", 0) != 0;
  int64_t axis = ctx.schema().since < 20 ? ctx.attrs().get_int("axis", 1) : -2;
  if (ctx.schema().since >= 20 && ctx.num_inputs() > 2 && ctx.has_input(2))
    axis = misc::scalar_index(ctx, ctx.input(2), "axis");
  const int64_t rank = x.rank();
  if (axis < -rank || axis > rank - 2 || axis == -1)
    ctx.fail("axis " + std::to_string(axis) + " must be in [-rank, -2] or [0, rank-2] for rank " +
             std::to_string(rank));
  o.axis = axis < 0 ? axis + rank : axis;
  const int64_t dim = x.shape()[static_cast<std::size_t>(o.axis)];
  o.length = o.onesided && o.inverse ? 2 * (dim - 1) : dim;
  if (ctx.num_inputs() > 1 && ctx.has_input(1))
    o.length = misc::scalar_index(ctx, ctx.input(1), "dft_length");
  if (o.length <= 0) ctx.fail("dft_length must be positive, got " + std::to_string(o.length));
  return o;
}

// One signal (complex values, stride `stride` apart along the axis) transformed.
std::vector<signal::Complex> transform(const std::vector<signal::Complex>& in,
                                       const DftOptions& o) {
  const auto n = static_cast<std::size_t>(o.length);
  std::vector<signal::Complex> x(n);
  if (o.onesided && o.inverse) {
    // IRFFT: the spectrum's missing half is the conjugate mirror; the DC (and Nyquist) bins'
    // imaginary parts do not contribute to a real signal.
    const std::size_t half = n / 2 + 1;
    for (std::size_t k = 0; k < half && k < in.size(); ++k) x[k] = in[k];
    x[0] = x[0].real();
    if (n % 2 == 0) x[n / 2] = x[n / 2].real();
    for (std::size_t k = half; k < n; ++k) x[k] = std::conj(x[n - k]);
  } else {
    for (std::size_t k = 0; k < n && k < in.size(); ++k) x[k] = in[k];
  }
  std::vector<signal::Complex> y = signal::dft(x, o.inverse);
  if (o.onesided && !o.inverse) y.resize(n / 2 + 1);
  return y;
}

void dft_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  misc::require_float(ctx, x, "input");
  if (x.rank() < 2 || (x.shape().back() != 1 && x.shape().back() != 2))
    ctx.fail("input has shape " + shape_to_string(x.shape()) +
             ", expected a last dim of 1 (real) or 2 (complex)");
  const DftOptions o = dft_options(ctx, x);
  const auto a = static_cast<std::size_t>(o.axis);
  const bool complex_in = x.shape().back() == 2;
  if (o.onesided && o.inverse && !complex_in)
    ctx.fail("an inverse onesided DFT needs complex input");
  const int64_t dim = x.shape()[a];
  const int64_t outer = misc::shape_size(x.shape(), 0, a);
  const int64_t inner = misc::shape_size(x.shape(), a + 1, static_cast<std::size_t>(x.rank() - 1));
  Shape out_shape = x.shape();
  const bool real_out = o.onesided && o.inverse;
  const int64_t out_len = o.onesided && !o.inverse ? o.length / 2 + 1 : o.length;
  out_shape[a] = out_len;
  out_shape.back() = real_out ? 1 : 2;
  const std::vector<double> in = misc::values_as<double>(ctx, x, "input");
  std::vector<double> out(static_cast<std::size_t>(misc::shape_size(out_shape)));
  const int64_t cin = complex_in ? 2 : 1, cout = real_out ? 1 : 2;
  std::vector<signal::Complex> sig(static_cast<std::size_t>(dim));
  for (int64_t o_i = 0; o_i < outer; ++o_i)
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t k = 0; k < dim; ++k) {
        const double* p = in.data() + ((o_i * dim + k) * inner + i) * cin;
        sig[static_cast<std::size_t>(k)] = {p[0], complex_in ? p[1] : 0.0};
      }
      const std::vector<signal::Complex> y = transform(sig, o);
      for (int64_t k = 0; k < out_len; ++k) {
        double* q = out.data() + ((o_i * out_len + k) * inner + i) * cout;
        q[0] = y[static_cast<std::size_t>(k)].real();
        if (!real_out) q[1] = y[static_cast<std::size_t>(k)].imag();
      }
    }
  misc::write_output<double>(ctx, 0, x.dtype(), out_shape, out);
}

// ---- version adapters --------------------------------------------------------------------

void dft_axis_to_input(AdapterContext& ctx) {
  const int64_t axis = ctx.int_attribute("axis").value_or(1);
  ctx.remove_attribute("axis");
  ctx.set_input(2, ctx.add_constant(ctx.name_base() + "_axis", Tensor::scalar<int64_t>(axis)));
  ctx.describe("axis " + std::to_string(axis) + ": attribute -> input");
}

void dft_axis_to_attribute(AdapterContext& ctx) {
  int64_t axis = -2;
  if (ctx.has_input(2)) {
    const auto t = ctx.constant_input(2);
    if (!t || t->numel() != 1 || t->dtype() != DataType::int64)
      ctx.refuse("axis (input 2) is computed when the model runs, and " + ctx.to().id() +
                 " takes it as an attribute");
    axis = t->data<int64_t>()[0];
  }
  if (axis < 0) {
    const Type* t = ctx.input_type(0);
    if (!t || t->rank() < 0)
      ctx.refuse("axis " + std::to_string(axis) + " counts from the end, and the rank of the " +
                 "input is not known");
    axis += t->rank();
  }
  ctx.truncate_inputs(2);
  ctx.set_attribute("axis", axis);
  ctx.describe("axis " + std::to_string(axis) + ": input -> attribute");
}

}  // namespace

void define_DFT(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("inverse", AttrType::i, int64_t{0})
      .attr("onesided", AttrType::i, int64_t{0})
      .input("input", "T1", D::non_differentiable)
      .input_optional("dft_length", "T2", D::non_differentiable)
      .output("output", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  op.since(20)
      .attr("inverse", AttrType::i, int64_t{0})
      .attr("onesided", AttrType::i, int64_t{0})
      .input("input", "T1", D::non_differentiable)
      .input_optional("dft_length", "T2", D::non_differentiable)
      .input_optional("axis", "tensor(int64)", D::non_differentiable)
      .output("output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_dft).kernel(dft_kernel);
  // Version 20 takes the axis as an input, and counts it from the end by default (-2, where 17
  // said 1).
  op.at(20).upgrade(dft_axis_to_input).downgrade(dft_axis_to_attribute);
}

}  // namespace onnxtool::ops
