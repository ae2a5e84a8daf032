// SPDX-License-Identifier: Apache-2.0
// The products' driver: picks the variant once, provides the scratch, gathers strided rows,
// and keeps the order of gemm.h in the cases the SIMD blocks do not cover.
#include "core/kernels/gemm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/kernels/gemm_arch.h"
#include "core/kernels/vmath.h"
#include "core/util/scratch.h"

namespace onnxtool::kernels {

namespace {

// ---- choosing the variant --------------------------------------------------------------------

SimdLevel detect_cpu() {
#if defined(ONNXTOOL_X86_KERNELS)
  __builtin_cpu_init();
  // libgcc's checks include the OS's support for the wider registers (XCR0).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) return SimdLevel::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return SimdLevel::avx2;
#endif
  return SimdLevel::scalar;
}

SimdLevel level_from_env(SimdLevel cpu) {
  const char* want = std::getenv("ONNXTOOL_SIMD");
  if (!want || !*want) return cpu;
  SimdLevel asked = cpu;
  const std::string w = want;
  if (w == "scalar")
    asked = SimdLevel::scalar;
  else if (w == "avx2")
    asked = SimdLevel::avx2;
  else if (w == "avx512")
    asked = SimdLevel::avx512;
  // Never more than the CPU runs.
  return static_cast<int>(asked) < static_cast<int>(cpu) ? asked : cpu;
}

// ---- the scalar definition -------------------------------------------------------------------

template <class F>
F fused(F a, F b, F acc) {
  return std::fma(a, b, acc);
}

template <class F>
F finish(F acc, F alpha, F beta, const F* c) {
  F r = alpha == F(1) ? acc : alpha * acc;
  if (beta != F(0)) r = r + beta * *c;
  return r;
}

template <class F>
F op_a(const GemmArgs<F>& g, int64_t i, int64_t p) {
  return g.trans_a ? g.a[p * g.lda + i] : g.a[i * g.lda + p];
}

template <class F>
F op_b(const GemmArgs<F>& g, int64_t p, int64_t j) {
  return g.trans_b ? g.b[j * g.ldb + p] : g.b[p * g.ldb + j];
}

// The 16-lane dot product of gemm.h (one row of C against B's rows).
template <class F>
F dot16(const F* x, int64_t x_stride, const F* row, int64_t k) {
  constexpr int L = 16;
  F lanes[L] = {};
  for (int64_t p = 0; p < k; ++p) lanes[p % L] = fused(x[p * x_stride], row[p], lanes[p % L]);
  for (int h = L / 2; h >= 1; h /= 2)
    for (int l = 0; l < h; ++l) lanes[l] = lanes[l] + lanes[l + h];
  return lanes[0];
}

template <class F>
bool is_dot_case(const GemmArgs<F>& g) {
  return g.m == 1 && g.trans_b && g.dot_when_one_row;
}

template <class F>
void reference(const GemmArgs<F>& g) {
  if (g.m <= 0 || g.n <= 0) return;
  if (is_dot_case(g)) {
    const int64_t x_stride = g.trans_a ? g.lda : 1;
    for (int64_t j = 0; j < g.n; ++j)
      g.c[j] = finish(dot16(g.a, x_stride, g.b + j * g.ldb, g.k), g.alpha, g.beta, g.c + j);
    return;
  }
  // Row by row, k outermost within a row: each element still gets its fmas in k order.
  std::vector<F> acc(static_cast<std::size_t>(g.n));
  for (int64_t i = 0; i < g.m; ++i) {
    std::fill(acc.begin(), acc.end(), F(0));
    for (int64_t p = 0; p < g.k; ++p) {
      const F a = op_a(g, i, p);
      for (int64_t j = 0; j < g.n; ++j)
        acc[static_cast<std::size_t>(j)] =
            fused(a, op_b(g, p, j), acc[static_cast<std::size_t>(j)]);
    }
    F* row = g.c + i * g.ldc;
    for (int64_t j = 0; j < g.n; ++j)
      row[j] = finish(acc[static_cast<std::size_t>(j)], g.alpha, g.beta, row + j);
  }
}

// ---- the SIMD variants -----------------------------------------------------------------------
#if defined(ONNXTOOL_X86_KERNELS)

// Scratch for packing, one set per thread, kept between calls.
template <class F>
struct Scratch {
  struct Free {
    void operator()(F* p) const { std::free(p); }
  };
  std::unique_ptr<F, Free> a, b;
  Scratch()
      : a(static_cast<F*>(std::aligned_alloc(64, detail::kPackAElems * sizeof(F)))),
        b(static_cast<F*>(std::aligned_alloc(64, detail::kPackBElems * sizeof(F)))) {
    if (!a || !b) throw std::bad_alloc();
  }
};

template <class F>
Scratch<F>& scratch() {
  thread_local Scratch<F> s;
  return s;
}

template <class F>
detail::Call<F> to_call(const GemmArgs<F>& g) {
  Scratch<F>& s = scratch<F>();
  return {g.trans_a, g.trans_b, g.m,    g.n, g.k,   g.alpha,   g.a,      g.lda,
          g.b,       g.ldb,     g.beta, g.c, g.ldc, s.a.get(), s.b.get()};
}

// The blocked product at `level`; a_panel_rows: the rows of a caller-packed A's panels (the
// 7-row AVX-512 tile for panels of 7, else the level's own tile).
template <class F>
void blocked(const detail::Call<F>& c, SimdLevel level, int64_t a_panel_rows = 0) {
  if constexpr (std::is_same_v<F, float>)
    if (level == SimdLevel::avx512 && a_panel_rows == detail::kMrAvx512Short)
      return detail::blocked_short_avx512(c);
  if (level == SimdLevel::avx512)
    detail::blocked_avx512(c);
  else
    detail::blocked_avx2(c);
}

// op(A)'s single row, contiguous: A itself, or a gathered copy of a strided column.
template <class F>
const F* single_row(const GemmArgs<F>& g, std::vector<F>& gathered) {
  if (!g.trans_a || g.lda == 1) return g.a;
  gathered.resize(static_cast<std::size_t>(g.k));
  for (int64_t p = 0; p < g.k; ++p) gathered[static_cast<std::size_t>(p)] = g.a[p * g.lda];
  return gathered.data();
}

template <class F>
void one_row(const GemmArgs<F>& g, SimdLevel level) {
  std::vector<F> gathered;
  const F* x = single_row(g, gathered);
  const detail::Call<F> c = to_call(g);
  if (g.trans_b) {
    if (level == SimdLevel::avx512)
      detail::dot_avx512(c, x);
    else
      detail::dot_avx2(c, x);
  } else {
    if (level == SimdLevel::avx512)
      detail::row_avx512(c, x);
    else
      detail::row_avx2(c, x);
  }
}

// The blocked product, also when beta != 0 and k spans several blocks: the blocks keep partial
// sums in C, so C's old values then wait in a copy and join at the end, as the order says:
// alpha * acc, then + beta * C.
template <class F>
void blocked_any_beta(const detail::Call<F>& c, SimdLevel level, int64_t a_panel_rows = 0) {
  if (c.beta == F(0) || c.k <= detail::kKc) return blocked(c, level, a_panel_rows);
  std::vector<F> sums(static_cast<std::size_t>(c.m * c.n));
  detail::Call<F> plain = c;
  plain.alpha = F(1);
  plain.beta = F(0);
  plain.c = sums.data();
  plain.ldc = c.n;
  blocked(plain, level, a_panel_rows);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      F* out = c.c + i * c.ldc + j;
      *out = finish(sums[static_cast<std::size_t>(i * c.n + j)], c.alpha, c.beta, out);
    }
}

template <class F>
void simd(const GemmArgs<F>& g, SimdLevel level) {
  if (g.m == 1 && (is_dot_case(g) || !g.trans_b)) return one_row(g, level);
  blocked_any_beta(to_call(g), level);
}

template <class F>
void pack_all_a(const detail::Call<F>& c, SimdLevel level, F* out) {
  if (level == SimdLevel::avx512)
    detail::pack_all_a_avx512(c, out);
  else
    detail::pack_all_a_avx2(c, out);
}

int64_t row_align_of(SimdLevel level) {
  return level == SimdLevel::avx512 ? detail::kMrAvx512 : detail::kMrAvx2;
}

// Rows per panel of a caller-packed A of m rows: the level's tile, or at AVX-512 the 7-row tile
// where it pads fewer rows (a 7x7 plane's 49 positions: 49 rows computed instead of 56).
int64_t caller_a_panel(int64_t m, SimdLevel level) {
  const int64_t mr = row_align_of(level);
  if (level != SimdLevel::avx512) return mr;
  const auto padded = [m](int64_t rows) { return (m + rows - 1) / rows * rows; };
  return padded(detail::kMrAvx512Short) < padded(mr) ? detail::kMrAvx512Short : mr;
}

#endif  // ONNXTOOL_X86_KERNELS

template <class F>
void dispatch(const GemmArgs<F>& g, SimdLevel level) {
  if (g.m <= 0 || g.n <= 0) return;
#if defined(ONNXTOOL_X86_KERNELS)
  if (g.k > 0 && level != SimdLevel::scalar) return simd(g, level);
#else
  (void)level;
#endif
  reference(g);
}

}  // namespace

