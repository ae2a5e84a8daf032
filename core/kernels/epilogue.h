// SPDX-License-Identifier: Apache-2.0
// An element-wise function that a kernel applies to its output while that is still in cache (a
// fused epilogue), in place of the node that followed it (core/exec/passes/fuse_epilogue.h).
// Each kind is the arithmetic of the operators it stands for, element by element, so a fused
// result has the bits the two nodes give one after the other.
#pragma once

#include <cstdint>

namespace onnxtool::kernels {

struct Epilogue {
  enum class Kind : int64_t {
    none = 0,
    // y = x < lo ? lo : x, then y > hi ? hi : y (NaN stays NaN): a clip, and with lo = 0, hi =
    // +infinity a rectifier.
    clamp = 1,
    // y = x < 0 ? alpha * x : x
    leaky = 2,
  };
  Kind kind = Kind::none;
  float lo = 0, hi = 0, alpha = 0;

  explicit operator bool() const { return kind != Kind::none; }

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
