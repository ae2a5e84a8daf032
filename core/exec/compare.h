// SPDX-License-Identifier: Apache-2.0
// Comparing computed values with expected ones, as the ONNX backend test suite does:
// |actual - expected| <= atol + rtol * |expected| for floating-point elements (complex: on the
// magnitude), NaN equal to NaN, infinities equal when identical; exact for integers, bools and
// strings. Sequences and optionals compare element by element; maps by keys and values.
#pragma once

#include <cstdint>
#include <string>

#include "core/types/value.h"

namespace onnxtool {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

struct Comparison {
  bool ok = true;
  // Set when the values cannot be compared element-wise (kind, type, shape, length differ).
  std::string structural;
  int64_t elements = 0;    // compared elements
  int64_t mismatches = 0;  // elements outside the tolerance
  double max_abs_err = 0;  // over all elements (inf when a NaN or inf disagrees)
  double max_rel_err = 0;  // over elements whose expected value is not 0
  // The first element outside the tolerance: where (flat index, prefixed by the sequence
  // element when nested) and both values as text.
  std::string first_where, first_actual, first_expected;
  // Real floating-point elements: NaN and infinity counts on each side, and the sums behind
  // the cosine similarity of the finite pairs.
  int64_t nan_actual = 0, inf_actual = 0, nan_expected = 0, inf_expected = 0;
  double dot = 0, norm2_actual = 0, norm2_expected = 0;
  double norm2_difference = 0;  // sum of (actual - expected)^2 over the finite pairs
  bool floating = false;        // some elements were real floating-point

  // The cosine of the angle between the two as vectors (1: same direction); NaN when not
  // floating. Two zero vectors count as the same (1), one zero vector as unrelated (0).
  double cosine() const;
  // |actual - expected| / |expected| as vectors (L2 norms) over the finite pairs: 0 when equal;
  // NaN when not floating, infinity when expected is all zeros and actual is not.
  double relative_l2() const;

  // "3 of 1000 elements differ (max abs err 0.02, max rel err 0.5); first at [17]: 0.5 vs 0.7",
  // or the structural problem.
  std::string summary() const;
};

Comparison compare_values(const Value& actual, const Value& expected, const Tolerance& tol = {});

// An element as text, for messages and summaries ("0.5", "true", "\"abc\"", "1+2i");
// floating-point values with `digits` significant digits (9 tells every float apart).
std::string element_text(const Tensor& t, int64_t index, int digits = 9);

}  // namespace onnxtool
