// SPDX-License-Identifier: Apache-2.0
// OpenBLAS, loaded at run time so that its kernels can be chosen before it initialises (see
// blas.h for why and for the threading policy).
#include "core/exec/blas.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <cblas.h>

#include <spdlog/spdlog.h>

#include "core/exec/kernel.h"
#include "core/exec/thread_pool.h"
#include "core/kernels/gemm.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace onnxtool::blas {

namespace {

using SgemmFn = decltype(&cblas_sgemm);
using DgemmFn = decltype(&cblas_dgemm);
using SgemvFn = decltype(&cblas_sgemv);
using DgemvFn = decltype(&cblas_dgemv);
using NameFn = char* (*)();
using SetThreadsFn = void (*)(int);

struct Library {
  void* handle = nullptr;
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  SgemvFn sgemv = nullptr;
  DgemvFn dgemv = nullptr;
  NameFn corename = nullptr;
  NameFn config = nullptr;
  SetThreadsFn set_threads = nullptr;
};

Library g_lib;
Info g_info;

// ---- environment: set for the load only, then put back as the user had it ------------------

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// ---- cpuid ---------------------------------------------------------------------------------

#if defined(__x86_64__)
struct CpuFeatures {
  bool avx = false, avx2 = false, fma = false, avx512 = false, amd = false;
};

uint64_t read_xcr0() {
  uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

CpuFeatures cpu_features() {
  CpuFeatures f;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return f;
  const unsigned max_leaf = a;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  f.amd = std::strcmp(vendor, "AuthenticAMD") == 0 || std::strcmp(vendor, "HygonGenuine") == 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  const bool osxsave = (c >> 27) & 1;
  if (!osxsave) return f;  // the OS does not save vector state: only SSE is safe
  const uint64_t xcr0 = read_xcr0();
  const bool os_ymm = (xcr0 & 0x6) == 0x6;
  const bool os_zmm = (xcr0 & 0xE6) == 0xE6;
  f.avx = os_ymm && ((c >> 28) & 1);
  f.fma = os_ymm && ((c >> 12) & 1);
  if (max_leaf < 7) return f;
  __cpuid_count(7, 0, a, b, c, d);
  f.avx2 = os_ymm && ((b >> 5) & 1);
  // What OpenBLAS's SkylakeX kernels use: AVX-512 F, DQ, CD, BW and VL.
  const unsigned need = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
  f.avx512 = os_zmm && (b & need) == need;
  return f;
}
#endif

// ---- loading -------------------------------------------------------------------------------

template <class F>
F symbol(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

bool open_library(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) return false;
  Library lib;
  lib.handle = h;
  lib.sgemm = symbol<SgemmFn>(h, "cblas_sgemm");
  lib.dgemm = symbol<DgemmFn>(h, "cblas_dgemm");
  lib.sgemv = symbol<SgemvFn>(h, "cblas_sgemv");
  lib.dgemv = symbol<DgemvFn>(h, "cblas_dgemv");
  lib.corename = symbol<NameFn>(h, "openblas_get_corename");
  lib.config = symbol<NameFn>(h, "openblas_get_config");
  lib.set_threads = symbol<SetThreadsFn>(h, "openblas_set_num_threads");
  if (!lib.sgemm || !lib.dgemm) {
    dlclose(h);
    return false;
  }
  g_lib = lib;
  g_info.library = path;
  return true;
}

std::vector<std::string> candidate_paths() {
  std::vector<std::string> paths = {"libopenblas.so.0"};
#ifdef ONNXTOOL_OPENBLAS_PATH
  paths.emplace_back(ONNXTOOL_OPENBLAS_PATH);
#endif
  paths.emplace_back("libopenblas.so");
  return paths;
}

bool open_any() {
  for (const auto& p : candidate_paths())
    if (open_library(p)) return true;
  return false;
}

std::string current_core() {
  return g_lib.corename ? std::string(g_lib.corename()) : std::string();
}

// Unloads and loads again with OPENBLAS_CORETYPE=core, so the constructor picks that core.
void reload_with_core(const std::string& core) {
  const std::string path = g_info.library;
  dlclose(g_lib.handle);
  g_lib = Library{};
  if (void* still = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
    // Something else holds the library: its constructor will not run again.
    g_lib.handle = still;
    dlclose(still);
    g_info.note = "OpenBLAS could not be unloaded to switch its core";
  }
  ScopedEnv coretype("OPENBLAS_CORETYPE", core);
  if (!open_library(path)) open_any();
}

bool openblas_requested() {
  return env_or_empty("ONNXTOOL_GEMM") == "openblas";
}

void load() {
  g_info.simd = kernels::simd_level_name(kernels::simd_level());
  g_info.gemm = "onnxtool";
  const std::string user_core = env_or_empty("OPENBLAS_CORETYPE");
  g_info.user_coretype = !user_core.empty();
  g_info.cpu_best = best_core_for_cpu();
  // Our pool does the threading (blas.h): OpenBLAS starts no threads of its own.
  ScopedEnv one_thread("OPENBLAS_NUM_THREADS", "1");
  {
    // Test hook: make the first load pick this core, as a library that does not know the CPU
    // would, to exercise the correction below.
    const std::string simulate = env_or_empty("ONNXTOOL_OPENBLAS_SIMULATE_CORE");
    std::optional<ScopedEnv> fake;
    if (!simulate.empty() && user_core.empty()) fake.emplace("OPENBLAS_CORETYPE", simulate);
    if (!open_any()) {
      g_info.note = "OpenBLAS not found (libopenblas.so.0); using the built-in loops";
      return;
    }
  }
  g_info.detected = current_core();
  if (user_core.empty() && !g_info.cpu_best.empty() &&
      core_level(g_info.detected) < core_level(g_info.cpu_best)) {
    reload_with_core(g_info.cpu_best);
    if (!g_lib.handle) {
      g_info.note = "OpenBLAS failed to load again; using the built-in loops";
      return;
    }
    g_info.corrected = current_core() != g_info.detected;
  }
  if (g_lib.set_threads) g_lib.set_threads(1);
  g_info.core = current_core();
  g_info.config = g_lib.config ? g_lib.config() : "";
  g_info.loaded = true;
  g_info.user_core_slower =
      g_info.user_coretype && core_level(g_info.core) < core_level(g_info.cpu_best);
  if (openblas_requested()) g_info.gemm = "openblas";
}

// ---- the products --------------------------------------------------------------------------

bool fits_int(int64_t v) {
  return v >= 0 && v <= INT_MAX;
}

// cblas rejects (and prints about) strides below the stored row length.
template <class T>
bool cblas_can_take(bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                    int64_t ldc) {
  const int64_t a_cols = ta ? m : k, b_cols = tb ? k : n;
  return fits_int(m) && fits_int(n) && fits_int(k) && fits_int(lda) && fits_int(ldb) &&
         fits_int(ldc) && lda >= std::max<int64_t>(1, a_cols) &&
         ldb >= std::max<int64_t>(1, b_cols) && ldc >= std::max<int64_t>(1, n);
}

// One row of C (m == 1) is a matrix-vector product. OpenBLAS 0.3.21's gemm packs all of B even
// then; gemv streams it once, which is what a fully connected layer at batch 1 is bound by.
template <class T>
bool cblas_row_gemv(bool ta, bool tb, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                    const T* b, int64_t ldb, T beta, T* c) {
  const auto fn = [] {
    if constexpr (std::is_same_v<T, float>)
      return g_lib.sgemv;
    else
      return g_lib.dgemv;
  }();
  if (!fn) return false;
  // A's one row: contiguous, or (transposed) a column of stride lda.
  const int inc_a = ta ? static_cast<int>(lda) : 1;
  // C = alpha * op(B)^T a + beta * C: B [n,k] (transB) is used as it is, B [k,n] transposed.
  fn(CblasRowMajor, tb ? CblasNoTrans : CblasTrans, static_cast<int>(tb ? n : k),
     static_cast<int>(tb ? k : n), alpha, b, static_cast<int>(ldb), a, inc_a, beta, c, 1);
  return true;
}

template <class T>
void cblas_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m == 1 && cblas_row_gemv(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c)) return;
  const auto ota = ta ? CblasTrans : CblasNoTrans, otb = tb ? CblasTrans : CblasNoTrans;
  const auto im = static_cast<int>(m), in = static_cast<int>(n), ik = static_cast<int>(k);
  if constexpr (std::is_same_v<T, float>)
    g_lib.sgemm(CblasRowMajor, ota, otb, im, in, ik, alpha, a, static_cast<int>(lda), b,
                static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
  else
    g_lib.dgemm(CblasRowMajor, ota, otb, im, in, ik, alpha, a, static_cast<int>(lda), b,
                static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

template <class T>
kernels::GemmArgs<T> args(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                          int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  kernels::GemmArgs<T> g;
  g.trans_a = ta;
  g.trans_b = tb;
  g.m = m;
  g.n = n;
  g.k = k;
  g.alpha = alpha;
  g.a = a;
  g.lda = lda;
  g.b = b;
  g.ldb = ldb;
  g.beta = beta;
  g.c = c;
  g.ldc = ldc;
  return g;
}

// `whole_rows` is false for a block of rows cut from a larger product (see GemmArgs).
template <class T>
void gemm_serial(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
                 int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc,
                 bool whole_rows = true) {
  if (m <= 0 || n <= 0) return;
  if (k > 0 && info().gemm == "openblas" && cblas_can_take<T>(ta, tb, m, n, k, lda, ldb, ldc))
    return cblas_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  kernels::GemmArgs<T> g = args(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  g.dot_when_one_row = whole_rows;
  kernels::gemm(g);
}

// Below this many multiply-adds a split costs more than it saves.
constexpr int64_t kMinParallelWork = int64_t{1} << 21;
// Blocks narrower than this waste the micro-kernel's register tile.
constexpr int64_t kMinBlock = 32;
// Elements of B from which a one-row product is split all the same (256 KiB of floats).
constexpr int64_t kMinParallelStream = int64_t{1} << 16;
// Blocks per thread of such a streamed B.
constexpr int64_t kStreamBlocksPerThread = 4;

// Splits C (m x n, k deep) over the kernel's threads when the product is large enough: the
// longer side in one block per thread, each at least kMinBlock and a multiple of 16 (columns)
// or of row_align (rows), calling block(by_cols, lo, len) for each. False when it does not
// split (one thread, a small product, already inside a parallel region, or one block).
bool split_product(const KernelContext& ctx, int64_t m, int64_t n, int64_t k, int64_t row_align,
                   const std::function<void(bool, int64_t, int64_t)>& block) {
  const int threads = ctx.threads();
  // A single row streams all of B for one multiply-add per element: its time is B's reading,
  // which two cores do faster than one (a 1280 x 1000 classifier after MobileNetV2's layers, B
  // out of cache: 0.215 ms on one thread).
  const bool streams_b = m == 1 && n * k >= kMinParallelStream;
  const bool small = m * n * std::max<int64_t>(k, 1) < kMinParallelWork && !streams_b;
  if (threads <= 1 || small || ThreadPool::in_parallel_region()) return false;
  const bool by_cols = n >= m;
  const int64_t extent = by_cols ? n : m, align = by_cols ? 16 : row_align;
  // A streamed B goes in a few blocks a thread, handed out as the threads free up: two static
  // halves waited for the slower core (on a shared host one often runs a third slower). Other
  // products keep a block a thread, as each block packs its own operands.
  const int64_t pieces = streams_b ? threads * kStreamBlocksPerThread : threads;
  int64_t size = (extent + pieces - 1) / pieces;
  size = std::max(kMinBlock, (size + align - 1) / align * align);
  const int64_t blocks = (extent + size - 1) / size;
  if (blocks <= 1) return false;
  ctx.parallel_for(blocks, 1, [&](int64_t first, int64_t last) {
    for (int64_t blk = first; blk < last; ++blk)
      block(by_cols, blk * size, std::min(size, extent - blk * size));
  });
  return true;
}

template <class T>
void gemm_parallel(const KernelContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k,
                   T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                   int64_t ldc) {
  const bool split = split_product(ctx, m, n, k, 16, [&](bool by_cols, int64_t lo, int64_t len) {
    if (by_cols)
      gemm_serial(ta, tb, m, len, k, alpha, a, lda, tb ? b + lo * ldb : b + lo, ldb, beta, c + lo,
                  ldc);
    else
      gemm_serial(ta, tb, len, n, k, alpha, ta ? a + lo : a + lo * lda, lda, b, ldb, beta,
                  c + lo * ldc, ldc, /*whole_rows=*/false);
  });
  if (!split) gemm_serial(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace

// ---- public --------------------------------------------------------------------------------

bool packed_products() {
  return info().gemm != "openblas" && kernels::simd_level() != kernels::SimdLevel::scalar;
}

const Info& info() {
  static std::once_flag once;
  std::call_once(once, load);
  return g_info;
}

std::string describe() {
  const Info& i = info();
  std::string s = "matrix products: ";
  s += i.gemm == "openblas" ? "OpenBLAS (ONNXTOOL_GEMM=openblas)"
                            : "onnxtool " + i.simd + " kernels, one summation order";
  if (!i.loaded) return s + "; " + i.note;
  s += "; OpenBLAS core " + i.core + " (" + i.library + ")";
  if (i.user_coretype)
    s += ", as OPENBLAS_CORETYPE asks";
  else if (i.corrected)
    s += "; OpenBLAS chose " + i.detected + " by itself, corrected from cpuid";
  if (!i.note.empty()) s += "; " + i.note;
  return s;
}

void log_choice() {
  spdlog::info("blas: {}", describe());
  static std::once_flag once;
  const Info& i = info();
  if (!i.user_core_slower) return;
  std::call_once(once, [&] {
    spdlog::info("blas: OPENBLAS_CORETYPE={} is slower than what this CPU runs ({}); kept as set{}",
                 i.core, i.cpu_best,
                 i.gemm == "openblas" ? "" : " (onnxtool's own kernels compute the products)");
  });
}

void sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  gemm_serial(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
           const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
           int64_t ldc) {
  gemm_serial(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void sgemm(const KernelContext& ctx, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
           float alpha, const float* a, int64_t lda, const float* b, int64_t ldb, float beta,
           float* c, int64_t ldc) {
  gemm_parallel(ctx, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dgemm(const KernelContext& ctx, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
           double alpha, const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
           double* c, int64_t ldc) {
  gemm_parallel(ctx, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void reference_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                     const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                     int64_t ldc) {
  kernels::reference_gemm(args(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc));
}

void reference_dgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                     const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                     double* c, int64_t ldc) {
  kernels::reference_gemm(args(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc));
}

std::string best_core_for_cpu() {
#if defined(__x86_64__)
  const CpuFeatures f = cpu_features();
  if (f.avx512) return "SkylakeX";
  if (f.avx2 && f.fma) return f.amd ? "Zen" : "Haswell";
  if (f.avx) return "Sandybridge";
#endif
  return "";
}

int core_level(const std::string& core) {
  static const std::pair<const char*, int> kLevels[] = {
      {"skylakex", 3},    {"cooperlake", 3},  {"sapphirerapids", 3}, {"haswell", 2},
      {"zen", 2},         {"sandybridge", 1}, {"bulldozer", 1},      {"piledriver", 1},
      {"steamroller", 1}, {"excavator", 1}};
  std::string lower = core;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  for (const auto& [name, level] : kLevels)
    if (lower == name) return level;
  return 0;
}

}  // namespace onnxtool::blas
