// SPDX-License-Identifier: Apache-2.0
// What the signal-processing operators share (DFT, STFT, the windows): one-dimensional discrete
// Fourier transforms in double precision, and the cosine-sum windows.
#pragma once

#include <complex>
#include <vector>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::signal {

using Complex = std::complex<double>;

// The DFT of x (length n): y[k] = sum_j x[j] e^(-2 pi i jk/n), or the inverse with e^(+...) and
// 1/n. Radix-2 FFT when n is a power of two, the direct sum otherwise.
std::vector<Complex> dft(const std::vector<Complex>& x, bool inverse);

// w[i] = sum_k (-1)^k a[k] cos(2 pi k i / N) for i < size, N = size (periodic) or size - 1
// (symmetric): Hann (0.5, 0.5), Hamming (25/46, 21/46), Blackman (0.42, 0.5, 0.08).
std::vector<double> cosine_window(int64_t size, bool periodic, const std::vector<double>& a);

// The window operators: inference (a 1-D tensor of output_datatype, of the size input's value
// when known) and kernel.
void infer_window(InferContext& ctx);
void window_kernel(KernelContext& ctx, const std::vector<double>& coefficients);

}  // namespace onnxtool::ops::signal
