// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/signal_common.h"

#include <cmath>
#include <numbers>

namespace onnxtool::ops::signal {

namespace {

bool power_of_two(std::size_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}

// In-place iterative radix-2 FFT (n a power of two), sign -1 forward, +1 inverse, unscaled.
void fft_radix2(std::vector<Complex>& a, double sign) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const double angle = sign * 2 * std::numbers::pi / static_cast<double>(len);
    for (std::size_t i = 0; i < n; i += len)
      for (std::size_t k = 0; k < len / 2; ++k) {
        const Complex w = std::polar(1.0, angle * static_cast<double>(k));
        const Complex u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
  }
}

}  // namespace

std::vector<Complex> dft(const std::vector<Complex>& x, bool inverse) {
  const std::size_t n = x.size();
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<Complex> y;
  if (power_of_two(n)) {
    y = x;
    fft_radix2(y, sign);
  } else {
    // Twiddles by (j*k mod n) keep the angles exact for large products.
    std::vector<Complex> tw(n);
    for (std::size_t i = 0; i < n; ++i)
      tw[i] = std::polar(
          1.0, sign * 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n));
    y.assign(n, Complex{});
    for (std::size_t k = 0; k < n; ++k) {
      Complex s{};
      for (std::size_t j = 0; j < n; ++j) s += x[j] * tw[(j * k) % n];
      y[k] = s;
    }
  }
  if (inverse && n > 0)
    for (Complex& v : y) v /= static_cast<double>(n);
  return y;
}

std::vector<double> cosine_window(int64_t size, bool periodic, const std::vector<double>& a) {
  std::vector<double> w(static_cast<std::size_t>(std::max<int64_t>(size, 0)));
  const double n = static_cast<double>(periodic ? size : size - 1);
  for (std::size_t i = 0; i < w.size(); ++i) {
    double v = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      const double term = a[k] * std::cos(2 * std::numbers::pi * static_cast<double>(k) *
                                          static_cast<double>(i) / n);
      v += k % 2 == 0 ? term : -term;
    }
    // A symmetric window of one point is [1] (the formula would divide by zero).
    w[i] = n == 0 ? 1.0 : v;
  }
  return w;
}

void infer_window(InferContext& ctx) {
  const int64_t dtype = ctx.attrs().get_int("output_datatype", 1);
  const auto t = data_type_from_int(static_cast<int32_t>(dtype));
  if (!t || *t == DataType::string || *t == DataType::boolean || type_info(*t).bits < 8 ||
      type_info(*t).cls == TypeClass::complex)
    infer_fail("output_datatype " + std::to_string(dtype) + " is not a numeric element type");
  const Dims* size = misc::input_dims(ctx, 0);
  if (size && !size->empty() &&
      !(size->size() == 1 && (*size)[0].is_known() && (*size)[0].value() == 1))
    infer_fail("size must be a scalar");
  const std::optional<int64_t> n = input_int(ctx, 0);
  set_output_tensor(ctx, 0, static_cast<int32_t>(dtype), Dims{n ? Dim::value(*n) : Dim()});
  if (!n) ctx.explain(0, "the window's length is the value of input size");
}

void window_kernel(KernelContext& ctx, const std::vector<double>& coefficients) {
  const int64_t size = misc::scalar_index(ctx, ctx.input(0), "size");
  if (size < 0) ctx.fail("size must be >= 0, got " + std::to_string(size));
  const bool periodic = ctx.attrs().get_int("periodic", 1) != 0;
  const int64_t dtype = ctx.attrs().get_int("output_datatype", 1);
  const auto t = data_type_from_int(static_cast<int32_t>(dtype));
  if (!t || *t == DataType::string)
    ctx.fail("output_datatype " + std::to_string(dtype) + " is not numeric");
  misc::write_output<double>(ctx, 0, *t, {size}, cosine_window(size, periodic, coefficients));
}

}  // namespace onnxtool::ops::signal
