// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/depthwise.h"

#include "core/kernels/depthwise_arch.h"
#include "core/kernels/gemm.h"

namespace onnxtool::kernels {

namespace detail {

#define DEPTHWISE_FN(name) name##_generic
// SSE2 width: what every x86-64 (and most other) target has.
#define DEPTHWISE_LANES 4
#include "core/kernels/depthwise_body.inc"
#undef DEPTHWISE_LANES
#undef DEPTHWISE_FN

}  // namespace detail

int64_t phase_planes_size(const PlaneWindow& p) {
  const int64_t rows = (p.out_h - 1) * p.stride_h + (p.kernel_h - 1) * p.dilation_h + 1;
  const int64_t cols = (p.out_w - 1) * p.stride_w + (p.kernel_w - 1) * p.dilation_w + 1;
  const int64_t phase_h = (rows + p.stride_h - 1) / p.stride_h;
  const int64_t phase_w = (cols + p.stride_w - 1) / p.stride_w;
  return p.stride_h * p.stride_w * phase_h * phase_w;
}

int64_t depthwise_scratch(const PlaneWindow& p) {
  // Phase planes and a block of zeros after them (the output rows' last vectors read past
  // their row).
  return phase_planes_size(p) + detail::kDepthwiseSlack;
}

// Outputs per plane up to which blocks of channels win: measured on 3x3 layers (pads 1), one
// thread, medians, with the AVX-512 blocks' rows of runs: 14x14 planes of 384 channels took
// 0.045 ms by blocks against 0.046 by planes, of 576 0.068-0.071 against 0.071-0.072, 28 -> 14
// with stride 2 of 192 channels 0.042 against 0.051-0.055; 28x28 planes of 192 channels 0.078
// against 0.070, 56 -> 28 with stride 2 of 144 0.127 against 0.108. With AVX2 (8 lanes, the
// blocks' positions through 8x8 transposes, the planes' rows a band a call), chains of ten
// layers with Clip, min of 5 alternated runs: 14x14 of 384 channels 0.80 ms by blocks against
// 0.92 by planes (two threads 0.48 against 0.51); 28x28 of 192 1.34 against 1.21; 56x56 of 144
// 4.03 against 2.80. (Before the transposes, 14x14 went better by planes.)
constexpr int64_t kChannelBlockMaxOutputs = 196;

bool depthwise_direct_stride2(const PlaneWindow& p) {
  return p.kernel_h == 3 && p.kernel_w == 3 && p.stride_h == 2 && p.stride_w == 2 &&
         p.dilation_h == 1 && p.dilation_w == 1 && (p.pad_left == 0 || p.pad_left == 1);
}

bool depthwise_by_channels(const PlaneWindow& p) {
  const bool wide = simd_level() == SimdLevel::avx512;
  // Below AVX-512 the direct stride-2 planes beat the blocks even on small planes: 14 -> 7 of
  // 576 channels 0.064 ms against 0.112 on one thread, 0.034-0.042 against 0.063-0.096 on two.
  if (!wide && depthwise_direct_stride2(p)) return false;
  return p.out_h * p.out_w <= kChannelBlockMaxOutputs;
}

int64_t depthwise_channels_scratch(const PlaneWindow& p) {
  const int64_t rows = (p.out_h - 1) * p.stride_h + (p.kernel_h - 1) * p.dilation_h + 1;
  const int64_t cols = (p.out_w - 1) * p.stride_w + (p.kernel_w - 1) * p.dilation_w + 1;
  const int64_t lanes = kDepthwiseChannels;
  // The padded planes, the taps, the bias, the outputs: all interleaved.
  return (rows * cols + p.kernel_h * p.kernel_w + 1 + p.out_h * p.out_w) * lanes;
}

void depthwise_channels(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                        const Epilogue& act) {
#if defined(ONNXTOOL_X86_KERNELS)
  switch (simd_level()) {
    case SimdLevel::avx512:
      return detail::depthwise_channels_avx512(p, b, scratch, act);
    case SimdLevel::avx2:
      return detail::depthwise_channels_avx2(p, b, scratch, act);
    case SimdLevel::scalar:
      break;
  }
#endif
  detail::depthwise_channels_generic(p, b, scratch, act);
}

void depthwise_planes(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                      const Epilogue& act) {
#if defined(ONNXTOOL_X86_KERNELS)
  switch (simd_level()) {
    case SimdLevel::avx512:
      return detail::depthwise_planes_avx512(p, b, scratch, act);
    case SimdLevel::avx2:
      return detail::depthwise_planes_avx2(p, b, scratch, act);
    case SimdLevel::scalar:
      break;
  }
#endif
  detail::depthwise_planes_generic(p, b, scratch, act);
}

void depthwise_plane(const PlaneWindow& p, const float* x, const float* w, float bias, float* y,
                     float* scratch, const Epilogue& act) {
  ChannelBlock one;
  one.x = x;
  one.w = w;
  one.bias = &bias;
  one.y = y;
  one.count = 1;
  depthwise_planes(p, one, scratch, act);
}

}  // namespace onnxtool::kernels
