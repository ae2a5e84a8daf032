// SPDX-License-Identifier: Apache-2.0
// The shared products (core/kernels/gemm.h): every SIMD variant this CPU runs gives the scalar
// reference's bits, on awkward shapes; identical rows give identical results wherever they sit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/kernels/gemm.h"

using namespace onnxtool;
using kernels::GemmArgs;
using kernels::SimdLevel;

namespace {

template <class F>
std::vector<F> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<F> v(n);
  for (auto& x : v) x = static_cast<F>(u(rng));
  return v;
}

std::vector<SimdLevel> levels_this_cpu_runs() {
  std::vector<SimdLevel> out = {SimdLevel::scalar};
  const int best = static_cast<int>(kernels::cpu_simd_level());
  if (best >= static_cast<int>(SimdLevel::avx2)) out.push_back(SimdLevel::avx2);
  if (best >= static_cast<int>(SimdLevel::avx512)) out.push_back(SimdLevel::avx512);
  return out;
}

template <class F>
bool same_bits(const std::vector<F>& a, const std::vector<F>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(F)) == 0;
}

struct Shape3 {
  int64_t m, n, k;
};

// The product op(A) op(B) of shape s (C left for the caller).
template <class F>
GemmArgs<F> product_args(bool ta, bool tb, Shape3 s, F alpha, F beta, const F* a, int64_t lda,
                         const F* b, int64_t ldb, int64_t ldc) {
  GemmArgs<F> g;
  g.trans_a = ta;
  g.trans_b = tb;
  g.m = s.m;
  g.n = s.n;
  g.k = s.k;
  g.alpha = alpha;
  g.a = a;
  g.lda = lda;
  g.b = b;
  g.ldb = ldb;
  g.beta = beta;
  g.ldc = ldc;
  return g;
}

// The product of a packed A (s.m x s.k) and a plain B (s.k x s.n, row stride s.n); C's row
// stride s.n, C left for the caller.
kernels::PackedGemmArgs<float> packed_product_args(const kernels::PackedA<float>& a, Shape3 s,
                                                   const float* b) {
  kernels::PackedGemmArgs<float> g;
  g.a = &a;
  g.m = s.m;
  g.n = s.n;
  g.b = b;
  g.ldb = s.n;
  g.ldc = s.n;
  return g;
}

// Runs one product at every level and compares each with the reference, bit for bit.
template <class F>
void check_levels(bool ta, bool tb, Shape3 s, F alpha, F beta, int64_t pad) {
  const int64_t lda = (ta ? s.m : s.k) + pad, ldb = (tb ? s.k : s.n) + pad, ldc = s.n + pad;
  const auto a = random_values<F>(static_cast<std::size_t>((ta ? s.k : s.m) * lda), 1);
  const auto b = random_values<F>(static_cast<std::size_t>((tb ? s.n : s.k) * ldb), 2);
  const auto c0 = random_values<F>(static_cast<std::size_t>(s.m * ldc), 3);
  GemmArgs<F> g = product_args(ta, tb, s, alpha, beta, a.data(), lda, b.data(), ldb, ldc);
  auto want = c0;
  g.c = want.data();
  kernels::reference_gemm(g);
  for (SimdLevel level : levels_this_cpu_runs()) {
    auto got = c0;
    g.c = got.data();
    kernels::gemm(g, level);
    INFO(kernels::simd_level_name(level), " ta=", ta, " tb=", tb, " m=", s.m, " n=", s.n,
         " k=", s.k, " alpha=", alpha, " beta=", beta);
    CHECK(same_bits(got, want));
  }
}

}  // namespace

TEST_CASE("every SIMD variant gives the reference's bits on awkward shapes") {
  // Rows and columns around the register tiles (6 or 8 rows, 16 or 32 columns), depths around
  // the k block (256), and a single row (its own kernels). A last tile of 1 to 3 rows spans
  // several column panels (2 to 4, whole or partial: 3 x 80, 14 x 75, 2 x 64, 25 x 100).
  const Shape3 shapes[] = {{1, 1, 1},    {1, 37, 300},  {1, 70, 17},   {2, 3, 5},    {7, 33, 16},
                           {9, 31, 257}, {13, 65, 600}, {17, 530, 40}, {130, 17, 9}, {6, 16, 256},
                           {8, 32, 512}, {25, 100, 1},  {3, 80, 40},   {14, 75, 70}, {2, 64, 300}};
  for (const Shape3& s : shapes)
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        check_levels<float>(ta, tb, s, 1.0f, 0.0f, 0);
        check_levels<float>(ta, tb, s, 0.5f, 2.0f, 3);
        check_levels<double>(ta, tb, s, -1.5, 1.0, 1);
      }
}

