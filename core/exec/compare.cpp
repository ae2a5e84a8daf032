// SPDX-License-Identifier: Apache-2.0
#include "core/exec/compare.h"

#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "core/types/element.h"
#include "core/types/float_formats.h"

namespace onnxtool {

namespace {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};

template <class T>
constexpr bool is_floating_v = std::is_floating_point_v<T> || is_narrow_float_v<T>;

// Sub-byte integers are structs holding `value`.
template <class T>
auto plain_value(T v) {
  if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> || std::is_same_v<T, Int2> ||
                std::is_same_v<T, UInt2>)
    return v.value;
  else
    return v;
}

template <class T>
double as_double(T v) {
  if constexpr (is_narrow_float_v<T>)
    return static_cast<double>(to_float(v));
  else
    return static_cast<double>(plain_value(v));
}

std::string number(double v, int digits = 9) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Records one element's errors; returns whether it is within tolerance.
bool account(Comparison& c, double abs_err, double expected_mag, bool equal_special,
             const Tolerance& tol) {
  if (equal_special) return true;
  if (std::isnan(abs_err)) abs_err = std::numeric_limits<double>::infinity();
  c.max_abs_err = std::max(c.max_abs_err, abs_err);
  if (expected_mag != 0 && std::isfinite(expected_mag))
    c.max_rel_err = std::max(c.max_rel_err, abs_err / expected_mag);
  return abs_err <= tol.atol + tol.rtol * expected_mag;
}

template <class T>
bool element_close(const T& a, const T& e, Comparison& c, const Tolerance& tol) {
  if constexpr (std::is_same_v<T, std::string>) {
    return a == e;
  } else if constexpr (is_complex<T>::value) {
    const bool nan_both = (std::isnan(a.real()) || std::isnan(a.imag())) &&
                          (std::isnan(e.real()) || std::isnan(e.imag()));
    return account(c, std::abs(std::complex<double>(a) - std::complex<double>(e)),
                   std::abs(std::complex<double>(e)), nan_both || a == e, tol);
  } else if constexpr (is_floating_v<T>) {
    const double x = as_double(a), y = as_double(e);
    const bool same = (std::isnan(x) && std::isnan(y)) || x == y;  // incl. equal infinities
    // An infinity matches only itself (the tolerance of an infinite value would be infinite).
    if (!same && (std::isinf(x) || std::isinf(y))) {
      account(c, std::numeric_limits<double>::infinity(), std::fabs(y), false, tol);
      return false;
    }
    return account(c, std::fabs(x - y), std::fabs(y), same, tol);
  } else {
    const double x = as_double(a), y = as_double(e);
    if (x == y) return true;
    account(c, std::fabs(x - y), std::fabs(y), false, tol);
    return false;  // integers and bools compare exactly
  }
}

// NaN and infinity counts and the cosine sums, for one pair of real floating-point elements.
void account_floats(double x, double y, Comparison& c) {
  c.nan_actual += std::isnan(x) ? 1 : 0;
  c.inf_actual += std::isinf(x) ? 1 : 0;
  c.nan_expected += std::isnan(y) ? 1 : 0;
  c.inf_expected += std::isinf(y) ? 1 : 0;
  if (!std::isfinite(x) || !std::isfinite(y)) return;
  c.dot += x * y;
  c.norm2_actual += x * x;
  c.norm2_expected += y * y;
  c.norm2_difference += (x - y) * (x - y);
}

