// SPDX-License-Identifier: Apache-2.0
// The integer products' driver: packing, blocking, the zero-point terms, and the scalar kernel
// (the definition the SIMD tiles must match, and what runs on CPUs without them).
#include "core/kernels/igemm.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/kernels/igemm_arch.h"

#if defined(ONNXTOOL_X86_KERNELS)
#include <emmintrin.h>
#endif

namespace onnxtool::kernels {

using detail::IntTile;
using detail::kIntMr;
using detail::kIntNr;

namespace {

// Depth of one packed block of B, in quads (512 values: the tile of B stays in L1 while the
// panels of A stream past it), and columns per block (its 256 KiB fit L2 beside A's panels).
constexpr int64_t kKcQuads = detail::kIntKcQuads;
constexpr int64_t kNc = 512;

// The integer kernel that goes with a float level: VNNI where AVX-512 runs and has it.
IntLevel int_level_for(SimdLevel simd) {
#if defined(ONNXTOOL_X86_KERNELS)
  __builtin_cpu_init();
  if (simd == SimdLevel::avx512 && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vnni"))
    return IntLevel::vnni512;
  if (simd != SimdLevel::scalar) return IntLevel::avx2;
#endif
  (void)simd;
  return IntLevel::scalar;
}

// The value moved into the packed signedness: signed A and unsigned B (see igemm.h).
uint8_t flip_for(ByteKind have, ByteKind want) {
  return have == want ? 0 : 0x80;
}
int32_t zero_moved(int32_t zero, ByteKind have, ByteKind want) {
  if (have == want) return zero;
  return want == ByteKind::s8 ? zero - 128 : zero + 128;
}

// One value per index, one for all, or none (0).
int32_t value_at(std::span<const int32_t> v, int64_t i) {
  if (v.empty()) return 0;
  return v.size() == 1 ? v[0] : v[static_cast<std::size_t>(i)];
}

bool any_nonzero(std::span<const int32_t> v) {
  return std::any_of(v.begin(), v.end(), [](int32_t x) { return x != 0; });
}

// Wrapping int32 arithmetic without signed overflow.
int32_t wrap(uint32_t v) {
  return static_cast<int32_t>(v);
}
uint32_t u(int32_t v) {
  return static_cast<uint32_t>(v);
}

void int_tile_scalar(const IntTile& t) {
  uint32_t acc[kIntMr][kIntNr] = {};
  for (int64_t q = 0; q < t.quads; ++q) {
    const int8_t* a = t.a + q * kIntMr * 4;
    const uint8_t* b = t.b + q * kIntNr * 4;
    for (int r = 0; r < t.rows; ++r)
      for (int c = 0; c < t.cols; ++c) {
        int32_t s = 0;
        for (int j = 0; j < 4; ++j) s += int32_t{a[r * 4 + j]} * int32_t{b[c * 4 + j]};
        acc[r][c] += u(s);
      }
  }
  for (int r = 0; r < t.rows; ++r)
    for (int c = 0; c < t.cols; ++c) {
      int32_t& out = t.c[r * t.ldc + c];
      out = t.accumulate ? wrap(u(out) + acc[r][c]) : wrap(acc[r][c]);
    }
}

void run_tile(IntLevel level, const IntTile& t) {
  switch (level) {
#if defined(ONNXTOOL_X86_KERNELS)
    case IntLevel::vnni512:
      return detail::int_tile_vnni512(t);
    case IntLevel::avx2:
      return detail::int_tile_avx2(t);
#endif
    default:
      return int_tile_scalar(t);
  }
}

// ---- packing B -------------------------------------------------------------------------------

#if defined(ONNXTOOL_X86_KERNELS)
// 16 columns of four rows as 16 quads: out[c * 4 + j] = row j's byte c ^ flip. Byte, then
// 16-bit interleaves (SSE2, which every x86-64 CPU has).
void interleave_quads16(const uint8_t* const rows[4], __m128i flip, uint8_t* out) {
  __m128i v[4];
  for (int j = 0; j < 4; ++j)
    v[j] = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[j])), flip);
  const __m128i ab_lo = _mm_unpacklo_epi8(v[0], v[1]), ab_hi = _mm_unpackhi_epi8(v[0], v[1]);
  const __m128i cd_lo = _mm_unpacklo_epi8(v[2], v[3]), cd_hi = _mm_unpackhi_epi8(v[2], v[3]);
  auto* o = reinterpret_cast<__m128i*>(out);
  _mm_storeu_si128(o, _mm_unpacklo_epi16(ab_lo, cd_lo));
  _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(ab_lo, cd_lo));
  _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(ab_hi, cd_hi));
  _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(ab_hi, cd_hi));
}
#endif

