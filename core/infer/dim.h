// SPDX-License-Identifier: Apache-2.0
// A dimension as inference sees it: a known value, a symbol (dim_param) or an expression over
// symbols ("N*3", "L+1", "ceil(H/2)"), or unknown. Arithmetic folds what is known and keeps a
// small canonical expression otherwise, so two paths computing the same size agree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onnxtool {

class Dim {
 public:
  Dim() = default;  // unknown
  static Dim value(int64_t v);
  static Dim symbol(std::string name);  // an empty name gives unknown

  bool is_known() const { return kind_ == Kind::value; }
  bool is_symbolic() const { return kind_ == Kind::symbol; }
  bool is_unknown() const { return kind_ == Kind::unknown; }
  int64_t value() const { return value_; }  // only when is_known()
  const std::string& symbol() const { return symbol_; }
  std::optional<int64_t> known() const {
    return is_known() ? std::optional<int64_t>(value_) : std::nullopt;
  }

  // Same known value or same symbol text; unknown equals nothing (not even unknown).
  bool same_as(const Dim& other) const;
  std::string to_string() const;  // "3", "N", "?"

  friend Dim operator+(const Dim& a, const Dim& b);
  friend Dim operator-(const Dim& a, const Dim& b);
  friend Dim operator*(const Dim& a, const Dim& b);
  friend bool operator==(const Dim& a, const Dim& b) { return a.same_as(b); }

 private:
  enum class Kind { unknown, value, symbol };
  Kind kind_ = Kind::unknown;
  int64_t value_ = 0;
  std::string symbol_;
  friend Dim make_expr(std::string text);
};

// floor(a / b) and ceil(a / b), b > 0 when known.
Dim floor_div(const Dim& a, const Dim& b);
Dim ceil_div(const Dim& a, const Dim& b);
Dim max_dim(const Dim& a, const Dim& b);  // max(a, b), "max(A,B)" when symbolic
// Product of all dims (unknown if any is unknown).
Dim product(const std::vector<Dim>& dims);

using Dims = std::vector<Dim>;
std::string dims_to_string(const Dims& dims);  // "[N,3,?]"

}  // namespace onnxtool