void compare_tensors(const Tensor& a, const Tensor& e, const Tolerance& tol,
                     const std::string& where, Comparison& c) {
  if (a.dtype() != e.dtype()) {
    c.ok = false;
    c.structural = where + "has type " + std::string(type_name(a.dtype())) + ", expected " +
                   std::string(type_name(e.dtype()));
    return;
  }
  if (a.shape() != e.shape()) {
    c.ok = false;
    c.structural = where + "has shape " + shape_to_string(a.shape()) + ", expected " +
                   shape_to_string(e.shape());
    return;
  }
  c.elements += a.numel();
  visit_type(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < a.numel(); ++i) {
      const auto k = static_cast<std::size_t>(i);
      bool close = false;
      if constexpr (std::is_same_v<T, std::string>) {
        close = element_close(a.strings()[k], e.strings()[k], c, tol);
      } else {
        close = element_close(a.data<T>()[k], e.data<T>()[k], c, tol);
        if constexpr (is_floating_v<T>) {
          c.floating = true;
          account_floats(as_double(a.data<T>()[k]), as_double(e.data<T>()[k]), c);
        }
      }
      if (close) continue;
      if (c.mismatches++ == 0) {
        c.first_where = where + "[" + std::to_string(i) + "]";
        c.first_actual = element_text(a, i);
        c.first_expected = element_text(e, i);
      }
    }
  });
  if (c.mismatches) c.ok = false;
}

void compare_into(const Value& a, const Value& e, const Tolerance& tol, const std::string& where,
                  Comparison& c) {
  auto structural = [&](const std::string& why) {
    c.ok = false;
    if (c.structural.empty()) c.structural = where + why;
  };
  if (a.kind() != e.kind()) return structural("is " + a.describe() + ", expected " + e.describe());
  switch (e.kind()) {
    case Value::Kind::none:
      return;
    case Value::Kind::tensor:
      return compare_tensors(a.tensor(), e.tensor(), tol, where, c);
    case Value::Kind::map:
      compare_tensors(a.map_keys(), e.map_keys(), Tolerance{0, 0}, where + "keys", c);
      return compare_tensors(a.map_values(), e.map_values(), tol, where + "values", c);
    case Value::Kind::sequence:
      if (a.items().size() != e.items().size())
        return structural("has " + std::to_string(a.items().size()) + " elements, expected " +
                          std::to_string(e.items().size()));
      for (std::size_t i = 0; i < e.items().size(); ++i)
        compare_into(a.items()[i], e.items()[i], tol, where + "element " + std::to_string(i) + " ",
                     c);
      return;
  }
}

}  // namespace

std::string element_text(const Tensor& t, int64_t index, int digits) {
  if (index < 0 || index >= t.numel()) return "?";
  const auto k = static_cast<std::size_t>(index);
  return visit_type(t.dtype(), [&](auto tag) -> std::string {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>)
      return "\"" + t.strings()[k] + "\"";
    else if constexpr (std::is_same_v<T, bool>)
      return t.data<bool>()[k] ? "true" : "false";
    else if constexpr (is_complex<T>::value)
      return number(static_cast<double>(t.data<T>()[k].real()), digits) + "+" +
             number(static_cast<double>(t.data<T>()[k].imag()), digits) + "i";
    else if constexpr (is_floating_v<T>)
      return number(as_double(t.data<T>()[k]), digits);
    else
      return std::to_string(plain_value(t.data<T>()[k]));
  });
}

double Comparison::cosine() const {
  if (!floating) return std::numeric_limits<double>::quiet_NaN();
  if (norm2_actual == 0 && norm2_expected == 0) return 1;
  if (norm2_actual == 0 || norm2_expected == 0) return 0;
  return dot / std::sqrt(norm2_actual * norm2_expected);
}

double Comparison::relative_l2() const {
  if (!floating) return std::numeric_limits<double>::quiet_NaN();
  if (norm2_difference == 0) return 0;
  if (norm2_expected == 0) return std::numeric_limits<double>::infinity();
  return std::sqrt(norm2_difference / norm2_expected);
}

std::string Comparison::summary() const {
  if (!structural.empty()) return structural;
  std::string errors =
      "max abs err " + short_number(max_abs_err) + ", max rel err " + short_number(max_rel_err);
  if (ok) return "all " + std::to_string(elements) + " elements match (" + errors + ")";
  return std::to_string(mismatches) + " of " + std::to_string(elements) + " elements differ (" +
         errors + "); first at " + first_where + ": " + first_actual + ", expected " +
         first_expected;
}

Comparison compare_values(const Value& actual, const Value& expected, const Tolerance& tol) {
  Comparison c;
  compare_into(actual, expected, tol, "", c);
  return c;
}

}  // namespace onnxtool