template <class F>
PackedA<F>::PackedA(bool trans_a, int64_t m, int64_t k, const F* a, int64_t lda, SimdLevel level)
    : m_(m), k_(k), level_(level) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (level == SimdLevel::scalar || m < 2 || k <= 0) return;
  row_align_ = row_align_of(level);
  data_.resize(static_cast<std::size_t>(padded_rows() * k));
  GemmArgs<F> g;
  g.trans_a = trans_a;
  g.m = m;
  g.k = k;
  g.a = a;
  g.lda = lda;
  pack_all_a(to_call(g), level, data_.data());
#else
  (void)trans_a, (void)a, (void)lda;
#endif
}

template class PackedA<float>;
template class PackedA<double>;

#if defined(ONNXTOOL_X86_KERNELS)
void finish_activation_row(float* row, int64_t n, const void* activation) {
  apply_activation_f32(row, n, *static_cast<const Epilogue*>(activation));
}

template <class Args, class F>
void set_epilogue(const Args& g, detail::Call<F>& c) {
  c.row_bias = g.row_bias;
  c.residual = g.residual;
  c.ldr = g.ldr;
  if (!g.activation.in_registers()) {
    if constexpr (!std::is_same_v<F, float>)
      throw std::invalid_argument("gemm_packed: that activation is float32 only");
    else {
      c.finish_row = finish_activation_row;
      c.finish_ctx = &g.activation;
      if (g.beta != F(0)) throw std::invalid_argument("gemm_packed: an epilogue needs beta 0");
    }
    return;
  }
  c.act = static_cast<int>(g.activation.kind);
  c.act_lo = static_cast<F>(g.activation.lo);
  c.act_hi = static_cast<F>(g.activation.hi);
  c.act_alpha = static_cast<F>(g.activation.alpha);
  if (c.has_epilogue() && g.beta != F(0))
    throw std::invalid_argument("gemm_packed: an epilogue needs beta 0");
}

