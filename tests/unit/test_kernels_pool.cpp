// SPDX-License-Identifier: Apache-2.0
// The pooling rows (core/kernels/pool.h): the AVX2 and AVX-512 code, with the scalar finish
// pool.cpp adds, gives the definition's bits on every stride, window and row length, NaNs included.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "core/kernels/gemm.h"
#include "core/kernels/pool.h"
#include "core/kernels/pool_arch.h"

using namespace onnxtool;

namespace {

// The definitions, written out.
void max_definition(float* acc, const float* src, const kernels::RowWindow& w, bool seed) {
  for (int64_t o = 0; o < w.n; ++o)
    for (int64_t kw = 0; kw < w.kernel; ++kw) {
      const float v = src[o * w.stride + kw * w.dilation];
      acc[o] = seed && kw == 0 ? v : (v > acc[o] ? v : acc[o]);
    }
}

void sum_definition(float* acc, const float* src, const kernels::RowWindow& w) {
  for (int64_t o = 0; o < w.n; ++o)
    for (int64_t kw = 0; kw < w.kernel; ++kw) acc[o] = acc[o] + src[o * w.stride + kw * w.dilation];
}

// n floats that end right before a page the process may not read (where the system has mmap):
// a kernel reading past them crashes the test instead of passing unnoticed.
class GuardedFloats {
 public:
  explicit GuardedFloats(int64_t n) {
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
#if defined(__linux__)
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    size_ = (bytes + page - 1) / page * page + page;
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    base_ = static_cast<char*>(p);
    REQUIRE(mprotect(base_ + size_ - page, page, PROT_NONE) == 0);
    data_ = reinterpret_cast<float*>(base_ + size_ - page - bytes);
#else
    fallback_.resize(static_cast<std::size_t>(n));
    data_ = fallback_.data();
#endif
  }
  ~GuardedFloats() {
#if defined(__linux__)
    munmap(base_, size_);
#endif
  }
  GuardedFloats(const GuardedFloats&) = delete;
  GuardedFloats& operator=(const GuardedFloats&) = delete;
  float* data() {
    return data_;
  }

 private:
  float* data_ = nullptr;
  char* base_ = nullptr;
  std::size_t size_ = 0;
  std::vector<float> fallback_;
};

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("the pooling rows give the definition's bits, vector code or not") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-2, 2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int64_t n : {1, 7, 8, 9, 16, 17, 26, 54})
    for (int64_t stride : {1, 2, 3})
      for (int64_t kernel : {1, 2, 3})
        for (int64_t dilation : {1, 2}) {
          const kernels::RowWindow w{n, stride, kernel, dilation};
          // Exactly what the windows read: the last element is the last window's last one.
          const int64_t len = (n - 1) * stride + (kernel - 1) * dilation + 1;
          std::vector<float> src(static_cast<std::size_t>(len)), acc(static_cast<std::size_t>(n));
          for (auto& v : src) v = u(rng);
          for (auto& v : acc) v = u(rng);
          src[static_cast<std::size_t>(len / 2)] = nan;
          acc[static_cast<std::size_t>(n / 3)] = nan;
          INFO("n=", n, " stride=", stride, " kernel=", kernel, " dilation=", dilation);
          // MaxPool: one window row seeds the output (max_rows over a single row).
          auto want = acc, got = acc;
          max_definition(want.data(), src.data(), w, true);
          kernels::max_rows(got.data(), src.data(), len, 1, w);
          CHECK(same_bits(got, want));
          want = acc, got = acc;
          sum_definition(want.data(), src.data(), w);
          kernels::fold_sum(got.data(), src.data(), w);
          CHECK(same_bits(got, want));
          if (kernels::cpu_simd_level() == kernels::SimdLevel::scalar) continue;
          // The vector part alone: what it covers agrees with the definition there.
          got = acc;
          const int64_t done = kernels::detail::max_rows_avx2(got.data(), src.data(), len, 1, n,
                                                              stride, kernel, dilation);
          want = acc;
          max_definition(want.data(), src.data(), w, true);
          for (int64_t o = 0; o < done; ++o)
            CHECK(std::memcmp(&got[static_cast<std::size_t>(o)], &want[static_cast<std::size_t>(o)],
                              sizeof(float)) == 0);
          CHECK(
              done ==
              ((stride == 1 && n >= 8) || (stride == 2 && n >= 9) ? (stride == 1 ? n : n - 1) : 0));
        }
}