TEST_CASE("beta = 0 does not read C; k = 0 gives alpha * 0 + beta * C") {
  std::vector<float> a = {1, 2}, b = {3, 4}, c = {std::nanf(""), 7};
  GemmArgs<float> g;
  g.m = 1;
  g.n = 2;
  g.k = 1;
  g.a = a.data();
  g.lda = 1;
  g.b = b.data();
  g.ldb = 2;
  g.c = c.data();
  g.ldc = 2;
  for (SimdLevel level : levels_this_cpu_runs()) {
    c = {std::nanf(""), 7};
    kernels::gemm(g, level);
    CHECK(c == std::vector<float>{3, 4});
  }
  g.k = 0;
  g.beta = 0.5f;
  c = {2, 8};
  kernels::gemm(g);
  CHECK(c == std::vector<float>{1, 4});
}

TEST_CASE("identical rows of A give identical rows of C, wherever they sit in C") {
  // SqueezeNet's last convolution as a product: 1000 output channels with the same weights.
  // Large sums make any difference in order visible.
  const int64_t m = 1000, n = 169, k = 512;
  const auto row = random_values<float>(static_cast<std::size_t>(k), 7);
  std::vector<float> a;
  for (int64_t i = 0; i < m; ++i) a.insert(a.end(), row.begin(), row.end());
  auto b = random_values<float>(static_cast<std::size_t>(k * n), 8);
  for (auto& x : b) x = x * 100 + 50;
  GemmArgs<float> g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a.data();
  g.lda = k;
  g.b = b.data();
  g.ldb = n;
  for (SimdLevel level : levels_this_cpu_runs()) {
    std::vector<float> c(static_cast<std::size_t>(m * n));
    g.c = c.data();
    g.ldc = n;
    kernels::gemm(g, level);
    int64_t differing = 0;
    for (int64_t i = 1; i < m; ++i)
      if (std::memcmp(c.data(), c.data() + i * n, static_cast<std::size_t>(n) * sizeof(float)))
        ++differing;
    INFO(kernels::simd_level_name(level));
    CHECK(differing == 0);
  }
}

TEST_CASE("ONNXTOOL_SIMD names the variant; the CPU's best is the default") {
  const char* env = std::getenv("ONNXTOOL_SIMD");
  if (!env) CHECK(kernels::simd_level() == kernels::cpu_simd_level());
  CHECK(std::string(kernels::simd_level_name(SimdLevel::avx512)) == "avx512");
  CHECK(std::string(kernels::simd_level_name(SimdLevel::scalar)) == "scalar");
}

namespace {

// Products with A packed beforehand, whole and in row blocks, against the reference's bits.
template <class F>
void check_packed(bool ta, bool tb, Shape3 s, F alpha, F beta, SimdLevel level) {
  const int64_t lda = ta ? s.m : s.k, ldb = tb ? s.k : s.n, ldc = s.n + 2;
  const auto a = random_values<F>(static_cast<std::size_t>(s.m * s.k), 4);
  const auto b = random_values<F>(static_cast<std::size_t>(s.n * s.k), 5);
  const auto c0 = random_values<F>(static_cast<std::size_t>(s.m * ldc), 6);
  GemmArgs<F> g = product_args(ta, tb, s, alpha, beta, a.data(), lda, b.data(), ldb, ldc);
  auto want = c0;
  g.c = want.data();
  kernels::reference_gemm(g);

  const kernels::PackedA<F> packed(ta, s.m, s.k, a.data(), lda, level);
  REQUIRE(packed.usable());
  // Whole, then in blocks of one, two and three register tiles of rows.
  for (int64_t tiles : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}}) {
    const int64_t block = tiles == 0 ? s.m : tiles * packed.row_align();
    auto got = c0;
    for (int64_t r = 0; r < s.m; r += block) {
      kernels::PackedGemmArgs<F> p;
      p.a = &packed;
      p.row0 = r;
      p.m = std::min(block, s.m - r);
      p.n = s.n;
      p.trans_b = tb;
      p.alpha = alpha;
      p.b = b.data();
      p.ldb = ldb;
      p.beta = beta;
      p.c = got.data() + r * ldc;
      p.ldc = ldc;
      kernels::gemm_packed(p);
    }
    INFO(kernels::simd_level_name(level), " ta=", ta, " tb=", tb, " m=", s.m, " n=", s.n,
         " k=", s.k, " block=", block, " beta=", beta);
    CHECK(same_bits(got, want));
  }
}

}  // namespace

