// SPDX-License-Identifier: Apache-2.0
// The integer products (core/kernels/igemm.h): every register kernel this CPU runs gives the
// plain definition's exact sums, for each signedness of A and B, zero points per tensor, per
// row and per column, awkward shapes, blocks of B made by a producer, column and row ranges, and
// B packed once for row blocks.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/kernels/igemm.h"

using namespace onnxtool;
using kernels::ByteKind;
using kernels::IntLevel;

namespace {

std::vector<IntLevel> int_levels_this_cpu_runs() {
  std::vector<IntLevel> out = {IntLevel::scalar};
  const int best = static_cast<int>(kernels::cpu_int_level());
  if (best >= static_cast<int>(IntLevel::avx2)) out.push_back(IntLevel::avx2);
  if (best >= static_cast<int>(IntLevel::vnni512)) out.push_back(IntLevel::vnni512);
  return out;
}

std::vector<uint8_t> random_bytes(std::size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(0, 255);
  std::vector<uint8_t> v(n);
  for (auto& x : v) x = static_cast<uint8_t>(d(rng));
  return v;
}

// Zero points valid for the kind: `count` of them (1 = per tensor).
std::vector<int32_t> random_zeros(std::size_t count, ByteKind kind, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(kind == ByteKind::s8 ? -128 : 0,
                                       kind == ByteKind::s8 ? 127 : 255);
  std::vector<int32_t> v(count);
  for (auto& x : v) x = d(rng);
  return v;
}

struct Case {
  int64_t m, n, k;
  ByteKind ka, kb;
  bool za_per_row, zb_per_column, produced;
};

std::string describe(const Case& c, IntLevel level) {
  auto kind = [](ByteKind k) { return k == ByteKind::s8 ? "s8" : "u8"; };
  return std::string(kernels::int_level_name(level)) + " m=" + std::to_string(c.m) +
         " n=" + std::to_string(c.n) + " k=" + std::to_string(c.k) + " A " + kind(c.ka) + " B " +
         kind(c.kb) + (c.za_per_row ? " za/row" : "") + (c.zb_per_column ? " zb/col" : "") +
         (c.produced ? " produced" : "");
}

void check_case(const Case& c, IntLevel level, unsigned seed) {
  CAPTURE(describe(c, level));
  std::mt19937 rng(seed);
  const auto a = random_bytes(static_cast<std::size_t>(c.m * c.k), rng);
  const auto b = random_bytes(static_cast<std::size_t>(c.k * c.n), rng);
  const auto za = random_zeros(c.za_per_row ? static_cast<std::size_t>(c.m) : 1, c.ka, rng);
  const auto zb = random_zeros(c.zb_per_column ? static_cast<std::size_t>(c.n) : 1, c.kb, rng);
  std::vector<int32_t> want(static_cast<std::size_t>(c.m * c.n));
  kernels::reference_igemm(c.m, c.n, c.k, a.data(), c.k, c.ka, za, b.data(), c.n, c.kb, zb,
                           want.data(), c.n);

  const kernels::PackedInt8A packed(c.m, c.k, a.data(), c.k, c.ka, za, level);
  kernels::Int8B src;
  src.kind = c.kb;
  src.k = c.k;
  src.n = c.n;
  src.zero = zb;
  if (c.produced) {
    src.produce = [&](int64_t k0, int64_t k1, int64_t n0, int64_t n1, uint8_t* out, int64_t ld) {
      for (int64_t p = k0; p < k1; ++p)
        for (int64_t j = n0; j < n1; ++j)
          out[(p - k0) * ld + (j - n0)] = b[static_cast<std::size_t>(p * c.n + j)];
    };
  } else {
    src.data = b.data();
    src.ldb = c.n;
  }
  // Two column ranges, as two threads would split them; a sentinel shows nothing else is written.
  std::vector<int32_t> got(static_cast<std::size_t>(c.m * c.n), 0x5a5a5a5a);
  const int64_t half = c.n / 2;
  kernels::igemm(packed, src, 0, half, got.data(), c.n);
  kernels::igemm(packed, src, half, c.n, got.data(), c.n);
  CHECK(got == want);

  // Row blocks, as threads split a product with few columns: the first from a register tile's
  // start, the second the rest, each over two column ranges.
  const int64_t align = kernels::int_row_align();
  const int64_t row_cut = std::min(c.m, (c.m / 2 + align - 1) / align * align);
  std::vector<int32_t> by_rows(static_cast<std::size_t>(c.m * c.n), 0x5a5a5a5a);
  for (const auto& [m0, m1] : {std::pair{int64_t{0}, row_cut}, std::pair{row_cut, c.m}}) {
    kernels::igemm_rows(packed, src, m0, m1, 0, half, by_rows.data(), c.n);
    kernels::igemm_rows(packed, src, m0, m1, half, c.n, by_rows.data(), c.n);
  }
  CHECK(by_rows == want);

  // B packed once (depth blocks packed in any order, as threads take them), then row blocks.
  if (c.n <= kernels::int_packed_b_max_cols()) {
    std::vector<int32_t> once(static_cast<std::size_t>(c.m * c.n), 0x5a5a5a5a);
    std::vector<uint8_t> storage(7, 0xee);  // too small, and dirty: resized and overwritten
    kernels::PackedInt8B packed_b(packed, src, 0, c.n, storage);
    for (int64_t block = packed_b.depth_blocks() - 1; block >= 0; --block)
      packed_b.pack_block(block);
    packed_b.multiply(row_cut, c.m, once.data(), c.n);
    packed_b.multiply(0, row_cut, once.data(), c.n);
    CHECK(once == want);
  }
}

}  // namespace

