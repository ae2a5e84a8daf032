// SPDX-License-Identifier: Apache-2.0
// Depthwise convolution of one plane (a Conv whose groups each have one input channel): every
// output is bias + the sum over the window's taps of w[kh][kw] * x, taps in row-major order,
// each a multiply then an add. The input is read through a zero border, as ONNX's reference
// pads it, so a tap in the padding adds w * 0 (which changes no value but the sign of a zero
// sum, and gives NaN where w is not finite, as the reference's padded product does).
//
// The plane is copied into the border once, split by row and column phase where the strides
// are not 1, so that every tap reads a row's outputs' inputs contiguously; the outputs go a few
// vectors at a time (a row's, or several narrow rows') straight into the plane. The loops are
// compiled per ISA without contraction (depthwise_body.inc): the same bits on every CPU.
#pragma once

#include <cstdint>

#include "core/kernels/epilogue.h"
#include "core/kernels/plane_window.h"

namespace onnxtool::kernels {

// Floats of scratch depthwise_plane and depthwise_planes need for this geometry.
int64_t depthwise_scratch(const PlaneWindow& p);

// y (out_h x out_w) from x (in_h x in_w) and w (kernel_h x kernel_w), then `act` on each
// output (Epilogue::apply's arithmetic); scratch holds depthwise_scratch(p) floats.
void depthwise_plane(const PlaneWindow& p, const float* x, const float* w, float bias, float* y,
                     float* scratch, const Epilogue& act = {});

// Whether depthwise_planes computes this window straight from the input rows, without the
// phase planes: 3x3, stride 2, undilated, a column of padding on the left (MobileNet's
// downsampling layers as PyTorch exports them) or none (TensorFlow's "SAME" on even sizes).
bool depthwise_direct_stride2(const PlaneWindow& p);

// Small planes (few outputs each) go a block of channels at a time: lanes run along the
// channels, each output of the block one pass over the taps, with the same arithmetic as
// depthwise_plane (so the same bits). kDepthwiseChannels planes a block, or fewer.
constexpr int64_t kDepthwiseChannels = 16;

// Whether planes of this window go better by channel blocks (depthwise_channels).
bool depthwise_by_channels(const PlaneWindow& p);

// A block of channels (up to kDepthwiseChannels for depthwise_channels): input planes
// x + c * x_stride, each channel's taps at w + c * kernel_h * kernel_w, bias[c] (or none),
// outputs y + c * y_stride. Channels-last (depthwise_channels only): a position stride of
// x_positions (y_positions) puts channel c of position q at x + q * x_positions + c (the
// block's channels of a position together, as in an NHWC image), and x_stride (y_stride) is
// not read.
struct ChannelBlock {
  const float* x = nullptr;
  int64_t x_stride = 0;
  const float* w = nullptr;
  const float* bias = nullptr;
  float* y = nullptr;
  int64_t y_stride = 0;
  int64_t count = 0;
  int64_t x_positions = 0;
  int64_t y_positions = 0;
};

// Floats of scratch depthwise_channels needs for this geometry.
int64_t depthwise_channels_scratch(const PlaneWindow& p);

void depthwise_channels(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                        const Epilogue& act = {});

// depthwise_plane on b.count planes (any count) of one geometry, with what does not change
// between planes (the zero border, the taps' reads) set up once: for large planes, a batch of
// channels a call. scratch holds depthwise_scratch(p) floats.
void depthwise_planes(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                      const Epilogue& act = {});

}  // namespace onnxtool::kernels