// A whole quad (four rows) of a tile's full kIntNr columns from c0 on, or false where the plain
// loop must do it.
bool pack_full_quad(const uint8_t* const rows[4], int64_t c0, uint8_t flip, uint8_t* dst) {
#if defined(ONNXTOOL_X86_KERNELS)
  const __m128i f = _mm_set1_epi8(static_cast<char>(flip));
  for (int64_t h = 0; h < kIntNr; h += 16) {
    const uint8_t* at[4] = {rows[0] + c0 + h, rows[1] + c0 + h, rows[2] + c0 + h, rows[3] + c0 + h};
    interleave_quads16(at, f, dst + h * 4);
  }
  return true;
#else
  (void)rows, (void)c0, (void)flip, (void)dst;
  return false;
#endif
}

// Rows [0, rows) (rows <= 4 * quads) of a row-major block of `cols` columns into tiles, moved
// by `flip`; adds each column's packed values to col_sums when given.
void pack_b_block(const uint8_t* src, int64_t ld, int64_t rows, int64_t cols, int64_t quads,
                  uint8_t flip, uint8_t* out, int32_t* col_sums) {
  const int64_t tiles = (cols + kIntNr - 1) / kIntNr;
  std::memset(out, 0, static_cast<std::size_t>(tiles * quads * kIntNr * 4));
  for (int64_t q = 0; q < quads; ++q) {
    const int64_t r0 = q * 4, live = std::min<int64_t>(4, rows - r0);
    const uint8_t* quad_rows[4] = {};
    for (int64_t j = 0; j < live; ++j) quad_rows[j] = src + (r0 + j) * ld;
    for (int64_t t = 0; t < tiles; ++t) {
      uint8_t* dst = out + (t * quads + q) * kIntNr * 4;
      const int64_t c0 = t * kIntNr, n = std::min(kIntNr, cols - c0);
      if (live == 4 && n == kIntNr && pack_full_quad(quad_rows, c0, flip, dst)) continue;
      for (int64_t j = 0; j < live; ++j)
        for (int64_t c = 0; c < n; ++c)
          dst[c * 4 + j] = static_cast<uint8_t>(quad_rows[j][c0 + c] ^ flip);
    }
    if (col_sums)
      for (int64_t j = 0; j < live; ++j)
        for (int64_t c = 0; c < cols; ++c)
          col_sums[c] += static_cast<uint8_t>(quad_rows[j][c] ^ flip);
  }
}

// Per-thread scratch, grown once.
struct IntScratch {
  std::vector<uint8_t> rows, packed;
  std::vector<int32_t> col_sums;
};
IntScratch& int_scratch() {
  thread_local IntScratch s;
  return s;
}

