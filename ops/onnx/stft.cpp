// SPDX-License-Identifier: Apache-2.0
// STFT: the ai.onnx operator. The DFT of frames of frame_length samples taken every frame_step
// samples of each signal, each multiplied by the window when one is given:
// output (batch, frames, bins, 2), frames = (length - frame_length) / frame_step + 1, bins =
// frame_length / 2 + 1 when onesided (the default) else frame_length.
#include "ops/onnx/signal_common.h"

namespace onnxtool::ops {

namespace {

void infer_stft(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* signal = misc::input_dims(ctx, 0);
  if (signal && signal->size() != 3) infer_fail("signal must be 3-D (batch, length, 1 or 2)");
  const Dims* window = misc::input_dims(ctx, 2);
  if (window && window->size() != 1) infer_fail("window must be 1-D");
  Dim frame_length = window ? (*window)[0] : Dim();
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    const std::optional<int64_t> fl = input_int(ctx, 3);
    frame_length = ctx.unify_dims(frame_length, fl ? Dim::value(*fl) : Dim(), "frame_length");
  }
  const std::optional<int64_t> step = input_int(ctx, 1);
  const Dim length = misc::dim_at(signal, 1);
  Dim frames;
  if (step && *step > 0)
    frames = floor_div(length - frame_length, Dim::value(*step)) + Dim::value(1);
  const bool onesided = ctx.attrs().get_int("onesided", 1) != 0;
  const Dim bins = onesided ? floor_div(frame_length, Dim::value(2)) + Dim::value(1) : frame_length;
  set_output_tensor(ctx, 0, elem, Dims{misc::dim_at(signal, 0), frames, bins, Dim::value(2)});
  if (!step) ctx.explain(0, "the number of frames depends on frame_step's value");
}

void stft_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  misc::require_float(ctx, x, "signal");
  if (x.rank() != 3 || (x.shape()[2] != 1 && x.shape()[2] != 2))
    ctx.fail("signal has shape " + shape_to_string(x.shape()) +
             ", expected (batch, length, 1 or 2)");
  const int64_t step = misc::scalar_index(ctx, ctx.input(1), "frame_step");
  if (step <= 0) ctx.fail("frame_step must be positive, got " + std::to_string(step));
  std::vector<double> window;
  int64_t frame_length = -1;
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    const Tensor& w = ctx.input(2);
    if (w.rank() != 1) ctx.fail("window must be 1-D, got " + shape_to_string(w.shape()));
    window = misc::values_as<double>(ctx, w, "window");
    frame_length = w.shape()[0];
  }
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    const int64_t fl = misc::scalar_index(ctx, ctx.input(3), "frame_length");
    if (frame_length >= 0 && fl != frame_length)
      ctx.fail("frame_length " + std::to_string(fl) + " differs from the window's length " +
               std::to_string(frame_length));
    frame_length = fl;
  }
  const int64_t batch = x.shape()[0], length = x.shape()[1], comps = x.shape()[2];
  if (frame_length <= 0 || frame_length > length)
    ctx.fail("frame_length must be in [1, " + std::to_string(length) +
             "] (give a window or frame_length)");
  const bool onesided = ctx.attrs().get_int("onesided", 1) != 0;
  if (onesided && comps == 2) ctx.fail("a complex signal has no onesided STFT");
  const int64_t frames = (length - frame_length) / step + 1;
  const int64_t bins = onesided ? frame_length / 2 + 1 : frame_length;
  const std::vector<double> in = misc::values_as<double>(ctx, x, "signal");
  std::vector<double> out(static_cast<std::size_t>(batch * frames * bins * 2));
  std::vector<signal::Complex> frame(static_cast<std::size_t>(frame_length));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < frames; ++f) {
      for (int64_t k = 0; k < frame_length; ++k) {
        const double* p = in.data() + (b * length + f * step + k) * comps;
        const double w = window.empty() ? 1.0 : window[static_cast<std::size_t>(k)];
        frame[static_cast<std::size_t>(k)] = signal::Complex(p[0], comps == 2 ? p[1] : 0.0) * w;
      }
      const std::vector<signal::Complex> y = signal::dft(frame, false);
      for (int64_t k = 0; k < bins; ++k) {
        double* q = out.data() + ((b * frames + f) * bins + k) * 2;
        q[0] = y[static_cast<std::size_t>(k)].real();
        q[1] = y[static_cast<std::size_t>(k)].imag();
      }
    }
  misc::write_output<double>(ctx, 0, x.dtype(), {batch, frames, bins, 2}, out);
}

}  // namespace

void define_STFT(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .attr("onesided", AttrType::i, int64_t{1})
      .input("signal", "T1", D::non_differentiable)
      .input("frame_step", "T2", D::non_differentiable)
      .input_optional("window", "T1", D::non_differentiable)
      .input_optional("frame_length", "T2", D::non_differentiable)
      .output("output", "T1", D::non_differentiable)
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_stft).kernel(stft_kernel);
}

}  // namespace onnxtool::ops