TEST_CASE("max_rows over several rows: the definition's bits, in one pass, NaNs included") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-2, 2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int64_t n : {1, 7, 8, 9, 13, 17, 54})
    for (int64_t stride : {1, 2, 3})
      for (int64_t kernel : {1, 3})
        for (int64_t dilation : {1, 2})
          for (int64_t rows : {1, 2, 3}) {
            const kernels::RowWindow w{n, stride, kernel, dilation};
            const int64_t len = (n - 1) * stride + (kernel - 1) * dilation + 1;
            const int64_t step = len + 5;  // rows of a wider plane
            std::vector<float> src(static_cast<std::size_t>(rows * step));
            for (auto& v : src) v = u(rng);
            // A NaN in the first row (it seeds) and one in the last row.
            src[static_cast<std::size_t>(len / 2)] = nan;
            src[static_cast<std::size_t>((rows - 1) * step + len / 3)] = nan;
            INFO("n=", n, " stride=", stride, " kernel=", kernel, " dilation=", dilation,
                 " rows=", rows);
            std::vector<float> want(static_cast<std::size_t>(n), 0.0f), got = want;
            for (int64_t r = 0; r < rows; ++r)
              max_definition(want.data(), &src[r * step], w, r == 0);
            kernels::max_rows(got.data(), src.data(), step, rows, w);
            CHECK(same_bits(got, want));
          }
}

// An average over whole windows, strides 1 and 2: the AVX2 pass (a row's last vector ending at
// its end at stride 1, masked row ends at stride 2 and on rows under 8) and the scalar one both
// give the plain loop's bits, read nothing past the windows and write nothing past the
// outputs.
TEST_CASE("average_padded_plane: the definition's bits, vector code or not") {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-2, 2);
  for (int64_t out_w : {1, 7, 8, 9, 14, 15, 17, 28})
    for (int64_t kernel : {1, 2, 3})
      for (int64_t dilation : {1, 2})
        for (int64_t stride : {1, 2}) {
          const int64_t out_h = 5, reach = (kernel - 1) * dilation;
          // Exactly what the windows read along the width: the last window's last element ends a
          // row (the vector code must not read past it).
          const int64_t padded_w = (out_w - 1) * stride + reach + 1;
          const int64_t padded_h = (out_h - 1) * stride + reach + 1;
          // The plane ends where an unreadable page begins: a read past the last window faults.
          GuardedFloats guarded(padded_h * padded_w);
          float* padded = guarded.data();
          std::vector<float> divisors(static_cast<std::size_t>(out_h * out_w));
          for (int64_t i = 0; i < padded_h * padded_w; ++i) padded[i] = u(rng);
          for (auto& v : divisors) v = static_cast<float>(1 + rng() % 9);
          padded[3 % (padded_h * padded_w)] = std::numeric_limits<float>::quiet_NaN();
          INFO("out_w=", out_w, " kernel=", kernel, " dilation=", dilation, " stride=", stride);
          kernels::PaddedAverage a;
          a.padded = padded;
          a.padded_w = padded_w;
          a.out_h = out_h;
          a.out_w = out_w;
          a.stride_h = a.stride_w = stride;
          a.kernel_h = a.kernel_w = kernel;
          a.dilation_h = a.dilation_w = dilation;
          a.divisors = divisors.data();
          std::vector<float> want(static_cast<std::size_t>(out_h * out_w + 9), -5.0f);
          for (int64_t oh = 0; oh < out_h; ++oh)
            for (int64_t o = 0; o < out_w; ++o) {
              float sum = 0.0f;
              for (int64_t kh = 0; kh < kernel; ++kh)
                for (int64_t kw = 0; kw < kernel; ++kw)
                  sum = sum +
                        padded[static_cast<std::size_t>((oh * stride + kh * dilation) * padded_w +
                                                        o * stride + kw * dilation)];
              want[static_cast<std::size_t>(oh * out_w + o)] =
                  sum / divisors[static_cast<std::size_t>(oh * out_w + o)];
            }
          std::vector<float> got(want.size(), -5.0f);
          kernels::average_padded_plane(got.data(), a);
          CHECK(same_bits(got, want));
          if (kernels::cpu_simd_level() == kernels::SimdLevel::scalar) continue;
          std::vector<float> vec(want.size(), -5.0f);
          kernels::detail::average_padded_plane_avx2(
              vec.data(), a.padded, a.padded_w, a.out_h, a.out_w, a.stride_h, a.stride_w,
              a.kernel_h, a.kernel_w, a.dilation_h, a.dilation_w, a.divisors);
          CHECK(same_bits(vec, want));
        }
}