// The zero-point terms of rows [m0, m1) x columns [n0, n1): -zb rowsum(a) - za colsum(b) +
// k za zb, zb being B's zero points moved as its values were when packed.
void add_zero_terms(const PackedInt8A& a, const Int8B& b, bool need_col_sums,
                    const int32_t* col_sums, int64_t m0, int64_t m1, int64_t n0, int64_t n1,
                    int32_t* c, int64_t ldc) {
  const int32_t move = zero_moved(0, b.kind, ByteKind::u8);
  const bool b_zero = move != 0 || any_nonzero(b.zero);
  if (!b_zero && !need_col_sums) return;
  const auto k = static_cast<uint32_t>(a.k());
  for (int64_t i = m0; i < m1; ++i) {
    const uint32_t za = u(a.zero(i)), rs = u(a.row_sums()[static_cast<std::size_t>(i)]);
    int32_t* row = c + i * ldc;
    for (int64_t j = n0; j < n1; ++j) {
      const uint32_t z = u(value_at(b.zero, j)) + u(move);
      uint32_t v = u(row[j]) - z * rs;
      if (need_col_sums) v += za * (k * z - u(col_sums[j - n0]));
      row[j] = wrap(v);
    }
  }
}

}  // namespace

IntLevel int_level() {
  static const IntLevel level = int_level_for(simd_level());
  return level;
}

IntLevel cpu_int_level() {
  static const IntLevel level = int_level_for(cpu_simd_level());
  return level;
}

const char* int_level_name(IntLevel level) {
  switch (level) {
    case IntLevel::vnni512:
      return "avx512-vnni";
    case IntLevel::avx2:
      return "avx2";
    case IntLevel::scalar:
      break;
  }
  return "scalar";
}

// ---- packing A -------------------------------------------------------------------------------

PackedInt8A::PackedInt8A(int64_t m, int64_t k, const void* a, int64_t lda, ByteKind kind,
                         std::span<const int32_t> zero, IntLevel level)
    : m_(m), k_(k), level_(level) {
  if (zero.size() != 1 && static_cast<int64_t>(zero.size()) != m)
    throw std::invalid_argument("PackedInt8A: one zero point, or one per row");
  const uint8_t flip = flip_for(kind, ByteKind::s8);
  const int64_t panels = (m + kIntMr - 1) / kIntMr, q = quads();
  data_.assign(static_cast<std::size_t>(panels * q * kIntMr * 4), 0);
  row_sums_.assign(static_cast<std::size_t>(m), 0);
  const auto* bytes = static_cast<const uint8_t*>(a);
  for (int64_t i = 0; i < m; ++i) {
    int8_t* panel = data_.data() + (i / kIntMr) * q * kIntMr * 4 + (i % kIntMr) * 4;
    int32_t sum = 0;
    for (int64_t p = 0; p < k; ++p) {
      const auto v = static_cast<int8_t>(bytes[i * lda + p] ^ flip);
      panel[(p / 4) * kIntMr * 4 + p % 4] = v;
      sum += v;  // |sum| <= 128 k: no overflow below 16 M columns
    }
    row_sums_[static_cast<std::size_t>(i)] = sum;
  }
  for (int32_t z : zero) zero_.push_back(zero_moved(z, kind, ByteKind::s8));
  has_zero_ = any_nonzero(zero_);
}

const int8_t* PackedInt8A::panel(int64_t row) const {
  return data_.data() + (row / kIntMr) * quads() * kIntMr * 4;
}

// ---- the product -----------------------------------------------------------------------------

int64_t int_row_align() {
  return kIntMr;
}

