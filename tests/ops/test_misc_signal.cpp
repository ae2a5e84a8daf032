// SPDX-License-Identifier: Apache-2.0
// DFT (both versions, forward and inverse, one-sided, lengths that are and are not powers of
// two), STFT, the windows, MelWeightMatrix: values, shapes and inference.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

std::string model(int opset, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + body;
}

// Naive DFT of a real signal: (re, im) pairs.
std::vector<double> naive_dft(const std::vector<double>& x, std::size_t bins) {
  std::vector<double> out;
  const auto n = static_cast<double>(x.size());
  for (std::size_t k = 0; k < bins; ++k) {
    double re = 0, im = 0;
    for (std::size_t j = 0; j < x.size(); ++j) {
      const double a = -2 * std::numbers::pi * static_cast<double>(k * j) / n;
      re += x[j] * std::cos(a);
      im += x[j] * std::sin(a);
    }
    out.push_back(re);
    out.push_back(im);
  }
  return out;
}

}  // namespace

TEST_CASE("DFT of real signals, lengths 8 (radix 2) and 5, and the one-sided form") {
  for (int64_t n : {8, 5}) {
    std::vector<double> x(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      x[static_cast<std::size_t>(i)] =
          std::sin(static_cast<double>(i)) + 0.1 * static_cast<double>(i);
    const std::string dims = std::to_string(n);
    auto out = run(
        model(20, "g (double[1," + dims + ",1] x) => (double[1," + dims + ",2] y) { y = DFT (x) }"),
        {{"x", f64({1, n, 1}, x)}});
    check_close(out[0].tensor(), {1, n, 2}, naive_dft(x, static_cast<std::size_t>(n)), 1e-9, 1e-9);
    out = run(
        model(20, "g (double[1," + dims + ",1] x) => (double[] y) { y = DFT <onesided = 1> (x) }"),
        {{"x", f64({1, n, 1}, x)}});
    check_close(out[0].tensor(), {1, n / 2 + 1, 2},
                naive_dft(x, static_cast<std::size_t>(n / 2 + 1)), 1e-9, 1e-9);
  }
}

TEST_CASE("DFT inverse undoes the forward transform; IRFFT gives the real signal back") {
  const std::vector<double> x{1, 2, 3, 4, 5, 6};
  const std::string direct =
      model(20, R"(g (double[1,6,1] x) => (double[1,6,2] back, double[1,6,1] real) {
    y = DFT (x)
    back = DFT <inverse = 1> (y)
    half = DFT <onesided = 1> (x)
    real = DFT <onesided = 1, inverse = 1> (half)
  })");
  auto out = run(direct, {{"x", f64({1, 6, 1}, x)}});
  check_close(out[0].tensor(), {1, 6, 2}, {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}, 1e-9, 1e-9);
  check_close(out[1].tensor(), {1, 6, 1}, x, 1e-9, 1e-9);
  const auto t = infer(direct);
  CHECK(t.at("half") == "double[1,4,2]");
  CHECK(t.at("real") == "double[1,6,1]");
}

TEST_CASE("DFT version 17 takes the axis as an attribute; dft_length pads and truncates") {
  const std::string m = model(
      17,
      R"(g (float[1,2,3,1] x) => (float[1,2,4,2] y, float[1,2,2,2] z) <int64 four = {4}, int64 two = {2}> {
    y = DFT <axis = 2> (x, four)
    z = DFT <axis = -2> (x, two)
  })");
  auto out = run(m, {{"x", f32({1, 2, 3, 1}, {1, 2, 3, 4, 5, 6})}});
  // Row (1, 2, 3) padded to 4: bins 6, -2-2i, 2, -2+2i.
  check_close(out[0].tensor(), {1, 2, 4, 2},
              {6, 0, -2, -2, 2, 0, -2, 2, 15, 0, -2, -5, 5, 0, -2, 5});
  // Truncated to (1, 2): 3, -1.
  check_close(out[1].tensor(), {1, 2, 2, 2}, {3, 0, -1, 0, 9, 0, -1, 0});
  const auto t = infer(m);
  CHECK(t.at("y") == "float[1,2,4,2]");
  CHECK(
      run_error(
          model(
              20,
              "g (float[1,3,1] x) => (float[1,3,2] y) { y = DFT <onesided = 1, inverse = 1> (x) }"),
          {{"x", f32({1, 3, 1}, {1, 2, 3})}})
          .find("complex") != std::string::npos);
}