TEST_CASE("a packed A gives the reference's bits, whole and in row blocks") {
  const Shape3 shapes[] = {{2, 1, 1},     {7, 33, 16},   {9, 31, 257},
                           {13, 65, 600}, {64, 49, 576}, {130, 17, 9}};
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) {
      CHECK_FALSE(
          kernels::PackedA<float>(false, 4, 4, std::vector<float>(16).data(), 4, level).usable());
      continue;
    }
    for (const Shape3& s : shapes)
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          check_packed<float>(ta, tb, s, 1.0f, 0.0f, level);
          check_packed<float>(ta, tb, s, 0.5f, 1.0f, level);
          check_packed<double>(ta, tb, s, -1.5, 2.0, level);
        }
  }
}

TEST_CASE("a packed product refuses rows outside the packed matrix") {
  if (kernels::simd_level() == SimdLevel::scalar) return;
  std::vector<float> a(64, 1.0f), b(8, 1.0f), c(64, 0.0f);
  const kernels::PackedA<float> packed(false, 8, 8, a.data(), 8);
  kernels::PackedGemmArgs<float> p;
  p.a = &packed;
  p.row0 = 1;  // not on a tile boundary
  p.m = 2;
  p.n = 1;
  p.b = b.data();
  p.ldb = 1;
  p.c = c.data();
  p.ldc = 1;
  CHECK_THROWS(kernels::gemm_packed(p));
  p.row0 = 0;
  p.m = 9;  // past the last row
  CHECK_THROWS(kernels::gemm_packed(p));
}

namespace {

// A packed product with a fused epilogue (bias per row, a residual, an activation) in row
// blocks, against the product followed by the same steps one element at a time (the bits of
// the unfused nodes).
void check_fused_epilogue(Shape3 s, const kernels::Epilogue& act, bool bias, bool residual,
                          SimdLevel level) {
  const int64_t ldc = s.n + 3, ldr = s.n + 1;
  const auto a = random_values<float>(static_cast<std::size_t>(s.m * s.k), 7);
  const auto b = random_values<float>(static_cast<std::size_t>(s.n * s.k), 8);
  const auto row_bias = random_values<float>(static_cast<std::size_t>(s.m), 9);
  auto res = random_values<float>(static_cast<std::size_t>(s.m * ldr), 10);
  // The activation's edge cases: a NaN stays NaN, a large negative meets the lower bound.
  res[0] = std::numeric_limits<float>::quiet_NaN();
  if (res.size() > 2) res[2] = -1e30f;
  const kernels::PackedA<float> packed(false, s.m, s.k, a.data(), s.k, level);
  REQUIRE(packed.usable());
  auto product = [&](int64_t row0, int64_t m, float* c, bool fused) {
    kernels::PackedGemmArgs<float> p;
    p.a = &packed;
    p.row0 = row0;
    p.m = m;
    p.n = s.n;
    p.b = b.data();
    p.ldb = s.n;
    p.c = c;
    p.ldc = ldc;
    if (fused) {
      p.row_bias = bias ? row_bias.data() + row0 : nullptr;
      p.residual = residual ? res.data() + row0 * ldr : nullptr;
      p.ldr = ldr;
      p.activation = act;
    }
    kernels::gemm_packed(p);
  };
  std::vector<float> want(static_cast<std::size_t>(s.m * ldc), -7.0f);
  product(0, s.m, want.data(), false);
  for (int64_t i = 0; i < s.m; ++i) {
    float* row = want.data() + i * ldc;
    for (int64_t j = 0; j < s.n; ++j) {
      if (bias) row[j] += row_bias[static_cast<std::size_t>(i)];
      if (residual) row[j] += res[static_cast<std::size_t>(i * ldr + j)];
    }
    act.apply(row, s.n);
  }
  for (int64_t block : {s.m, packed.row_align(), 2 * packed.row_align()}) {
    std::vector<float> got(static_cast<std::size_t>(s.m * ldc), -7.0f);
    for (int64_t r = 0; r < s.m; r += block)
      product(r, std::min(block, s.m - r), got.data() + r * ldc, true);
    INFO(kernels::simd_level_name(level), " m=", s.m, " n=", s.n, " k=", s.k, " block=", block,
         " act=", static_cast<int>(act.kind), " bias=", bias, " residual=", residual);
    CHECK(same_bits(got, want));
  }
}

}  // namespace

