// SPDX-License-Identifier: Apache-2.0
// What RNN, GRU and LSTM share: attributes (directions, activations with their alpha/beta,
// clip, layout, hidden size), the shapes of inputs and outputs, variable sequence lengths, and
// the time loop; each cell's gate equations are in rnn_common.cpp next to one another so they
// can be compared with the spec's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::rnn {

enum class Cell { rnn, gru, lstm };

// Type and shape inference: Y (seq, dirs, batch, hidden) or, with layout 1,
// (batch, seq, dirs, hidden); Y_h and Y_c (dirs, batch, hidden) or (batch, dirs, hidden).
void infer(InferContext& ctx, Cell cell);
// The functions the activations attribute names (case-insensitively).
enum class ActivationKind {
  relu,
  tanh,
  sigmoid,
  affine,
  leaky_relu,
  thresholded_relu,
  scaled_tanh,
  hard_sigmoid,
  elu,
  softsign,
  softplus
};
struct Activation {
  std::string name;  // lower case
  double alpha = 0, beta = 0;
  ActivationKind kind = ActivationKind::tanh;  // decoded once: activate switches on it
};

// The attributes of one RNN, GRU or LSTM node, decoded once. Problems found here are reported
// when the node runs, in the order the kernel checks things (direction, shapes, activations).
struct RnnAttrs {
  std::string direction;
  int64_t dirs = 0;  // 0: direction is not forward, reverse or bidirectional
  bool batch_first = false;
  std::optional<int64_t> hidden_size;
  std::vector<Activation> activations;  // per direction, in order
  std::string activation_error;         // why activations could not be decoded
  bool input_forget = false, linear_before_reset = false;
  std::optional<float> clip;
};
RnnAttrs prepare(PrepareContext& ctx, Cell cell);

// The kernel, for float, double, float16 and bfloat16.
void kernel(KernelContext& ctx, const RnnAttrs& attrs, Cell cell);

// Multiply-accumulates of the gate products: every time step of every batch row multiplies
// its input by W and its state by R, in each direction: steps x rows x (|W| + |R|).
double macs(const WorkShapes& s, const AttrView& attrs);

}  // namespace onnxtool::ops::rnn
