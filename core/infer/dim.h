// SPDX-License-Identifier: Apache-2.0
// A dimension as inference sees it: a known value, a symbol (dim_param) or an expression over
// symbols ("N*3", "L+1", "ceil(H/2)"), or unknown. Arithmetic folds what is known and keeps a
// canonical expression otherwise, so two paths computing the same size agree: N*3 and 3*N,
// (N+1)+2 and N+3, floor((H-1)/2)+1 and ceil(H/2) each give one text.
//
// Canonical form: a sum of terms, each an integer coefficient times a product of atoms; atoms
// are symbol names and the opaque operations floor(A/B), max(A,B), min(A,B) (ceil(A/c) is
// floor((A+c-1)/c), written back as ceil when that reads better). Terms are ordered by their
// atoms' text, positive ones first, the constant last among its sign: "N*3", "L+1", "H*W-1".
// A dim_param read from a model is parsed with the same grammar (so a written "N*3" reads back
// as the same expression); a name that does not parse ("seq len") is one atom as it stands.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace onnxtool {

struct DimExpr;  // the canonical expression of a symbolic dim (dim.cpp)

class Dim {
 public:
  Dim() = default;  // unknown
  static Dim value(int64_t v);
  // A dim_param: parsed as an expression when it is one, else a single atom; "" gives unknown.
  static Dim symbol(std::string name);

  bool is_known() const { return kind_ == Kind::value; }
  bool is_symbolic() const { return kind_ == Kind::symbol; }
  bool is_unknown() const { return kind_ == Kind::unknown; }
  int64_t value() const { return value_; }  // only when is_known()
  // The canonical text (the dim_param to write); only when is_symbolic().
  const std::string& symbol() const;
  std::optional<int64_t> known() const {
    return is_known() ? std::optional<int64_t>(value_) : std::nullopt;
  }

  // Same known value or same canonical expression; unknown equals nothing (not even unknown).
  bool same_as(const Dim& other) const;
  std::string to_string() const;  // "3", "N", "N*3", "?"

  // A single symbol name (not an expression): "N" is, "N+1" is not.
  bool is_plain_symbol() const;
  // The symbol names the expression mentions (inside floor/max/min too), sorted, unique.
  std::vector<std::string> symbol_names() const;
  // Replaces symbol names for which `f` gives a dim and refolds: N*3 with N=2 gives 6.
  Dim substitute(const std::function<std::optional<Dim>(const std::string&)>& f) const;
  // When the expression is c*N+k with one symbol N, the value of N that makes it equal `v`
  // (if integral): "N+1" = 5 gives {"N", 4}. Lets a constant meeting an expression bind it.
  std::optional<std::pair<std::string, int64_t>> solve_for(int64_t v) const;

  friend Dim operator+(const Dim& a, const Dim& b);
  friend Dim operator-(const Dim& a, const Dim& b);
  friend Dim operator*(const Dim& a, const Dim& b);
  friend bool operator==(const Dim& a, const Dim& b) { return a.same_as(b); }

 private:
  enum class Kind { unknown, value, symbol };
  Kind kind_ = Kind::unknown;
  int64_t value_ = 0;
  std::shared_ptr<const DimExpr> expr_;
  friend struct DimAccess;  // dim.cpp builds symbolic dims from expressions
};

// floor(a / b) and ceil(a / b), b > 0 when known; unknown when b is 0.
Dim floor_div(const Dim& a, const Dim& b);
Dim ceil_div(const Dim& a, const Dim& b);
// a / b when b divides a exactly as expressions: N*C*4 / (C*2) is N*2, 12 / 4 is 3; nullopt
// otherwise (Reshape's -1 over symbolic sizes). b must be known or a single term.
std::optional<Dim> exact_div(const Dim& a, const Dim& b);
Dim max_dim(const Dim& a, const Dim& b);  // max(a, b), "max(A,B)" when symbolic
Dim min_dim(const Dim& a, const Dim& b);  // min(a, b), "min(A,B)" when symbolic
// Product of all dims (unknown if any is unknown, unless one is 0).
Dim product(const std::vector<Dim>& dims);

using Dims = std::vector<Dim>;
std::string dims_to_string(const Dims& dims);  // "[N,3,?]"

}  // namespace onnxtool