TEST_CASE("a packed product's fused epilogue gives the bits of the steps done after it") {
  kernels::Epilogue relu, clip, leaky, none;
  relu.kind = clip.kind = kernels::Epilogue::Kind::clamp;
  relu.hi = std::numeric_limits<float>::infinity();
  clip.lo = -0.25f;
  clip.hi = 0.5f;
  leaky.kind = kernels::Epilogue::Kind::leaky;
  leaky.alpha = 0.125f;
  // Edge tiles in both directions, k in one block and in several.
  const Shape3 shapes[] = {{8, 32, 16}, {13, 33, 9}, {21, 70, 300}, {3, 5, 2}};
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) continue;
    for (const Shape3& s : shapes)
      for (const kernels::Epilogue& act : {none, relu, clip, leaky})
        for (bool bias : {false, true})
          for (bool residual : {false, true}) check_fused_epilogue(s, act, bias, residual, level);
  }
}

TEST_CASE("a fused epilogue with beta != 0 is refused") {
  if (kernels::simd_level() == SimdLevel::scalar) return;
  std::vector<float> a(64, 1.0f), b(8, 1.0f), c(8, 0.0f), bias(8, 1.0f);
  const kernels::PackedA<float> packed(false, 8, 8, a.data(), 8);
  kernels::PackedGemmArgs<float> p;
  p.a = &packed;
  p.m = 8;
  p.n = 1;
  p.b = b.data();
  p.ldb = 1;
  p.c = c.data();
  p.ldc = 1;
  p.beta = 1.0f;
  p.row_bias = bias.data();
  CHECK_THROWS(kernels::gemm_packed(p));
}

namespace {

// Products with B packed beforehand, whole and in column blocks, against the reference's bits.
void check_packed_b(bool ta, bool tb, Shape3 s, float alpha, float beta, SimdLevel level) {
  const int64_t lda = ta ? s.m : s.k, ldb = tb ? s.k : s.n, ldc = s.n + 2;
  const auto a = random_values<float>(static_cast<std::size_t>(s.m * s.k), 11);
  const auto b = random_values<float>(static_cast<std::size_t>(s.n * s.k), 12);
  const auto c0 = random_values<float>(static_cast<std::size_t>(s.m * ldc), 13);
  GemmArgs<float> g = product_args(ta, tb, s, alpha, beta, a.data(), lda, b.data(), ldb, ldc);
  auto want = c0;
  g.c = want.data();
  kernels::reference_gemm(g);
  const kernels::PackedB packed(tb, s.k, s.n, b.data(), ldb, level);
  REQUIRE(packed.usable());
  for (int64_t tiles : {int64_t{0}, int64_t{1}, int64_t{3}}) {
    const int64_t block = tiles == 0 ? s.n : tiles * packed.col_align();
    auto got = c0;
    for (int64_t j = 0; j < s.n; j += block) {
      kernels::PackedBGemmArgs p;
      p.trans_a = ta;
      p.m = s.m;
      p.col0 = j;
      p.n = std::min(block, s.n - j);
      p.alpha = alpha;
      p.a = a.data();
      p.lda = lda;
      p.b = &packed;
      p.beta = beta;
      p.c = got.data() + j;
      p.ldc = ldc;
      kernels::gemm_packed_b(p);
    }
    INFO(kernels::simd_level_name(level), " ta=", ta, " tb=", tb, " m=", s.m, " n=", s.n,
         " k=", s.k, " block=", block, " beta=", beta);
    CHECK(same_bits(got, want));
  }
}

}  // namespace

TEST_CASE("a packed B gives the reference's bits, whole and in column blocks") {
  const Shape3 shapes[] = {{1, 1, 1}, {7, 33, 16}, {9, 100, 257}, {13, 65, 600}, {130, 17, 9}};
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) {
      CHECK_FALSE(kernels::PackedB(false, 4, 4, std::vector<float>(16).data(), 4, level).usable());
      continue;
    }
    for (const Shape3& s : shapes)
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          check_packed_b(ta, tb, s, 1.0f, 0.0f, level);
          check_packed_b(ta, tb, s, 0.5f, 1.0f, level);
        }
  }
}

