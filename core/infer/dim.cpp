// SPDX-License-Identifier: Apache-2.0
#include "core/infer/dim.h"

#include <algorithm>

namespace onnxtool {

Dim make_expr(std::string text) {
  Dim d;
  d.kind_ = Dim::Kind::symbol;
  d.symbol_ = std::move(text);
  return d;
}

Dim Dim::value(int64_t v) {
  Dim d;
  d.kind_ = Kind::value;
  d.value_ = v;
  return d;
}

Dim Dim::symbol(std::string name) {
  if (name.empty()) return Dim();
  return make_expr(std::move(name));
}

bool Dim::same_as(const Dim& other) const {
  if (kind_ != other.kind_ || kind_ == Kind::unknown) return false;
  return kind_ == Kind::value ? value_ == other.value_ : symbol_ == other.symbol_;
}

std::string Dim::to_string() const {
  switch (kind_) {
    case Kind::value: return std::to_string(value_);
    case Kind::symbol: return symbol_;
    case Kind::unknown: break;
  }
  return "?";
}

namespace {

// The operand's text, parenthesised when its operator binds looser than `context`.
std::string operand(const Dim& d, int own_precedence, int context) {
  std::string s = d.to_string();
  return own_precedence < context ? "(" + s + ")" : s;
}

int precedence_of(const Dim& d) {
  if (d.is_known()) return d.value() < 0 ? 1 : 3;
  const std::string& s = d.symbol();
  // Atoms (names, function calls) have no top-level operator.
  int depth = 0;
  int lowest = 3;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == '+' || c == '-')) lowest = std::min(lowest, 1);
    if (depth == 0 && (c == '*' || c == '/')) lowest = std::min(lowest, 2);
  }
  return lowest;
}

}  // namespace

Dim operator+(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known()) return Dim::value(a.value() + b.value());
  if (b.is_known() && b.value() == 0) return a;
  if (a.is_known() && a.value() == 0) return b;
  // Constants go last: "L+1", and a negative constant reads as subtraction: "L-1".
  const Dim& sym = a.is_known() ? b : a;
  const Dim& other = a.is_known() ? a : b;
  if (other.is_known())
    return make_expr(sym.to_string() + (other.value() < 0 ? "-" + std::to_string(-other.value())
                                                           : "+" + std::to_string(other.value())));
  return make_expr(a.to_string() + "+" + b.to_string());
}

Dim operator-(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (b.is_known()) return a + Dim::value(-b.value());
  if (a.same_as(b)) return Dim::value(0);
  return make_expr(a.to_string() + "-" + operand(b, precedence_of(b), 2));
}

Dim operator*(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) {
    // 0 times anything is 0, even unknown.
    if ((a.is_known() && a.value() == 0) || (b.is_known() && b.value() == 0)) return Dim::value(0);
    return Dim();
  }
  if (a.is_known() && b.is_known()) return Dim::value(a.value() * b.value());
  if (a.is_known() && a.value() == 1) return b;
  if (b.is_known() && b.value() == 1) return a;
  if ((a.is_known() && a.value() == 0) || (b.is_known() && b.value() == 0)) return Dim::value(0);
  // Symbols first, constant last: "N*3".
  const Dim& first = a.is_known() ? b : a;
  const Dim& second = a.is_known() ? a : b;
  return make_expr(operand(first, precedence_of(first), 2) + "*" +
                       operand(second, precedence_of(second), 3));
}

Dim floor_div(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known() && b.value() != 0) {
    int64_t q = a.value() / b.value();
    if ((a.value() % b.value() != 0) && ((a.value() < 0) != (b.value() < 0))) --q;
    return Dim::value(q);
  }
  if (b.is_known() && b.value() == 1) return a;
  return make_expr("floor(" + a.to_string() + "/" + b.to_string() + ")");
}

Dim ceil_div(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known() && b.value() != 0) {
    int64_t q = a.value() / b.value();
    if ((a.value() % b.value() != 0) && ((a.value() < 0) == (b.value() < 0))) ++q;
    return Dim::value(q);
  }
  if (b.is_known() && b.value() == 1) return a;
  return make_expr("ceil(" + a.to_string() + "/" + b.to_string() + ")");
}

Dim max_dim(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known()) return Dim::value(std::max(a.value(), b.value()));
  if (a.same_as(b)) return a;
  return make_expr("max(" + a.to_string() + "," + b.to_string() + ")");
}

Dim product(const std::vector<Dim>& dims) {
  Dim p = Dim::value(1);
  for (const auto& d : dims) p = p * d;
  return p;
}

std::string dims_to_string(const Dims& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + dims[i].to_string();
  return s + "]";
}

}  // namespace onnxtool