// c reads columns [col0, col0 + c.n) of a B packed as `layout` at data (col0 a multiple of the
// panel, the columns inside the matrix); `who` names the product in the error.
template <class F>
void attach_packed_b(detail::Call<F>& c, const F* data, const PackedBLayout& layout, int64_t col0,
                     const char* who) {
  if (col0 < 0 || col0 % layout.panel != 0 || col0 + c.n > layout.n)
    throw std::invalid_argument(std::string(who) + ": columns outside the packed matrix");
  c.packed_b = data;
  c.packed_cols = layout.padded_cols();
  c.packed_col0 = col0;
}

// The Call of a packed product (either operand packed): what both forms share, and the
// epilogue. The caller adds the unpacked operand and the packed one.
template <class F, class Args>
detail::Call<F> packed_call(const Args& g, int64_t k) {
  GemmArgs<F> plain;
  plain.m = g.m;
  plain.n = g.n;
  plain.k = k;
  plain.alpha = g.alpha;
  plain.beta = g.beta;
  plain.c = g.c;
  plain.ldc = g.ldc;
  detail::Call<F> c = to_call(plain);
  set_epilogue(g, c);
  return c;
}
#endif

template <class F>
void packed_product(const PackedGemmArgs<F>& g) {
  if (g.m <= 0 || g.n <= 0) return;
  const PackedA<F>& a = *g.a;
  if (!a.usable() || g.row0 < 0 || g.row0 % a.row_align() != 0 || g.row0 + g.m > a.m())
    throw std::invalid_argument("gemm_packed: rows outside the packed matrix");
#if defined(ONNXTOOL_X86_KERNELS)
  detail::Call<F> c = packed_call<F>(g, a.k());
  c.tb = g.trans_b;
  c.b = g.b;
  c.ldb = g.ldb;
  if (g.b_row_scale) {
    if (g.trans_b || g.b_packed || !g.b_row_shift)
      throw std::invalid_argument("gemm_packed: B's row transform needs B as stored, and a shift");
    c.b_scale = g.b_row_scale;
    c.b_shift = g.b_row_shift;
    c.b_act = static_cast<int>(g.b_activation.kind);
    c.b_lo = static_cast<F>(g.b_activation.lo);
    c.b_hi = static_cast<F>(g.b_activation.hi);
    c.b_alpha = static_cast<F>(g.b_activation.alpha);
  }
  if (g.b_row_offsets) {
    if (!std::is_same_v<F, float> || g.trans_b || g.b_packed || g.b_row_scale)
      throw std::invalid_argument("gemm_packed: B's row offsets need a float B as stored");
    c.b_rows = g.b_row_offsets;
  }
  if (g.b_packed) {
    if constexpr (!std::is_same_v<F, float>)
      throw std::invalid_argument("gemm_packed: a caller-packed B is float only");
    attach_packed_b(c, g.b_packed, packed_b_layout(a.k(), g.b_packed_cols, a.level()), g.b_col0,
                    "gemm_packed");
  }
  c.packed_a = a.data();
  c.packed_rows = a.padded_rows();
  c.packed_row0 = g.row0;
  blocked_any_beta(c, a.level());
#endif
}