namespace {

// Quads of each depth block of a product over `total_quads`: blocks of equal depth, 144 quads (a
// 3x3 conv of 64 channels) as 72 + 72, not 128 + 16, whose short block paid a tile's fixed costs
// for an eighth of its work.
int64_t depth_block_quads(int64_t total_quads) {
  const int64_t blocks = (total_quads + kKcQuads - 1) / kKcQuads;
  return (total_quads + blocks - 1) / std::max<int64_t>(1, blocks);
}

// B's rows [k0, k0 + rows) of columns [nb, nb + cols): in place when B is a matrix, else made by
// its producer into `rows_buffer`; sets src and ld.
void b_rows(const Int8B& b, int64_t k0, int64_t rows, int64_t nb, int64_t cols,
            std::vector<uint8_t>& rows_buffer, const uint8_t*& src, int64_t& ld) {
  if (b.data) {
    src = b.data + k0 * b.ldb + nb;
    ld = b.ldb;
    return;
  }
  rows_buffer.resize(static_cast<std::size_t>(rows * cols));
  b.produce(k0, k0 + rows, nb, nb + cols, rows_buffer.data(), cols);
  src = rows_buffer.data();
  ld = cols;
}

// The tiles of A's rows [m0, m1) against one packed depth block of B (tiles of `quads` quads
// from quad qb on), into C's columns from `c` on.
void multiply_block(const PackedInt8A& a, const uint8_t* packed, int64_t qb, int64_t quads,
                    int64_t m0, int64_t m1, int64_t cols, int32_t* c, int64_t ldc) {
  const int64_t tiles = (cols + kIntNr - 1) / kIntNr;
  for (int64_t i = m0; i < m1; i += kIntMr)
    for (int64_t t = 0; t < tiles; ++t) {
      IntTile tile{a.panel(i) + qb * kIntMr * 4,
                   packed + t * quads * kIntNr * 4,
                   quads,
                   c + i * ldc + t * kIntNr,
                   ldc,
                   static_cast<int>(std::min(kIntMr, m1 - i)),
                   static_cast<int>(std::min(kIntNr, cols - t * kIntNr)),
                   qb > 0,
                   t > 0};
      run_tile(a.level(), tile);
    }
}

}  // namespace

int64_t int_packed_b_max_cols() {
  return kNc;
}

PackedInt8B::PackedInt8B(const PackedInt8A& a, const Int8B& b, int64_t n0, int64_t n1,
                         std::vector<uint8_t>& storage)
    : a_(a), b_(b), n0_(n0), cols_(n1 - n0) {
  if (b.k != a.k()) throw std::invalid_argument("igemm: A and B disagree on k");
  if (cols_ <= 0 || cols_ > kNc) throw std::invalid_argument("PackedInt8B: 1 to 512 columns");
  tiles_ = (cols_ + kIntNr - 1) / kIntNr;
  block_quads_ = depth_block_quads(a.quads());
  depth_blocks_ = a.quads() == 0 ? 0 : (a.quads() + block_quads_ - 1) / block_quads_;
  // Every block but the last is block_quads_ deep; all are laid out at that stride.
  const auto bytes = static_cast<std::size_t>(depth_blocks_ * tiles_ * block_quads_ * kIntNr * 4);
  if (storage.size() < bytes) storage.resize(bytes);  // pack_block writes every byte it reads
  data_ = storage.data();
  if (a.has_zero()) col_sums_.assign(static_cast<std::size_t>(depth_blocks_ * cols_), 0);
}

uint8_t* PackedInt8B::block_data(int64_t block) const {
  return data_ + block * tiles_ * block_quads_ * kIntNr * 4;
}

void PackedInt8B::pack_block(int64_t block) {
  const int64_t qb = block * block_quads_, quads = std::min(block_quads_, a_.quads() - qb);
  const int64_t k0 = qb * 4, rows = std::min(a_.k(), k0 + quads * 4) - k0;
  const uint8_t* src = nullptr;
  int64_t ld = 0;
  b_rows(b_, k0, rows, n0_, cols_, int_scratch().rows, src, ld);
  pack_b_block(src, ld, rows, cols_, quads, flip_for(b_.kind, ByteKind::u8), block_data(block),
               col_sums_.empty() ? nullptr : col_sums_.data() + block * cols_);
}