TEST_CASE("STFT with and without a window") {
  const std::vector<double> sig{0, 1, 2, 3, 4, 5, 6, 7};
  const std::string m = model(
      17,
      R"(g (double[1,8,1] s, double[4] w) => (double[1,3,3,2] y, double[1,3,4,2] z) <int64 step = {2}, int64 len = {4}> {
    y = STFT (s, step, w)
    z = STFT <onesided = 0> (s, step, "", len)
  })");
  const std::vector<double> win{0, 1, 1, 0};
  auto out = run(m, {{"s", f64({1, 8, 1}, sig)}, {"w", f64({4}, win)}});
  std::vector<double> y, z;
  for (int f = 0; f < 3; ++f) {
    std::vector<double> frame(sig.begin() + 2 * f, sig.begin() + 2 * f + 4), wf(4);
    for (int k = 0; k < 4; ++k)
      wf[static_cast<std::size_t>(k)] =
          frame[static_cast<std::size_t>(k)] * win[static_cast<std::size_t>(k)];
    const auto a = naive_dft(wf, 3), b = naive_dft(frame, 4);
    y.insert(y.end(), a.begin(), a.end());
    z.insert(z.end(), b.begin(), b.end());
  }
  check_close(out[0].tensor(), {1, 3, 3, 2}, y, 1e-9, 1e-9);
  check_close(out[1].tensor(), {1, 3, 4, 2}, z, 1e-9, 1e-9);
  const auto t = infer(m);
  CHECK(t.at("y") == "double[1,3,3,2]");
  CHECK(t.at("z") == "double[1,3,4,2]");
}

TEST_CASE("windows: periodic and symmetric, output types, inference from the size value") {
  const std::string m = model(
      17,
      R"(g () => (float[4] hann, double[4] hamming, float[4] blackman, float[1] one) <int64 n = {4}, int64 n1 = {1}> {
    hann = HannWindow (n)
    hamming = HammingWindow <output_datatype = 11, periodic = 0> (n)
    blackman = BlackmanWindow (n)
    one = HannWindow <periodic = 0> (n1)
  })");
  auto out = run(m);
  check_close(out[0].tensor(), {4}, {0, 0.5, 1, 0.5});
  CHECK(out[1].tensor().dtype() == DataType::float64);
  const double a0 = 25.0 / 46, a1 = 21.0 / 46;
  check_close(out[1].tensor(), {4},
              {a0 - a1, a0 - a1 * std::cos(2 * std::numbers::pi / 3),
               a0 - a1 * std::cos(4 * std::numbers::pi / 3), a0 - a1});
  check_close(out[2].tensor(), {4},
              {0.42 - 0.5 + 0.08, 0.42 + 0.08 * -1, 0.42 + 0.5 + 0.08, 0.42 + 0.08 * -1}, 1e-4,
              1e-6);
  check_close(out[3].tensor(), {1}, {1});
  const auto t = infer(m);
  CHECK(t.at("hann") == "float[4]");
  CHECK(t.at("hamming") == "double[4]");
}

TEST_CASE("MelWeightMatrix follows the spec's example") {
  const std::string m = model(
      17,
      R"(g () => (float[9,8] w) <int32 bins = {8}, int32 dft = {16}, int32 rate = {8192}, float lo = {0}, float hi = {4096}> {
    w = MelWeightMatrix (bins, dft, rate, lo, hi)
  })");
  auto out = run(m);
  const auto v = vals(out[0].tensor());
  REQUIRE(v.size() == 72);
  // The spec's expected matrix starts 1, 1, 0, ... and has row 1 = 0, 0, 1, 1, 0, ...
  CHECK(v[0] == 1);
  CHECK(v[1] == 1);
  CHECK(v[2] == 0);
  CHECK(v[8 + 2] == 1);
  CHECK(v[8 + 3] == 1);
  CHECK(infer(m).at("w") == "float[9,8]");
}