TEST_CASE("integer products: every kernel gives the exact sums") {
  const std::vector<Case> shapes = {
      {1, 1, 1, ByteKind::u8, ByteKind::s8, false, false, false},
      {8, 32, 4, ByteKind::s8, ByteKind::u8, false, false, false},
      {9, 33, 5, ByteKind::u8, ByteKind::u8, true, false, false},
      {7, 100, 64, ByteKind::s8, ByteKind::s8, false, true, false},
      {17, 31, 3, ByteKind::u8, ByteKind::s8, true, true, true},
      {64, 1100, 27, ByteKind::s8, ByteKind::u8, true, false, true},
      {12, 70, 517, ByteKind::u8, ByteKind::s8, false, false, false},
      {33, 45, 1031, ByteKind::s8, ByteKind::u8, true, true, true},
      // Depths that leave a short last block at 512 values a block (576 = 512 + 64).
      {40, 49, 576, ByteKind::s8, ByteKind::u8, false, false, true},
      {24, 196, 1152, ByteKind::s8, ByteKind::u8, true, true, false},
  };
  unsigned seed = 1;
  for (IntLevel level : int_levels_this_cpu_runs())
    for (const Case& c : shapes) check_case(c, level, seed++);
}

TEST_CASE("integer products: extreme values and zero points") {
  // Every byte at an end of its range, zero points at the other end: the largest differences.
  for (IntLevel level : int_levels_this_cpu_runs()) {
    CAPTURE(kernels::int_level_name(level));
    const int64_t m = 9, n = 40, k = 700;
    const std::vector<uint8_t> a(static_cast<std::size_t>(m * k), 0);     // u8 0
    const std::vector<uint8_t> b(static_cast<std::size_t>(k * n), 0x80);  // s8 -128
    const std::vector<int32_t> za = {255}, zb = {127};
    std::vector<int32_t> want(static_cast<std::size_t>(m * n)), got(want.size());
    kernels::reference_igemm(m, n, k, a.data(), k, ByteKind::u8, za, b.data(), n, ByteKind::s8, zb,
                             want.data(), n);
    CHECK(want[0] == 700 * 255 * 255);
    const kernels::PackedInt8A packed(m, k, a.data(), k, ByteKind::u8, za, level);
    kernels::Int8B src;
    src.kind = ByteKind::s8;
    src.k = k;
    src.n = n;
    src.data = b.data();
    src.ldb = n;
    src.zero = zb;
    kernels::igemm(packed, src, 0, n, got.data(), n);
    CHECK(got == want);
  }
}