// Blocks of kKc rows, in panels of `panel` columns.
PackedBLayout blocked_layout(int64_t k, int64_t n, int64_t panel) {
  PackedBLayout layout;
  layout.k = k;
  layout.n = n;
  layout.block_rows = detail::kKc;
  layout.panel = panel;
  return layout;
}

PackedBLayout packed_b_layout(int64_t k, int64_t n, SimdLevel level) {
#if defined(ONNXTOOL_X86_KERNELS)
  // The register tile's columns: the panels the blocked product reads.
  return blocked_layout(k, n, level == SimdLevel::avx512 ? detail::kNrAvx512 : detail::kNrAvx2);
#else
  (void)level;
  return blocked_layout(k, n, 1);
#endif
}

PackedBLayout packed_a_layout(int64_t k, int64_t m, SimdLevel level) {
#if defined(ONNXTOOL_X86_KERNELS)
  // The register tile's rows: the panels of A the blocked product reads.
  return blocked_layout(k, m, caller_a_panel(m, level));
#else
  (void)level;
  return blocked_layout(k, m, 1);
#endif
}

// n floats; the panels' widths as constant sizes, so that they are moves inline rather than a
// call per panel.
template <int64_t N>
bool copy_if_width(const float* src, int64_t n, float* dst) {
  if (n != N) return false;
  std::memcpy(dst, src, N * sizeof(float));
  return true;
}
void copy_panel(const float* src, int64_t n, float* dst) {
  if (copy_if_width<6>(src, n, dst) || copy_if_width<7>(src, n, dst) ||
      copy_if_width<8>(src, n, dst) || copy_if_width<16>(src, n, dst) ||
      copy_if_width<32>(src, n, dst))
    return;
  std::memcpy(dst, src, static_cast<std::size_t>(n) * sizeof(float));
}

