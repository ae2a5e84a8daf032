// SPDX-License-Identifier: Apache-2.0
// An element-wise function that a kernel applies to its output while that is still in cache (a
// fused epilogue), in place of the node that followed it (core/exec/passes/fuse_epilogue.h).
// Each kind is the arithmetic of the operators it stands for, element by element, so a fused
// result has the bits the two nodes give one after the other.
#pragma once

#include <cstdint>
#include <type_traits>

namespace onnxtool::kernels {

// HardSigmoid's and HardSwish's arithmetic on one element, in this order: their operators'
// kernels (ops/onnx/activations.cpp) and the epilogues (apply_activation_f32) share it. (For
// code compiled for no particular ISA: an inline function in an ISA file may be the copy kept.)
template <class F>
F hard_sigmoid_of(F x, float alpha, float beta) {
  const F y = static_cast<F>(alpha) * x + static_cast<F>(beta);
  return y < F{0} ? F{0} : (y > F{1} ? F{1} : y);
}
template <class F>
F hard_swish_of(F x) {
  const F t = x / F{6} + F{0.5};
  return x * (t < F{0} ? F{0} : (t > F{1} ? F{1} : t));
}

struct Epilogue;
// The kinds that are not plain clamps (Epilogue::in_registers()) on float32 values, in place
// (vmath.cpp): what Epilogue::apply calls for them, and what the kernels that apply clamps in
// their registers call on a finished block of output for the others.
void apply_activation_f32(float* p, int64_t n, const Epilogue& e);

struct Epilogue {
  enum class Kind : int64_t {
    none = 0,
    // y = x < lo ? lo : x, then y > hi ? hi : y (NaN stays NaN): a clip, and with lo = 0, hi =
    // +infinity a rectifier.
    clamp = 1,
    // y = x < 0 ? alpha * x : x
    leaky = 2,
    // y = 1 / (1 + e^-x), as kernels::sigmoid_f32 computes it (Sigmoid's float32 kernel).
    sigmoid = 3,
    // y = alpha * x + lo (HardSigmoid's beta), then 0 below 0 and 1 above 1.
    hard_sigmoid = 4,
    // y = x * (t < 0 ? 0 : t > 1 ? 1 : t) with t = x / 6 + 0.5 (HardSwish).
    hard_swish = 5,
    // y = x * s with s the sigmoid above (Swish / SiLU written as Sigmoid and Mul).
    swish = 6,
  };
  Kind kind = Kind::none;
  float lo = 0, hi = 0, alpha = 0;

  explicit operator bool() const { return kind != Kind::none; }
  // Whether it is a clamp or a leaky slope, which the product and convolution kernels apply to
  // their registers; the other kinds (float32 only) go through apply_activation_f32 on a
  // finished block.
  bool in_registers() const { return kind <= Kind::leaky; }

  // The activation alone, on p[0 .. n).
  template <class F>
  void apply(F* p, int64_t n) const {
    switch (kind) {
      case Kind::clamp: {
        const F l = static_cast<F>(lo), h = static_cast<F>(hi);
        for (int64_t i = 0; i < n; ++i) {
          const F y = p[i] < l ? l : p[i];
          p[i] = y > h ? h : y;
        }
        return;
      }
      case Kind::leaky: {
        const F a = static_cast<F>(alpha);
        for (int64_t i = 0; i < n; ++i) p[i] = p[i] < F(0) ? a * p[i] : p[i];
        return;
      }
      case Kind::none:
        return;
      default:
        if constexpr (std::is_same_v<F, float>) apply_activation_f32(p, n, *this);
        return;
    }
  }

  // p[i] += residual[i] first when residual is given (a fused residual Add: the same rounding
  // as that Add), then the activation.
  template <class F>
  void apply(F* p, int64_t n, const F* residual) const {
    if (residual)
      for (int64_t i = 0; i < n; ++i) p[i] += residual[i];
    apply(p, n);
  }
};

}  // namespace onnxtool::kernels
