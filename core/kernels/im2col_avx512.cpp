// SPDX-License-Identifier: Apache-2.0
// The im2col copies (im2col_body.inc) compiled for AVX512.
#include "core/kernels/im2col_arch.h"

namespace onnxtool::kernels::detail {

#define IM2COL_FN(name) name##_avx512
#include "core/kernels/im2col_body.inc"
#undef IM2COL_FN

}  // namespace onnxtool::kernels::detail