void pack_b_rows(const PackedBLayout& layout, const float* rows, int64_t ld, int64_t p0, int64_t p1,
                 float* out) {
  const int64_t panel = layout.panel, full = layout.n / panel * panel;
  const int64_t cols = layout.padded_cols();
  for (int64_t p = p0; p < p1; ++p) {
    const int64_t block0 = p / layout.block_rows * layout.block_rows;
    const int64_t kc = std::min(layout.block_rows, layout.k - block0);
    float* dst = out + block0 * cols + (p - block0) * panel;  // row p of panel 0
    const float* src = rows + (p - p0) * ld;
    for (int64_t j = 0; j < full; j += panel) copy_panel(src + j, panel, dst + j * kc);
    if (full == layout.n) continue;
    float* last = dst + full * kc;
    const int64_t rest = layout.n - full;
    std::memcpy(last, src + full, static_cast<std::size_t>(rest) * sizeof(float));
    std::fill(last + rest, last + panel, 0.0f);
  }
}

// One panel of P rows (P the layout's panel, `valid` of them real) over k rows [p0, p0 + kc):
// A's columns become the panel's rows, written in order so that the stores are sequential.
namespace {

template <int64_t P>
void pack_a_panel(const float* a, int64_t ld, int64_t valid, int64_t p0, int64_t kc, float* dst) {
  const float* row[P];
  for (int64_t r = 0; r < P; ++r) row[r] = a + std::min(r, valid - 1) * ld + p0;
  for (int64_t p = 0; p < kc; ++p, dst += P)
    for (int64_t r = 0; r < P; ++r) dst[r] = r < valid ? row[r][p] : 0.0f;
}

void pack_a_panel_any(const float* a, int64_t ld, int64_t panel, int64_t valid, int64_t p0,
                      int64_t kc, float* dst) {
  switch (panel) {
    case 6:
      return pack_a_panel<6>(a, ld, valid, p0, kc, dst);
    case 7:
      return pack_a_panel<7>(a, ld, valid, p0, kc, dst);
    case 8:
      return pack_a_panel<8>(a, ld, valid, p0, kc, dst);
    default:
      break;
  }
  for (int64_t p = 0; p < kc; ++p, dst += panel)
    for (int64_t r = 0; r < panel; ++r) dst[r] = r < valid ? a[r * ld + p0 + p] : 0.0f;
}

}  // namespace

void pack_a_rows(const PackedBLayout& layout, const float* rows, int64_t ld, int64_t r0, int64_t r1,
                 float* out) {
  const int64_t panel = layout.panel, cols = layout.padded_cols();
  for (int64_t i = r0; i < r1; i += panel) {
    const float* a = rows + (i - r0) * ld;
    const int64_t valid = std::min(panel, layout.n - i);
    for (int64_t p0 = 0; p0 < layout.k; p0 += layout.block_rows) {
      const int64_t kc = std::min(layout.block_rows, layout.k - p0);
      pack_a_panel_any(a, ld, panel, valid, p0, kc, out + p0 * cols + i * kc);
    }
  }
}

void pack_b_rows(const PackedBLayout& layout, const float* rows, int64_t ld, int64_t p0, int64_t p1,
                 float* out, const RowTransform& transform) {
  if (!transform.scale) return pack_b_rows(layout, rows, ld, p0, p1, out);
  // Row by row through a transformed copy.
  thread_local std::vector<float> row;
  scratch_of(row, static_cast<std::size_t>(layout.n));
  for (int64_t p = p0; p < p1; ++p) {
    affine_f32(rows + (p - p0) * ld, transform.scale[p], transform.shift[p], row.data(), layout.n,
               transform.activation);
    pack_b_rows(layout, row.data(), layout.n, p, p + 1, out);
  }
}

int64_t in_place_b_max_rows() {
  return detail::kDirectBRows;
}

void gemm_packed(const PackedGemmArgs<float>& g) {
  packed_product(g);
}

void gemm_packed(const PackedGemmArgs<double>& g) {
  packed_product(g);
}