// The AVX-512 code alone, where the CPU has it: every row length (the ends through masks),
// strides 1 and 2, the definitions' bits, NaNs included, and no read past the last window: the
// rows end where an unreadable page begins.
TEST_CASE("the AVX-512 pooling rows: the definition's bits, masked ends, nothing read past") {
  if (kernels::cpu_simd_level() != kernels::SimdLevel::avx512) {
    MESSAGE("skipped: this CPU has no AVX-512");
    return;
  }
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> u(-2, 2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int64_t n : {1, 5, 15, 16, 17, 31, 33, 56})
    for (int64_t stride : {1, 2, 3})
      for (int64_t kernel : {1, 2, 3})
        for (int64_t dilation : {1, 2})
          for (int64_t rows : {1, 3}) {
            const kernels::RowWindow w{n, stride, kernel, dilation};
            const int64_t len = (n - 1) * stride + (kernel - 1) * dilation + 1;
            const int64_t step = len + 3;
            const int64_t total = (rows - 1) * step + len;  // the last row ends the buffer
            GuardedFloats guarded(total);
            float* src = guarded.data();
            for (int64_t i = 0; i < total; ++i) src[i] = u(rng);
            src[len / 2] = nan;
            src[total - 1 - len / 3] = nan;
            INFO("n=", n, " stride=", stride, " kernel=", kernel, " dilation=", dilation,
                 " rows=", rows);
            const bool covered = stride <= 2;
            std::vector<float> want(static_cast<std::size_t>(n), 0.0f), got = want;
            for (int64_t r = 0; r < rows; ++r)
              max_definition(want.data(), src + r * step, w, r == 0);
            const int64_t done = kernels::detail::max_rows_avx512(got.data(), src, step, rows, n,
                                                                  stride, kernel, dilation);
            CHECK(done == (covered ? n : 0));
            if (covered) CHECK(same_bits(got, want));
            std::vector<float> acc(static_cast<std::size_t>(n));
            for (auto& v : acc) v = u(rng);
            want = acc, got = acc;
            sum_definition(want.data(), src, w);
            CHECK(kernels::detail::fold_sum_avx512(got.data(), src, n, stride, kernel, dilation) ==
                  (covered ? n : 0));
            if (covered) CHECK(same_bits(got, want));
          }
}

