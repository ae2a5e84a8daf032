// SPDX-License-Identifier: Apache-2.0
// im2col for 2-D convolutions, written straight into the packed layout the matrix products
// read (packed_layout.h): row c * K + kh * kernel_w + kw (K = kernel_h * kernel_w) holds, for
// each output position, channel c's input under tap (kh, kw), zero in the padding. Each
// channel's plane is copied once into its zero border (plane_phases.inc), so every row is
// contiguous copies, vectorised per ISA.
#pragma once

#include <cstdint>

#include "core/kernels/packed_layout.h"
#include "core/kernels/plane_window.h"

namespace onnxtool::kernels {

// Channels im2col_packed copies into its scratch at a time.
int64_t im2col_channels_per_pass(const PlaneWindow& w);
// Floats the variants may read (and ignore) either side of the phase planes in the scratch: a
// vector's worth of lanes past a run's ends, where a whole load costs less than a masked one.
constexpr int64_t kIm2colScratchGuard = 16;
// Floats of scratch im2col_packed needs for positions [p0, p1), its guards included.
int64_t im2col_packed_scratch(const PlaneWindow& w, int64_t p0, int64_t p1);

// Rows of channels [c0, c1) of the channel planes x (plane c at x + c * in_h * in_w), output
// positions [p0, p1): row r, position p at out[layout.offset(r, p - p0)]; the panels' columns
// past p1 - p0 are zero.
void im2col_packed(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1, int64_t p0,
                   int64_t p1, const PackedBLayout& layout, float* out, float* scratch);

// The phase planes (plane_phases.inc: the padded plane split by the strides, zero outside the
// input) of channels [c0, c1) of x, channel c's phase_planes_size(w) floats at out + (c - c0) *
// phase_planes_size(w); planes no tap reads are left as they were. Tap (kh, kw) of output
// (oy, ox) reads a channel's planes at phase_tap_offset(w, kh, kw) + oy * phase_plane_width(w)
// + ox: along all of an image's outputs at once, with phase_plane_width(w) - out_w columns
// between rows.
void fill_phase_planes(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1, float* out);
int64_t phase_plane_width(const PlaneWindow& w);
int64_t phase_tap_offset(const PlaneWindow& w, int64_t kh, int64_t kw);

}  // namespace onnxtool::kernels