void PackedInt8B::multiply(int64_t m0, int64_t m1, int32_t* c, int64_t ldc) const {
  if (m1 <= m0) return;
  if (m0 < 0 || m0 % kIntMr != 0 || m1 > a_.m())
    throw std::invalid_argument("igemm: rows not from a register tile's start within A");
  for (int64_t block = 0; block < depth_blocks_; ++block) {
    const int64_t qb = block * block_quads_, quads = std::min(block_quads_, a_.quads() - qb);
    multiply_block(a_, block_data(block), qb, quads, m0, m1, cols_, c + n0_, ldc);
  }
  if (depth_blocks_ == 0)
    for (int64_t i = m0; i < m1; ++i) std::fill(c + i * ldc + n0_, c + i * ldc + n0_ + cols_, 0);
  std::vector<int32_t> sums;
  if (!col_sums_.empty()) {
    sums.assign(static_cast<std::size_t>(cols_), 0);
    for (int64_t block = 0; block < depth_blocks_; ++block)
      for (int64_t j = 0; j < cols_; ++j)
        sums[static_cast<std::size_t>(j)] += col_sums_[static_cast<std::size_t>(block * cols_ + j)];
  }
  add_zero_terms(a_, b_, !col_sums_.empty(), sums.data(), m0, m1, n0_, n0_ + cols_, c, ldc);
}

void igemm(const PackedInt8A& a, const Int8B& b, int64_t n0, int64_t n1, int32_t* c, int64_t ldc) {
  igemm_rows(a, b, 0, a.m(), n0, n1, c, ldc);
}

void igemm_rows(const PackedInt8A& a, const Int8B& b, int64_t m0, int64_t m1, int64_t n0,
                int64_t n1, int32_t* c, int64_t ldc) {
  if (b.k != a.k()) throw std::invalid_argument("igemm: A and B disagree on k");
  if (n1 <= n0 || m1 <= m0) return;
  if (m0 < 0 || m0 % kIntMr != 0 || m1 > a.m())
    throw std::invalid_argument("igemm: rows not from a register tile's start within A");
  const int64_t k = a.k(), total_quads = a.quads();
  if (k == 0) {
    for (int64_t i = m0; i < m1; ++i) std::fill(c + i * ldc + n0, c + i * ldc + n1, 0);
    return;
  }
  const uint8_t flip = flip_for(b.kind, ByteKind::u8);
  const bool need_col_sums = a.has_zero();
  const int64_t block_quads = depth_block_quads(total_quads);
  IntScratch& s = int_scratch();
  for (int64_t nb = n0; nb < n1; nb += kNc) {
    const int64_t cols = std::min(kNc, n1 - nb), tiles = (cols + kIntNr - 1) / kIntNr;
    s.col_sums.assign(static_cast<std::size_t>(cols), 0);
    for (int64_t qb = 0; qb < total_quads; qb += block_quads) {
      const int64_t quads = std::min(block_quads, total_quads - qb);
      const int64_t k0 = qb * 4, rows = std::min(k, k0 + quads * 4) - k0;
      const uint8_t* src = nullptr;
      int64_t ld = 0;
      b_rows(b, k0, rows, nb, cols, s.rows, src, ld);
      s.packed.resize(static_cast<std::size_t>(tiles * quads * kIntNr * 4));
      pack_b_block(src, ld, rows, cols, quads, flip, s.packed.data(),
                   need_col_sums ? s.col_sums.data() : nullptr);
      multiply_block(a, s.packed.data(), qb, quads, m0, m1, cols, c + nb, ldc);
    }
    add_zero_terms(a, b, need_col_sums, s.col_sums.data(), m0, m1, nb, nb + cols, c, ldc);
  }
}

void reference_igemm(int64_t m, int64_t n, int64_t k, const void* a, int64_t lda, ByteKind ka,
                     std::span<const int32_t> za, const void* b, int64_t ldb, ByteKind kb,
                     std::span<const int32_t> zb, int32_t* c, int64_t ldc) {
  auto byte = [](const void* p, int64_t i, ByteKind kind) -> int64_t {
    const auto v = static_cast<const uint8_t*>(p)[i];
    return kind == ByteKind::s8 ? int64_t{static_cast<int8_t>(v)} : int64_t{v};
  };
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += (byte(a, i * lda + p, ka) - value_at(za, i)) *
             (byte(b, p * ldb + j, kb) - value_at(zb, j));
      c[i * ldc + j] = wrap(static_cast<uint32_t>(static_cast<uint64_t>(s)));
    }
}

}  // namespace onnxtool::kernels
