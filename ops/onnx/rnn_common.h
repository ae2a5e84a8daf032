// SPDX-License-Identifier: Apache-2.0
// What RNN, GRU and LSTM share: attributes (directions, activations with their alpha/beta,
// clip, layout, hidden size), the shapes of inputs and outputs, variable sequence lengths, and
// the time loop; each cell's gate equations are in rnn_common.cpp next to one another so they
// can be compared with the spec's.
#pragma once

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::rnn {

enum class Cell { rnn, gru, lstm };

// Type and shape inference: Y (seq, dirs, batch, hidden) or, with layout 1,
// (batch, seq, dirs, hidden); Y_h and Y_c (dirs, batch, hidden) or (batch, dirs, hidden).
void infer(InferContext& ctx, Cell cell);
// The kernel, for float, double, float16 and bfloat16.
void kernel(KernelContext& ctx, Cell cell);

}  // namespace onnxtool::ops::rnn