// A bias per column (a channels-last 1x1 convolution's) and a clamp in the product's epilogue:
// the bits of the product, then the bias added and the clamp applied element by element, in
// column blocks whose bias pointer starts at the block; with a row bias too, refused.
TEST_CASE("a packed-B product's column bias gives the bits of the bias added after it") {
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) continue;
    for (const Shape3& s : {Shape3{49, 70, 40}, Shape3{13, 33, 300}, Shape3{7, 16, 5}}) {
      const auto a = random_values<float>(static_cast<std::size_t>(s.m * s.k), 21);
      const auto b = random_values<float>(static_cast<std::size_t>(s.k * s.n), 22);
      const auto bias = random_values<float>(static_cast<std::size_t>(s.n), 23);
      const kernels::PackedB packed(false, s.k, s.n, b.data(), s.n, level);
      REQUIRE(packed.usable());
      std::vector<float> want(static_cast<std::size_t>(s.m * s.n), 0.0f);
      GemmArgs<float> g =
          product_args(false, false, s, 1.0f, 0.0f, a.data(), s.k, b.data(), s.n, s.n);
      g.c = want.data();
      kernels::reference_gemm(g);
      for (int64_t i = 0; i < s.m; ++i)
        for (int64_t j = 0; j < s.n; ++j) {
          float& v = want[static_cast<std::size_t>(i * s.n + j)];
          v += bias[static_cast<std::size_t>(j)];
          v = std::min(std::max(v, -0.5f), 0.75f);
        }
      const int64_t block = packed.col_align();
      std::vector<float> got(want.size(), -1.0f);
      for (int64_t j = 0; j < s.n; j += block) {
        kernels::PackedBGemmArgs p;
        p.m = s.m;
        p.col0 = j;
        p.n = std::min(block, s.n - j);
        p.a = a.data();
        p.lda = s.k;
        p.b = &packed;
        p.c = got.data() + j;
        p.ldc = s.n;
        p.col_bias = bias.data() + j;
        p.activation = {kernels::Epilogue::Kind::clamp, -0.5f, 0.75f, 0.0f};
        kernels::gemm_packed_b(p);
      }
      INFO(kernels::simd_level_name(level), " m=", s.m, " n=", s.n, " k=", s.k);
      CHECK(same_bits(got, want));
      kernels::PackedBGemmArgs both;
      both.m = s.m;
      both.n = s.n;
      both.a = a.data();
      both.lda = s.k;
      both.b = &packed;
      both.c = got.data();
      both.ldc = s.n;
      both.col_bias = bias.data();
      both.row_bias = bias.data();
      CHECK_THROWS(kernels::gemm_packed_b(both));
    }
  }
}

TEST_CASE("a packed-B product refuses columns outside the packed matrix") {
  if (kernels::simd_level() == SimdLevel::scalar) return;
  std::vector<float> a(64, 1.0f), b(64 * 40, 1.0f), c(64 * 40, 0.0f);
  const kernels::PackedB packed(false, 64, 40, b.data(), 40);
  kernels::PackedBGemmArgs p;
  p.m = 1;
  p.col0 = 1;  // not on a panel boundary
  p.n = 2;
  p.a = a.data();
  p.lda = 64;
  p.b = &packed;
  p.c = c.data();
  p.ldc = 40;
  CHECK_THROWS(kernels::gemm_packed_b(p));
  p.col0 = 0;
  p.n = 41;  // past the last column
  CHECK_THROWS(kernels::gemm_packed_b(p));
}

// A convolution's im2col writes B straight into PackedBLayout: the products then give the
// bits they give with B as a plain matrix, whole and in column blocks of whole panels.
TEST_CASE("a caller-packed B (PackedBLayout) gives the bits of the plain B") {
  const Shape3 shapes[] = {{8, 40, 300}, {13, 70, 9}, {24, 196, 576}, {3, 5, 1}};
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) continue;
    for (const Shape3& s : shapes) {
      const auto a = random_values<float>(static_cast<std::size_t>(s.m * s.k), 7);
      const auto b = random_values<float>(static_cast<std::size_t>(s.k * s.n), 8);
      const kernels::PackedA<float> packed_a(false, s.m, s.k, a.data(), s.k, level);
      const kernels::PackedBLayout layout = kernels::packed_b_layout(s.k, s.n, level);
      std::vector<float> packed_b(static_cast<std::size_t>(layout.size()), 0.0f);
      for (int64_t p = 0; p < s.k; ++p)
        for (int64_t j = 0; j < s.n; ++j)
          packed_b[static_cast<std::size_t>(layout.offset(p, j))] =
              b[static_cast<std::size_t>(p * s.n + j)];
      std::vector<float> want(static_cast<std::size_t>(s.m * s.n));
      kernels::PackedGemmArgs<float> plain;
      plain.a = &packed_a;
      plain.m = s.m;
      plain.n = s.n;
      plain.b = b.data();
      plain.ldb = s.n;
      plain.c = want.data();
      plain.ldc = s.n;
      kernels::gemm_packed(plain);
      for (int64_t panels : {int64_t{0}, int64_t{1}, int64_t{2}}) {
        const int64_t block = panels == 0 ? s.n : panels * layout.panel;
        std::vector<float> got(want.size(), -1.0f);
        for (int64_t j = 0; j < s.n; j += block) {
          kernels::PackedGemmArgs<float> g = plain;
          g.b = nullptr;
          g.b_packed = packed_b.data();
          g.b_packed_cols = s.n;
          g.b_col0 = j;
          g.n = std::min(block, s.n - j);
          g.c = got.data() + j;
          kernels::gemm_packed(g);
        }
        INFO(kernels::simd_level_name(level), " m=", s.m, " n=", s.n, " k=", s.k, " block=", block);
        CHECK(same_bits(got, want));
      }
      kernels::PackedGemmArgs<float> bad = plain;
      bad.b_packed = packed_b.data();
      bad.b_packed_cols = s.n;
      bad.b_col0 = 1;  // not a panel's first column
      if (s.n > 1) CHECK_THROWS(kernels::gemm_packed(bad));
    }
  }
}

