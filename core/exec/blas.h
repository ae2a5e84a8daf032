// SPDX-License-Identifier: Apache-2.0
// Matrix multiplication for kernels, and what -v and `run --json` say about it.
//
// The products. By default every product runs on onnxtool's own kernels (core/kernels/gemm.h),
// which sum each element in one fixed order: the answer does not depend on the CPU's vector
// width, the thread count, the element's position in C, or any BLAS library's choice of kernel.
// OpenBLAS computes only when ONNXTOOL_GEMM=openblas asks for it (to compare or measure); its
// kernels ("cores") sum in orders that differ from core to core and, within one core, between
// the rows of an edge block, so two identical output channels can differ by more than rounding.
//
// Loading. OpenBLAS is still loaded, so that -v can say which core it runs and whether the user
// chose it. It picks its core once, in the constructor that runs when the library is loaded,
// from cpuid or from OPENBLAS_CORETYPE. Debian 12's 0.3.21 does not know every recent CPU and
// then falls back to "Prescott" (SSE3) kernels. So onnxtool does not link OpenBLAS: it loads it
// with dlopen on first use, compares the core OpenBLAS chose with what cpuid says the CPU
// supports, and when OpenBLAS fell short it unloads it, sets OPENBLAS_CORETYPE to the best core
// the CPU can run (SkylakeX, Haswell/Zen, Sandybridge) and loads it again. A user who sets
// OPENBLAS_CORETYPE keeps their choice; -v notes when it is slower than the CPU allows.
// blas.cpp is the only file that includes cblas.h.
//
// Threads (the policy). The executor's pool (--threads) is the only source of parallelism:
// OpenBLAS is loaded with OPENBLAS_NUM_THREADS=1, and sgemm()/dgemm() given a KernelContext
// split large products into row or column blocks run on the pool (which changes no result: the
// order is per element). Called inside a parallel_for body, they run on the calling thread only.
#pragma once

#include <cstdint>
#include <string>

#include "core/kernels/gemm.h"

namespace onnxtool {

class KernelContext;

namespace blas {

struct Info {
  std::string gemm;               // who computes the products: "onnxtool" or "openblas"
  std::string simd;               // the onnxtool kernels' variant: avx512, avx2 or scalar
  bool loaded = false;            // OpenBLAS was found and loaded
  std::string library;            // the file dlopen found
  std::string config;             // openblas_get_config()
  std::string core;               // the core in use (openblas_get_corename())
  std::string detected;           // the core OpenBLAS chose by itself, before any correction
  std::string cpu_best;           // the best core cpuid allows ("" when nothing better than SSE)
  bool corrected = false;         // onnxtool reloaded OpenBLAS with OPENBLAS_CORETYPE=cpu_best
  bool user_coretype = false;     // OPENBLAS_CORETYPE was set by the user and was respected
  bool user_core_slower = false;  // ... and names a core less capable than the CPU allows
  std::string note;               // why OpenBLAS is not in use, or what went wrong while correcting
};

// Loads OpenBLAS on first call (thread-safe); later calls return the same record.
const Info& info();
// One line for `-v`: "matrix products: onnxtool avx512 kernels ...; OpenBLAS core SkylakeX ...".
std::string describe();
// Logs describe() at info level (-v), and once per process, when OPENBLAS_CORETYPE forces a
// core slower than the CPU allows, a line that says so.
void log_choice();

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

// Whether kernels should pack constant operands at planning (kernels::PackedA): onnxtool's
// SIMD kernels compute the products (not OpenBLAS, and not the scalar reference).
bool packed_products();

// The scalar definition of the products' order (core/kernels/gemm.h), for tests.
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
