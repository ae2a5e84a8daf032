// SPDX-License-Identifier: Apache-2.0
// Plain reference implementations of the heavy neural-network kernels: one loop nest each,
// straight from the spec's formulas, no blocking, no BLAS, no threads. The operators' fast paths
// are tested against them (tests/ops/test_nn_*.cpp) on random inputs and many geometries.
#pragma once

#include <cstdint>

#include "ops/onnx/nn_common.h"

namespace onnxtool::ops::nn {

// A convolution's sizes: X [batch, in_channels, window.in...], W [out_channels,
// in_channels/group, window.kernel...], Y [batch, out_channels, window.out...].
struct ConvGeometry {
  int64_t batch = 1, in_channels = 1, out_channels = 1, group = 1;
  Window window;
};

// The offset in one input plane (spatial dims window.in) read by output position p (flat over
// window.out) under kernel offset kk (flat over window.kernel); -1 when it falls in the padding.
int64_t window_input_index(const Window& w, int64_t p, int64_t kk);

// Conv: y = b + sum over the window of w * x (b may be null).
template <class F>
void conv_reference(const ConvGeometry& g, const F* x, const F* w, const F* b, F* y);

// ConvTranspose: X [batch, in_channels, window.out...] (the conv's output side), W [in_channels,
// out_channels/group, kernel...], Y [batch, out_channels, window.in...]; every x scatters
// w * x into the window it would have been computed from. window.in holds Y's spatial dims.
template <class F>
void conv_transpose_reference(const ConvGeometry& g, const F* x, const F* w, const F* b, F* y);

// Pooling over X [planes, window.in...] into Y [planes, window.out...].
enum class PoolKind { max, average, lp };
struct PoolOptions {
  PoolKind kind = PoolKind::max;
  bool count_include_pad = false;  // average
  double p = 2;                    // lp
};
void pool_reference(const Window& w, int64_t planes, const PoolOptions& o, const double* x,
                    double* y);

}  // namespace onnxtool::ops::nn