TEST_CASE("the AVX-512 average_padded_plane: the definition's bits, nothing read past") {
  if (kernels::cpu_simd_level() != kernels::SimdLevel::avx512) {
    MESSAGE("skipped: this CPU has no AVX-512");
    return;
  }
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-2, 2);
  for (int64_t out_w : {1, 7, 15, 16, 17, 28, 33})
    for (int64_t kernel : {1, 2, 3})
      for (int64_t dilation : {1, 2})
        for (int64_t stride : {1, 2}) {
          const int64_t out_h = 4, reach = (kernel - 1) * dilation;
          const int64_t padded_w = (out_w - 1) * stride + reach + 1;
          const int64_t padded_h = (out_h - 1) * stride + reach + 1;
          GuardedFloats guarded(padded_h * padded_w);
          float* padded = guarded.data();
          for (int64_t i = 0; i < padded_h * padded_w; ++i) padded[i] = u(rng);
          padded[(padded_h * padded_w) / 2] = std::numeric_limits<float>::quiet_NaN();
          GuardedFloats divisors(out_h * out_w);  // read past its end: a fault
          for (int64_t i = 0; i < out_h * out_w; ++i)
            divisors.data()[i] = static_cast<float>(1 + rng() % 9);
          INFO("out_w=", out_w, " kernel=", kernel, " dilation=", dilation, " stride=", stride);
          std::vector<float> want(static_cast<std::size_t>(out_h * out_w + 17), -5.0f);
          for (int64_t oh = 0; oh < out_h; ++oh)
            for (int64_t o = 0; o < out_w; ++o) {
              float sum = 0.0f;
              for (int64_t kh = 0; kh < kernel; ++kh)
                for (int64_t kw = 0; kw < kernel; ++kw)
                  sum =
                      sum +
                      padded[(oh * stride + kh * dilation) * padded_w + o * stride + kw * dilation];
              want[static_cast<std::size_t>(oh * out_w + o)] =
                  sum / divisors.data()[oh * out_w + o];
            }
          std::vector<float> got(want.size(), -5.0f);  // nothing written past the outputs
          kernels::detail::average_padded_plane_avx512(got.data(), padded, padded_w, out_h, out_w,
                                                       stride, stride, kernel, kernel, dilation,
                                                       dilation, divisors.data());
          CHECK(same_bits(got, want));
        }
}

// Whole 3x3 windows at stride 2, several output rows at once: each row's maxima first, then
// across the rows, must give the definition's order over the window, row after row. The values
// where those could part: a NaN first in the window (it stays) or first in a later window row
// (passed over, with the values after it in that row still counting), zeros of both signs (the
// first of equal maxima wins), -infinity everywhere. The input ends the buffer: nothing is read
// past the windows.
TEST_CASE("max_rows_3x3_stride2: the definition's bits over bands of rows, NaNs and zeros") {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> pick(0, 9);
  std::uniform_real_distribution<float> u(-2, 2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto value = [&] {
    switch (pick(rng)) {
      case 0:
        return nan;
      case 1:
        return 0.0f;
      case 2:
        return -0.0f;
      case 3:
        return -inf;
      default:
        return u(rng);
    }
  };
  for (int64_t n : {1, 7, 8, 16, 17, 31, 55})
    for (int64_t out_rows : {1, 2, 8, 9, 19}) {
      INFO("n=", n, " rows=", out_rows);
      const int64_t len = 2 * n + 1, step = len + 4;
      const int64_t total = 2 * out_rows * step + len;  // the last window row ends the buffer
      GuardedFloats guarded(total);
      float* src = guarded.data();
      for (int64_t i = 0; i < total; ++i) src[i] = value();
      const int64_t out_step = n + 3;
      std::vector<float> want(static_cast<std::size_t>(out_rows * out_step), 7.0f), got = want;
      const kernels::RowWindow w{n, 2, 3, 1};
      for (int64_t j = 0; j < out_rows; ++j)
        for (int64_t r = 0; r < 3; ++r)
          max_definition(&want[static_cast<std::size_t>(j * out_step)], src + (2 * j + r) * step, w,
                         r == 0);
      if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx2 && n >= 8) {
        // The AVX2 code on its own, also where AVX-512 would be chosen.
        std::vector<float> avx2 = got;
        CHECK(kernels::detail::max_rows_3x3s2_avx2(avx2.data(), out_step, src, step, out_rows, n));
        CHECK(same_bits(avx2, want));
      }
      if (!kernels::max_rows_3x3_stride2(got.data(), out_step, src, step, out_rows, n)) {
        const bool vectors = kernels::simd_level() != kernels::SimdLevel::scalar;
        if (vectors && n < 8) {  // AVX2 leaves rows of fewer than 8 outputs to max_rows
          CHECK(got == std::vector<float>(got.size(), 7.0f));
          continue;
        }
        MESSAGE("skipped: this CPU has neither AVX-512 nor AVX2");
        return;
      }
      CHECK(same_bits(got, want));  // the gaps between output rows keep their 7s
    }
}