// A convolution on few input channels reads B's rows where they lie in its padded input
// (PackedGemmArgs::b_row_offsets): rows in any order and overlapping, k across blocks, n not a
// whole number of register tiles, with the fused epilogue: the bits of the same B as a plain
// matrix.
TEST_CASE("B's rows as windows of one buffer give the bits of the plain B") {
  const Shape3 shapes[] = {{64, 112, 147}, {13, 37, 300}, {32, 56, 27}, {7, 5, 1}};
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) continue;
    for (const Shape3& s : shapes) {
      const auto a = random_values<float>(static_cast<std::size_t>(s.m * s.k), 11);
      const auto bias = random_values<float>(static_cast<std::size_t>(s.m), 12);
      // Row p starts at a scattered place, later rows earlier, windows overlapping; every
      // window has the 32 columns past n that whole register tiles read.
      const int64_t reach = s.n + 32;
      std::vector<int64_t> offsets(static_cast<std::size_t>(s.k));
      for (int64_t p = 0; p < s.k; ++p)
        offsets[static_cast<std::size_t>(p)] = (s.k - 1 - p) * 5 % 97 * 3;
      const int64_t size = *std::max_element(offsets.begin(), offsets.end()) + reach;
      const auto buffer = random_values<float>(static_cast<std::size_t>(size), 13);
      std::vector<float> b(static_cast<std::size_t>(s.k * s.n));
      for (int64_t p = 0; p < s.k; ++p)
        for (int64_t j = 0; j < s.n; ++j)
          b[static_cast<std::size_t>(p * s.n + j)] =
              buffer[static_cast<std::size_t>(offsets[static_cast<std::size_t>(p)] + j)];
      const kernels::PackedA<float> packed_a(false, s.m, s.k, a.data(), s.k, level);
      kernels::PackedGemmArgs<float> plain = packed_product_args(packed_a, s, b.data());
      plain.ldc = s.n + 3;
      plain.row_bias = bias.data();
      plain.activation.kind = kernels::Epilogue::Kind::clamp;
      plain.activation.lo = 0;
      plain.activation.hi = std::numeric_limits<float>::infinity();
      std::vector<float> want(static_cast<std::size_t>(s.m * plain.ldc), -1.0f);
      plain.c = want.data();
      kernels::gemm_packed(plain);
      kernels::PackedGemmArgs<float> g = plain;
      g.b = buffer.data();
      g.ldb = 0;
      g.b_row_offsets = offsets.data();
      std::vector<float> got(want.size(), -1.0f);
      g.c = got.data();
      kernels::gemm_packed(g);
      INFO(kernels::simd_level_name(level), " m=", s.m, " n=", s.n, " k=", s.k);
      CHECK(same_bits(got, want));
      kernels::PackedGemmArgs<float> bad = g;
      bad.trans_b = true;
      CHECK_THROWS(kernels::gemm_packed(bad));
    }
  }
}

