// SPDX-License-Identifier: Apache-2.0
// MelWeightMatrix: the ai.onnx operator. A (dft_length/2 + 1, num_mel_bins) matrix of triangular
// filters with peak 1, evenly spaced on the mel scale mel(f) = 2595 log10(1 + f/700) between
// lower_edge_hertz and upper_edge_hertz, their edges rounded down to whole spectrogram bins
// (as the spec's reference does).
#include <cmath>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_mel_weight_matrix(InferContext& ctx) {
  const int64_t dtype = ctx.attrs().get_int("output_datatype", 1);
  const std::optional<int64_t> bins = input_int(ctx, 0);
  const std::optional<int64_t> dft = input_int(ctx, 1);
  set_output_tensor(ctx, 0, static_cast<int32_t>(dtype),
                    Dims{dft ? Dim::value(*dft / 2 + 1) : Dim(), bins ? Dim::value(*bins) : Dim()});
  if (!bins || !dft)
    ctx.explain(0, "the shape is given by the values of num_mel_bins and dft_length");
}

double hz_to_mel(double f) {
  return 2595.0 * std::log10(1.0 + f / 700.0);
}

double mel_to_hz(double m) {
  return 700.0 * (std::pow(10.0, m / 2595.0) - 1.0);
}

void mel_weight_matrix_kernel(KernelContext& ctx) {
  const int64_t mel_bins = misc::scalar_index(ctx, ctx.input(0), "num_mel_bins");
  const int64_t dft_length = misc::scalar_index(ctx, ctx.input(1), "dft_length");
  const int64_t rate = misc::scalar_index(ctx, ctx.input(2), "sample_rate");
  const auto lower = misc::value_at<double>(ctx, ctx.input(3), 0, "lower_edge_hertz");
  const auto upper = misc::value_at<double>(ctx, ctx.input(4), 0, "upper_edge_hertz");
  if (mel_bins <= 0 || dft_length <= 0 || rate <= 0)
    ctx.fail("num_mel_bins, dft_length and sample_rate must be positive");
  if (lower < 0 || upper <= lower) ctx.fail("the edges must satisfy 0 <= lower < upper");
  const int64_t spectrogram_bins = dft_length / 2 + 1;
  const double low = hz_to_mel(lower),
               step = (hz_to_mel(upper) - low) / static_cast<double>(mel_bins + 2);
  std::vector<int64_t> edge(static_cast<std::size_t>(mel_bins + 2));
  for (std::size_t i = 0; i < edge.size(); ++i) {
    const double hz = mel_to_hz(static_cast<double>(i) * step + low);
    edge[i] = static_cast<int64_t>(
        std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(rate)));
    if (edge[i] < 0 || edge[i] >= spectrogram_bins)
      ctx.fail("upper_edge_hertz " + std::to_string(upper) + " is above the Nyquist frequency");
  }
  std::vector<double> out(static_cast<std::size_t>(spectrogram_bins * mel_bins), 0.0);
  auto at = [&](int64_t j, int64_t i) -> double& {
    return out[static_cast<std::size_t>(j * mel_bins + i)];
  };
  for (int64_t i = 0; i < mel_bins; ++i) {
    const int64_t left = edge[static_cast<std::size_t>(i)],
                  center = edge[static_cast<std::size_t>(i + 1)],
                  right = edge[static_cast<std::size_t>(i + 2)];
    if (center == left)
      at(center, i) = 1;
    else
      for (int64_t j = left; j <= center; ++j)
        at(j, i) = static_cast<double>(j - left) / static_cast<double>(center - left);
    for (int64_t j = center; j < right; ++j)
      at(j, i) = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  const auto t =
      data_type_from_int(static_cast<int32_t>(ctx.attrs().get_int("output_datatype", 1)));
  if (!t || *t == DataType::string) ctx.fail("output_datatype is not a numeric type");
  misc::write_output<double>(ctx, 0, *t, {spectrogram_bins, mel_bins}, out);
}

}  // namespace

void define_MelWeightMatrix(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .attr("output_datatype", AttrType::i, int64_t{1})
      .input("num_mel_bins", "T1", D::non_differentiable)
      .input("dft_length", "T1", D::non_differentiable)
      .input("sample_rate", "T1", D::non_differentiable)
      .input("lower_edge_hertz", "T2", D::non_differentiable)
      .input("upper_edge_hertz", "T2", D::non_differentiable)
      .output("output", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(int32)", "tensor(int64)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T3", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_mel_weight_matrix).kernel(mel_weight_matrix_kernel);
}

}  // namespace onnxtool::ops
