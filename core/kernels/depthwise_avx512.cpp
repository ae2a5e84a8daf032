// SPDX-License-Identifier: Apache-2.0
// The depthwise loops (depthwise_body.inc) compiled for AVX512.
#include "core/kernels/depthwise_arch.h"

namespace onnxtool::kernels::detail {

#define DEPTHWISE_FN(name) name##_avx512
#define DEPTHWISE_LANES 16
#include "core/kernels/depthwise_body.inc"
#undef DEPTHWISE_LANES
#undef DEPTHWISE_FN

}  // namespace onnxtool::kernels::detail
