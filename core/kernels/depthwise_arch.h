// SPDX-License-Identifier: Apache-2.0
// What depthwise.cpp hands to its SIMD variants (depthwise_avx2.cpp, depthwise_avx512.cpp):
// the loops of depthwise_body.inc, compiled once per ISA without contraction. Includes only
// plain headers (see gemm_arch.h for why).
#pragma once

#include <algorithm>  // depthwise_body.inc
#include <cstdint>
#include <vector>  // depthwise_body.inc: the tap table of large windows, the phases' spans

#include "core/kernels/depthwise.h"

namespace onnxtool::kernels::detail {

// Zeros the scratch holds after the phase planes, read by the output rows' last vectors
// (depthwise_body.inc): a vector of the widest ISA.
constexpr int64_t kDepthwiseSlack = 16;

void depthwise_channels_generic(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                                const Epilogue& act);
void depthwise_channels_avx2(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                             const Epilogue& act);
void depthwise_channels_avx512(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                               const Epilogue& act);

void depthwise_planes_generic(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                              const Epilogue& act);
void depthwise_planes_avx2(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                           const Epilogue& act);
void depthwise_planes_avx512(const PlaneWindow& p, const ChannelBlock& b, float* scratch,
                             const Epilogue& act);

}  // namespace onnxtool::kernels::detail