// A convolution on a small plane packs its columns (A^T's rows) with pack_b_rows into
// packed_a_layout, in row ranges split across threads: a packed-B product on that A gives the
// bits it gives on the plain op(A), whole and in column blocks. At AVX-512, m of 49, 25, 9 or 7
// takes 7-row panels and tile (the plain A the 8-row one).
TEST_CASE("a caller-packed A (pack_b_rows, packed_a_layout) gives the bits of the plain A") {
  const Shape3 shapes[] = {{49, 96, 576}, {7, 33, 300},  {56, 64, 257},
                           {1, 5, 3},     {25, 70, 520}, {9, 40, 33}};
  if (kernels::cpu_simd_level() == SimdLevel::avx512) {
    CHECK(kernels::packed_a_layout(576, 49, SimdLevel::avx512).panel == 7);
    CHECK(kernels::packed_a_layout(576, 56, SimdLevel::avx512).panel == 8);
  }
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) continue;
    for (const Shape3& s : shapes) {
      // A^T (k x m, row stride m + 3) as a convolution's columns are stored.
      const int64_t ld = s.m + 3;
      const auto at = random_values<float>(static_cast<std::size_t>(s.k * ld), 21);
      const auto b = random_values<float>(static_cast<std::size_t>(s.k * s.n), 22);
      const kernels::PackedB packed_b(false, s.k, s.n, b.data(), s.n, level);
      const kernels::PackedBLayout layout = kernels::packed_a_layout(s.k, s.m, level);
      std::vector<float> packed_a(static_cast<std::size_t>(layout.size()), -7.0f);
      // In three row ranges, as threads would.
      const int64_t cut1 = s.k / 3, cut2 = 2 * s.k / 3;
      for (auto [p0, p1] : {std::pair{int64_t{0}, cut1}, {cut1, cut2}, {cut2, s.k}})
        kernels::pack_b_rows(layout, at.data() + p0 * ld, ld, p0, p1, packed_a.data());
      for (int64_t panels : {int64_t{0}, int64_t{1}}) {
        const int64_t block = panels == 0 ? s.n : panels * packed_b.col_align();
        std::vector<float> want(static_cast<std::size_t>(s.m * s.n), -1.0f), got = want;
        for (int64_t j = 0; j < s.n; j += block) {
          kernels::PackedBGemmArgs p;
          p.trans_a = true;
          p.m = s.m;
          p.col0 = j;
          p.n = std::min(block, s.n - j);
          p.a = at.data();
          p.lda = ld;
          p.b = &packed_b;
          p.c = want.data() + j;
          p.ldc = s.n;
          kernels::gemm_packed_b(p);
          p.a = nullptr;
          p.a_packed = packed_a.data();
          p.c = got.data() + j;
          kernels::gemm_packed_b(p);
        }
        INFO(kernels::simd_level_name(level), " m=", s.m, " n=", s.n, " k=", s.k, " block=", block);
        CHECK(same_bits(got, want));
        // The packed rows in pieces of whole panels (threads splitting the positions).
        std::vector<float> pieces(want.size(), -1.0f);
        for (int64_t r = 0; r < s.m; r += layout.panel) {
          kernels::PackedBGemmArgs p;
          p.m = std::min(layout.panel, s.m - r);
          p.n = s.n;
          p.a_packed = packed_a.data();
          p.a_row0 = r;
          p.a_rows = s.m;
          p.b = &packed_b;
          p.c = pieces.data() + r * s.n;
          p.ldc = s.n;
          kernels::gemm_packed_b(p);
        }
        CHECK(same_bits(pieces, want));
      }
      // Rows off the panels, or past the packed A, are refused.
      kernels::PackedBGemmArgs bad;
      bad.m = 1;
      bad.n = s.n;
      bad.a_packed = packed_a.data();
      bad.a_rows = s.m;
      bad.b = &packed_b;
      std::vector<float> row(static_cast<std::size_t>(s.n));
      bad.c = row.data();
      bad.ldc = s.n;
      bad.a_row0 = s.m > 1 ? 1 : layout.panel;
      CHECK_THROWS_AS(kernels::gemm_packed_b(bad), std::invalid_argument);
    }
  }
}

