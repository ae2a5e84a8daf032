// SPDX-License-Identifier: Apache-2.0
// A 2-D window over one image plane, as a convolution slides it: the kernels that read a plane
// through its padding (depthwise.h, im2col.h) share this description and the phase planes of
// plane_phases.inc.
#pragma once

#include <cstdint>

namespace onnxtool::kernels {

struct PlaneWindow {
  int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0;
};

// Floats of the padded plane split into its stride_h x stride_w phase planes (plane_phases.inc).
int64_t phase_planes_size(const PlaneWindow& p);

}  // namespace onnxtool::kernels
