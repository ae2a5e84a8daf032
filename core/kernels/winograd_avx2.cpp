// SPDX-License-Identifier: Apache-2.0
// The Winograd transforms (winograd_body.inc) compiled for AVX2.
#include "core/kernels/winograd_arch.h"

namespace onnxtool::kernels::detail {

#define WINOGRAD_FN(name) name##_avx2
#include "core/kernels/winograd_body.inc"
#undef WINOGRAD_FN

}  // namespace onnxtool::kernels::detail