// A MatMul packs its activations (A, row-major) once with pack_a_rows, in panel ranges split
// across threads: a packed-B product on that A gives the bits it gives packing A itself, for a
// last panel part full, k over several blocks, and rows read with a stride past k.
TEST_CASE("A packed from its own rows (pack_a_rows) gives the bits of the plain A") {
  const Shape3 shapes[] = {{128, 96, 600}, {7, 33, 300}, {50, 20, 257}, {2, 17, 5}, {13, 40, 33}};
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) continue;
    for (const Shape3& s : shapes) {
      const int64_t lda = s.k + 5;
      const auto a = random_values<float>(static_cast<std::size_t>(s.m * lda), 31);
      const auto b = random_values<float>(static_cast<std::size_t>(s.k * s.n), 32);
      const kernels::PackedB packed_b(false, s.k, s.n, b.data(), s.n, level);
      const kernels::PackedBLayout layout = kernels::packed_a_layout(s.k, s.m, level);
      std::vector<float> packed_a(static_cast<std::size_t>(layout.size()), -7.0f);
      // Every element of the layout written: its padding rows are zeros, not what was there.
      const int64_t panels = (s.m + layout.panel - 1) / layout.panel;
      const int64_t cut = panels / 2 * layout.panel;
      kernels::pack_a_rows(layout, a.data(), lda, 0, cut, packed_a.data());
      kernels::pack_a_rows(layout, a.data() + cut * lda, lda, cut, s.m, packed_a.data());
      for (int64_t i = s.m; i < layout.padded_cols(); ++i)
        for (int64_t p = 0; p < s.k; ++p)
          CHECK(packed_a[static_cast<std::size_t>(layout.offset(p, i))] == 0.0f);
      std::vector<float> want(static_cast<std::size_t>(s.m * s.n), -1.0f), got = want;
      kernels::PackedBGemmArgs p;
      p.m = s.m;
      p.n = s.n;
      p.a = a.data();
      p.lda = lda;
      p.b = &packed_b;
      p.c = want.data();
      p.ldc = s.n;
      kernels::gemm_packed_b(p);
      p.a = nullptr;
      p.a_packed = packed_a.data();
      p.c = got.data();
      kernels::gemm_packed_b(p);
      INFO(kernels::simd_level_name(level), " m=", s.m, " n=", s.n, " k=", s.k);
      CHECK(same_bits(got, want));
    }
  }
}

// A transform of B's rows applied as the product packs B (a convolution's input normalised on
// the way in): the bits of the product on B transformed beforehand, the activation's kinds
// included, for B's panels whole and partial and k over several blocks.
TEST_CASE("a packed product's B row transform gives the bits of B transformed first") {
  const Shape3 shapes[] = {{16, 70, 300}, {9, 32, 40}, {24, 5, 513}};
  kernels::Epilogue relu, clip, leaky;
  relu.kind = clip.kind = kernels::Epilogue::Kind::clamp;
  relu.hi = std::numeric_limits<float>::infinity();
  clip.lo = -0.3f, clip.hi = 0.4f;
  leaky.kind = kernels::Epilogue::Kind::leaky;
  leaky.alpha = 0.1f;
  for (SimdLevel level : levels_this_cpu_runs()) {
    if (level == SimdLevel::scalar) continue;
    for (const Shape3& s : shapes)
      for (const kernels::Epilogue& act : {kernels::Epilogue{}, relu, clip, leaky}) {
        const auto a = random_values<float>(static_cast<std::size_t>(s.m * s.k), 31);
        const auto b = random_values<float>(static_cast<std::size_t>(s.k * s.n), 32);
        const auto scale = random_values<float>(static_cast<std::size_t>(s.k), 33);
        const auto shift = random_values<float>(static_cast<std::size_t>(s.k), 34);
        std::vector<float> transformed = b;
        for (int64_t p = 0; p < s.k; ++p) {
          float* row = transformed.data() + p * s.n;
          for (int64_t j = 0; j < s.n; ++j)
            row[j] =
                scale[static_cast<std::size_t>(p)] * row[j] + shift[static_cast<std::size_t>(p)];
          act.apply(row, s.n);
        }
        const kernels::PackedA<float> packed(false, s.m, s.k, a.data(), s.k, level);
        kernels::PackedGemmArgs<float> g = packed_product_args(packed, s, transformed.data());
        std::vector<float> want(static_cast<std::size_t>(s.m * s.n)), got = want;
        g.c = want.data();
        kernels::gemm_packed(g);
        g.b = b.data();
        g.b_row_scale = scale.data();
        g.b_row_shift = shift.data();
        g.b_activation = act;
        g.c = got.data();
        kernels::gemm_packed(g);
        INFO(kernels::simd_level_name(level), " m=", s.m, " n=", s.n, " k=", s.k,
             " act=", static_cast<int>(act.kind));
        CHECK(same_bits(got, want));
        // pack_b_rows with the transform: the packing of the transformed rows.
        const kernels::PackedBLayout layout = kernels::packed_a_layout(s.k, s.n, level);
        std::vector<float> plain(static_cast<std::size_t>(layout.size()), -3.0f), moved = plain;
        kernels::pack_b_rows(layout, transformed.data(), s.n, 0, s.k, plain.data());
        kernels::RowTransform t{scale.data(), shift.data(), act};
        kernels::pack_b_rows(layout, b.data(), s.n, 0, s.k, moved.data(), t);
        CHECK(same_bits(moved, plain));
      }
  }
}
