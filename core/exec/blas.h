// SPDX-License-Identifier: Apache-2.0
// Matrix multiplication for kernels: OpenBLAS when it can be loaded, a plain loop otherwise.
// blas.cpp is the only file that includes cblas.h.
//
// Loading. OpenBLAS picks its kernels ("core") once, in the constructor that runs when the
// library is loaded, from cpuid or from OPENBLAS_CORETYPE. Debian 12's 0.3.21 does not know
// every recent CPU and then falls back to "Prescott" (SSE3) kernels, several times slower than
// the AVX-512 ones the CPU could run. So onnxtool does not link OpenBLAS: it loads it with
// dlopen on first use, compares the core OpenBLAS chose with what cpuid says the CPU supports,
// and when OpenBLAS fell short it unloads it, sets OPENBLAS_CORETYPE to the best core the CPU
// can run (SkylakeX, Haswell/Zen, Sandybridge) and loads it again. A user who sets
// OPENBLAS_CORETYPE keeps their choice. `onnxtool -v` prints which core is in use.
//
// Threads (the policy). The executor's pool (--threads) is the only source of parallelism:
// OpenBLAS is loaded with OPENBLAS_NUM_THREADS=1 and always runs single-threaded, and
// sgemm()/dgemm() given a KernelContext split large products into row or column blocks run on
// the pool. At no time do more than --threads threads compute, and no second, idle-spinning
// thread pool (OpenBLAS's) competes with ours. Called inside a parallel_for body, the same
// functions run on the calling thread only.
#pragma once

#include <cstdint>
#include <string>

namespace onnxtool {

class KernelContext;

namespace blas {

struct Info {
  bool loaded = false;         // OpenBLAS is in use (else the built-in loop)
  std::string library;         // the file dlopen found
  std::string config;          // openblas_get_config()
  std::string core;            // the core in use (openblas_get_corename())
  std::string detected;        // the core OpenBLAS chose by itself, before any correction
  std::string cpu_best;        // the best core cpuid allows ("" when nothing better than SSE)
  bool corrected = false;      // onnxtool reloaded OpenBLAS with OPENBLAS_CORETYPE=cpu_best
  bool user_coretype = false;  // OPENBLAS_CORETYPE was set by the user and was respected
  std::string note;            // why OpenBLAS is not in use, or what went wrong while correcting
};

// Loads OpenBLAS on first call (thread-safe); later calls return the same record.
const Info& info();
// One line for `-v`: "OpenBLAS 0.3.21 ... core SkylakeX (OpenBLAS chose Prescott; ...)".
std::string describe();

// Row-major C = alpha * op(A) * op(B) + beta * C, where op(A) is m x k and op(B) is k x n;
// lda/ldb/ldc are row strides of A, B, C as stored. Single-threaded.
void sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void dgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
           const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
           int64_t ldc);

// The same, split over the kernel's thread pool when the product is large enough.
void sgemm(const KernelContext& ctx, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
           float alpha, const float* a, int64_t lda, const float* b, int64_t ldb, float beta,
           float* c, int64_t ldc);
void dgemm(const KernelContext& ctx, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
           double alpha, const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
           double* c, int64_t ldc);

// The plain loops used when OpenBLAS is unavailable (and by tests, to check the fast path).
void reference_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                     const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                     int64_t ldc);
void reference_dgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                     const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                     double* c, int64_t ldc);

// ---- cpu detection (exposed for tests and -v) ------------------------------------------------

// The strongest OpenBLAS x86-64 core this CPU and OS can run, judged from cpuid and XCR0:
// "SkylakeX" (AVX-512 F/CD/BW/DQ/VL), "Haswell" or "Zen" (AVX2+FMA), "Sandybridge" (AVX), or ""
// (nothing better than the SSE cores, or not x86-64).
std::string best_core_for_cpu();
// How capable an OpenBLAS core name is, in the ISA levels above: 3 AVX-512, 2 AVX2, 1 AVX, 0 other.
int core_level(const std::string& core);

}  // namespace blas
}  // namespace onnxtool