PackedB::PackedB(bool trans_b, int64_t k, int64_t n, const float* b, int64_t ldb, SimdLevel level)
    : layout_(packed_b_layout(k, n, level)), level_(level) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (level == SimdLevel::scalar || k <= 0 || n <= 0) return;
  data_.resize(static_cast<std::size_t>(layout_.size()));
  GemmArgs<float> g;
  g.trans_b = trans_b;
  g.n = n;
  g.k = k;
  g.b = b;
  g.ldb = ldb;
  const detail::Call<float> c = to_call(g);
  if (level == SimdLevel::avx512)
    detail::pack_all_b_avx512(c, data_.data());
  else
    detail::pack_all_b_avx2(c, data_.data());
#else
  (void)trans_b, (void)b, (void)ldb;
#endif
}

void gemm_packed_b(const PackedBGemmArgs& g) {
  if (g.m <= 0 || g.n <= 0) return;
  const PackedB& b = *g.b;
  if (!b.usable()) throw std::invalid_argument("gemm_packed_b: B is not packed");
#if defined(ONNXTOOL_X86_KERNELS)
  detail::Call<float> c = packed_call<float>(g, b.k());
  c.ta = g.trans_a;
  c.a = g.a;
  c.lda = g.lda;
  if (g.col_bias && g.row_bias)
    throw std::invalid_argument("gemm_packed_b: a bias per row or per column, not both");
  if (g.col_bias && g.beta != 0.0f)
    throw std::invalid_argument("gemm_packed_b: an epilogue needs beta 0");
  c.col_bias = g.col_bias;
  int64_t a_panel_rows = 0;
  if (g.a_packed) {
    const int64_t rows = g.a_rows > 0 ? g.a_rows : g.m;
    const PackedBLayout a_layout = packed_a_layout(b.k(), rows, b.level());
    if (g.a_row0 < 0 || g.a_row0 % a_layout.panel != 0 || g.a_row0 + g.m > rows)
      throw std::invalid_argument("gemm_packed_b: rows outside the packed A or off its panels");
    c.packed_a = g.a_packed;
    c.packed_rows = a_layout.padded_cols();
    c.packed_row0 = g.a_row0;
    a_panel_rows = a_layout.panel;
  }
  attach_packed_b(c, b.data(), b.layout(), g.col0, "gemm_packed_b");
  blocked_any_beta(c, b.level(), a_panel_rows);
#endif
}

double peak_gflops_per_thread() {
  static const double peak = [] {
    double best = 0;
#if defined(ONNXTOOL_X86_KERNELS)
    const SimdLevel level = simd_level();
    if (level == SimdLevel::scalar) return 0.0;
    alignas(64) float sink[64];
    constexpr int64_t kIters = 1 << 20;
    // The best of several bursts: the first ones may run while the clock ramps up.
    for (int trial = 0; trial < 6; ++trial) {
      const auto start = std::chrono::steady_clock::now();
      const double ops = level == SimdLevel::avx512 ? detail::fma_burst_avx512(kIters, sink)
                                                    : detail::fma_burst_avx2(kIters, sink);
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (s > 0) best = std::max(best, ops / s / 1e9);
    }
#endif
    return best;
  }();
  return peak;
}

SimdLevel cpu_simd_level() {
  static const SimdLevel level = detect_cpu();
  return level;
}

SimdLevel simd_level() {
  static const SimdLevel level = level_from_env(cpu_simd_level());
  return level;
}

bool avx2_element_kernels() {
#if defined(ONNXTOOL_X86_KERNELS)
  static const bool yes = simd_level() != SimdLevel::scalar;
  return yes;
#else
  return false;
#endif
}

const char* simd_level_name(SimdLevel level) {
  switch (level) {
    case SimdLevel::avx512:
      return "avx512";
    case SimdLevel::avx2:
      return "avx2";
    case SimdLevel::scalar:
      break;
  }
  return "scalar";
}

void gemm(const GemmArgs<float>& g, SimdLevel level) {
  dispatch(g, level);
}
void gemm(const GemmArgs<double>& g, SimdLevel level) {
  dispatch(g, level);
}
void reference_gemm(const GemmArgs<float>& g) {
  reference(g);
}
void reference_gemm(const GemmArgs<double>& g) {
  reference(g);
}

}  // namespace onnxtool::kernels
