// SPDX-License-Identifier: Apache-2.0
#include "core/infer/dim.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace onnxtool {

// ---- representation ------------------------------------------------------------------------

// An atom: a symbol name, or an operation kept opaque (floor division, max, min).
struct DimAtom {
  enum class Op { name, floor, max, min };
  Op op = Op::name;
  std::string text;  // canonical text, also the sort key
  Dim a, b;          // operands of floor/max/min
};
using AtomPtr = std::shared_ptr<const DimAtom>;

// coef * atoms[0] * atoms[1] ...; atoms sorted by text; the constant term has no atoms.
struct DimTerm {
  int64_t coef = 0;
  std::vector<AtomPtr> atoms;
  std::string key;  // atoms' texts joined by '*'
};

struct DimExpr {
  std::vector<DimTerm> terms;  // sorted by key, no zero coefficients, at least one atom somewhere
  std::string text;
};

using Poly = std::vector<DimTerm>;

struct DimAccess {
  static Dim from_expr(std::shared_ptr<const DimExpr> e) {
    Dim d;
    d.kind_ = Dim::Kind::symbol;
    d.expr_ = std::move(e);
    return d;
  }
  static const DimExpr* expr(const Dim& d) { return d.expr_.get(); }
};

namespace {

bool add_overflows(int64_t a, int64_t b, int64_t& out) {
  return __builtin_add_overflow(a, b, &out);
}
bool mul_overflows(int64_t a, int64_t b, int64_t& out) {
  return __builtin_mul_overflow(a, b, &out);
}

std::string make_key(const std::vector<AtomPtr>& atoms) {
  std::string key;
  for (const auto& a : atoms) key += (key.empty() ? "" : "*") + a->text;
  return key;
}

DimTerm make_term(int64_t coef, std::vector<AtomPtr> atoms) {
  std::sort(atoms.begin(), atoms.end(),
            [](const AtomPtr& x, const AtomPtr& y) { return x->text < y->text; });
  DimTerm t{coef, std::move(atoms), {}};
  t.key = make_key(t.atoms);
  return t;
}

// The polynomial of a known or symbolic dim (caller checks it is not unknown).
Poly poly_of(const Dim& d) {
  if (d.is_known()) return d.value() == 0 ? Poly{} : Poly{DimTerm{d.value(), {}, {}}};
  return DimAccess::expr(d)->terms;
}

// Merges terms with equal keys and drops zeros; false on overflow.
bool normalize(Poly& p) {
  std::sort(p.begin(), p.end(), [](const DimTerm& x, const DimTerm& y) { return x.key < y.key; });
  Poly out;
  for (auto& t : p) {
    if (!out.empty() && out.back().key == t.key) {
      if (add_overflows(out.back().coef, t.coef, out.back().coef)) return false;
    } else {
      out.push_back(std::move(t));
    }
  }
  std::erase_if(out, [](const DimTerm& t) { return t.coef == 0; });
  p = std::move(out);
  return true;
}

std::string term_text(const DimTerm& t) {
  const int64_t mag = t.coef < 0 ? -t.coef : t.coef;
  if (t.atoms.empty()) return std::to_string(mag);
  return mag == 1 ? t.key : t.key + "*" + std::to_string(mag);
}

// Positive terms first (constant last among them), then negative ones: "H*W-1", "5-N".
std::string poly_text(const Poly& p) {
  std::vector<const DimTerm*> order;
  for (int pass = 0; pass < 2; ++pass) {
    const bool positive = pass == 0;
    const DimTerm* constant = nullptr;
    for (const auto& t : p) {
      if ((t.coef > 0) != positive) continue;
      if (t.atoms.empty())
        constant = &t;
      else
        order.push_back(&t);
    }
    if (constant) order.push_back(constant);
  }
  std::string s;
  for (const DimTerm* t : order) {
    if (t->coef < 0)
      s += "-";
    else if (!s.empty())
      s += "+";
    s += term_text(*t);
  }
  return s;
}

Dim from_poly(Poly p) {
  if (!normalize(p)) return Dim();
  if (p.empty()) return Dim::value(0);
  if (p.size() == 1 && p[0].atoms.empty()) return Dim::value(p[0].coef);
  auto e = std::make_shared<DimExpr>();
  e->text = poly_text(p);
  e->terms = std::move(p);
  return DimAccess::from_expr(std::move(e));
}

Dim from_atom(AtomPtr atom) {
  Poly p{make_term(1, {std::move(atom)})};
  return from_poly(std::move(p));
}

// Text of a dim as an operand: parenthesised when it is a sum or negative.
std::string operand_text(const Dim& d) {
  std::string s = d.to_string();
  if (d.is_known()) return d.value() < 0 ? "(" + s + ")" : s;
  const auto& terms = DimAccess::expr(d)->terms;
  const bool simple = terms.size() == 1 && terms[0].coef > 0;
  return simple ? s : "(" + s + ")";
}

AtomPtr name_atom(std::string name) {
  auto a = std::make_shared<DimAtom>();
  a->op = DimAtom::Op::name;
  a->text = std::move(name);
  return a;
}

// floor(num / c) with 0 <= num's constant < c and gcd(coefficients, c) == 1; written as ceil
// when the constant is c-1: floor((A+c-1)/c) == ceil(A/c).
AtomPtr floor_atom(const Dim& num, const Dim& den) {
  auto a = std::make_shared<DimAtom>();
  a->op = DimAtom::Op::floor;
  a->a = num;
  a->b = den;
  if (den.is_known() && num.is_symbolic()) {
    const int64_t c = den.value();
    int64_t constant = 0;
    for (const auto& t : DimAccess::expr(num)->terms)
      if (t.atoms.empty()) constant = t.coef;
    if (constant == c - 1 && c > 1) {
      a->text = "ceil(" + operand_text(num - Dim::value(c - 1)) + "/" + std::to_string(c) + ")";
      return a;
    }
  }
  a->text = "floor(" + operand_text(num) + "/" + operand_text(den) + ")";
  return a;
}

AtomPtr minmax_atom(DimAtom::Op op, const Dim& x, const Dim& y) {
  auto a = std::make_shared<DimAtom>();
  a->op = op;
  const bool swap = y.to_string() < x.to_string();  // commutative: a canonical order
  a->a = swap ? y : x;
  a->b = swap ? x : y;
  a->text = std::string(op == DimAtom::Op::max ? "max(" : "min(") + a->a.to_string() + "," +
            a->b.to_string() + ")";
  return a;
}

int64_t floor_mod(int64_t a, int64_t c) {
  int64_t r = a % c;
  return r < 0 ? r + c : r;
}

// floor(num / c) for a known c > 0 and symbolic num, canonical: whole multiples of c move out
// of the floor, the constant left inside is in [0, c), and a common factor is cancelled.
Dim floor_div_by_constant(const Dim& num, int64_t c) {
  Poly outside, inside;
  int64_t constant = 0;
  for (const auto& t : DimAccess::expr(num)->terms) {
    if (t.atoms.empty())
      constant = t.coef;
    else if (t.coef % c == 0)
      outside.push_back(DimTerm{t.coef / c, t.atoms, t.key});
    else
      inside.push_back(t);
  }
  const int64_t rem = floor_mod(constant, c);
  outside.push_back(DimTerm{(constant - rem) / c, {}, {}});
  if (inside.empty()) return from_poly(std::move(outside));
  int64_t g = std::gcd(c, rem);
  for (const auto& t : inside) g = std::gcd(g, t.coef);
  for (auto& t : inside) t.coef /= g;
  if (rem) inside.push_back(DimTerm{rem / g, {}, {}});
  const Dim reduced = from_poly(std::move(inside));
  if (reduced.is_unknown()) return Dim();
  return from_poly(std::move(outside)) + from_atom(floor_atom(reduced, Dim::value(c / g)));
}

}  // namespace

// ---- Dim -----------------------------------------------------------------------------------

Dim Dim::value(int64_t v) {
  Dim d;
  d.kind_ = Kind::value;
  d.value_ = v;
  return d;
}

const std::string& Dim::symbol() const {
  static const std::string kEmpty;
  return expr_ ? expr_->text : kEmpty;
}

bool Dim::same_as(const Dim& other) const {
  if (kind_ != other.kind_ || kind_ == Kind::unknown) return false;
  return kind_ == Kind::value ? value_ == other.value_ : symbol() == other.symbol();
}

std::string Dim::to_string() const {
  switch (kind_) {
    case Kind::value:
      return std::to_string(value_);
    case Kind::symbol:
      return symbol();
    case Kind::unknown:
      break;
  }
  return "?";
}

bool Dim::is_plain_symbol() const {
  if (!is_symbolic()) return false;
  const auto& t = expr_->terms;
  return t.size() == 1 && t[0].coef == 1 && t[0].atoms.size() == 1 &&
         t[0].atoms[0]->op == DimAtom::Op::name;
}

namespace {
void collect_names(const Dim& d, std::vector<std::string>& out) {
  if (!d.is_symbolic()) return;
  for (const auto& t : DimAccess::expr(d)->terms)
    for (const auto& a : t.atoms) {
      if (a->op == DimAtom::Op::name) out.push_back(a->text);
      collect_names(a->a, out);
      collect_names(a->b, out);
    }
}
}  // namespace

std::vector<std::string> Dim::symbol_names() const {
  std::vector<std::string> out;
  collect_names(*this, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {
Dim substitute_atom(const DimAtom& a,
                    const std::function<std::optional<Dim>(const std::string&)>& f) {
  switch (a.op) {
    case DimAtom::Op::name: {
      auto r = f(a.text);
      return r ? *r : Dim::symbol(a.text);
    }
    case DimAtom::Op::floor:
      return floor_div(a.a.substitute(f), a.b.substitute(f));
    case DimAtom::Op::max:
      return max_dim(a.a.substitute(f), a.b.substitute(f));
    case DimAtom::Op::min:
      return min_dim(a.a.substitute(f), a.b.substitute(f));
  }
  return Dim();
}
}  // namespace

Dim Dim::substitute(const std::function<std::optional<Dim>(const std::string&)>& f) const {
  if (!is_symbolic()) return *this;
  Dim sum = Dim::value(0);
  for (const auto& t : expr_->terms) {
    Dim term = Dim::value(t.coef);
    for (const auto& a : t.atoms) term = term * substitute_atom(*a, f);
    sum = sum + term;
  }
  return sum;
}

std::optional<std::pair<std::string, int64_t>> Dim::solve_for(int64_t v) const {
  if (!is_symbolic()) return std::nullopt;
  int64_t coef = 0, constant = 0;
  const DimAtom* atom = nullptr;
  for (const auto& t : expr_->terms) {
    if (t.atoms.empty()) {
      constant = t.coef;
    } else {
      if (atom || t.atoms.size() != 1 || t.atoms[0]->op != DimAtom::Op::name) return std::nullopt;
      atom = t.atoms[0].get();
      coef = t.coef;
    }
  }
  int64_t rest = 0;
  if (!atom || __builtin_sub_overflow(v, constant, &rest) || rest % coef != 0) return std::nullopt;
  return std::make_pair(atom->text, rest / coef);
}

// ---- arithmetic ----------------------------------------------------------------------------

Dim operator+(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known()) {
    int64_t r = 0;
    return add_overflows(a.value(), b.value(), r) ? Dim() : Dim::value(r);
  }
  Poly p = poly_of(a);
  Poly q = poly_of(b);
  p.insert(p.end(), q.begin(), q.end());
  return from_poly(std::move(p));
}

Dim operator-(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known()) {
    int64_t r = 0;
    return __builtin_sub_overflow(a.value(), b.value(), &r) ? Dim() : Dim::value(r);
  }
  Poly q = poly_of(b);
  for (auto& t : q) {
    if (t.coef == INT64_MIN) return Dim();
    t.coef = -t.coef;
  }
  Poly p = poly_of(a);
  p.insert(p.end(), q.begin(), q.end());
  return from_poly(std::move(p));
}

Dim operator*(const Dim& a, const Dim& b) {
  // 0 times anything is 0, even unknown.
  if ((a.is_known() && a.value() == 0) || (b.is_known() && b.value() == 0)) return Dim::value(0);
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known()) {
    int64_t r = 0;
    return mul_overflows(a.value(), b.value(), r) ? Dim() : Dim::value(r);
  }
  Poly out;
  for (const auto& x : poly_of(a))
    for (const auto& y : poly_of(b)) {
      int64_t c = 0;
      if (mul_overflows(x.coef, y.coef, c)) return Dim();
      std::vector<AtomPtr> atoms = x.atoms;
      atoms.insert(atoms.end(), y.atoms.begin(), y.atoms.end());
      out.push_back(make_term(c, std::move(atoms)));
    }
  return from_poly(std::move(out));
}

Dim floor_div(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (b.is_known()) {
    int64_t c = b.value();
    if (c == 0) return Dim();
    if (a.is_known()) {
      if (a.value() == INT64_MIN && c == -1) return Dim();
      int64_t q = a.value() / c;
      if ((a.value() % c != 0) && ((a.value() < 0) != (c < 0))) --q;
      return Dim::value(q);
    }
    if (c < 0) return c == INT64_MIN ? Dim() : floor_div(Dim::value(0) - a, Dim::value(-c));
    return c == 1 ? a : floor_div_by_constant(a, c);
  }
  if (a.is_known() && a.value() == 0) return a;
  return from_atom(floor_atom(a, b));
}

Dim ceil_div(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (b.is_known() && b.value() < 0) return ceil_div(Dim::value(0) - a, Dim::value(0) - b);
  // ceil(a/b) == floor((a+b-1)/b) for b > 0: one canonical form for both.
  return floor_div(a + b - Dim::value(1), b);
}

namespace {
// Removes one occurrence of each of `divisor`'s atoms from `atoms`; false if one is missing.
bool remove_atoms(std::vector<AtomPtr>& atoms, const std::vector<AtomPtr>& divisor) {
  for (const auto& d : divisor) {
    auto it = std::find_if(atoms.begin(), atoms.end(),
                           [&](const AtomPtr& x) { return x->text == d->text; });
    if (it == atoms.end()) return false;
    atoms.erase(it);
  }
  return true;
}
}  // namespace

std::optional<Dim> exact_div(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return std::nullopt;
  if (b.is_known() && b.value() == 0) return std::nullopt;
  if (a.is_known() && a.value() == 0) return a;
  Poly divisor = poly_of(b);
  if (divisor.size() != 1) return std::nullopt;
  const DimTerm& d = divisor[0];
  Poly out;
  for (const auto& t : poly_of(a)) {
    if (t.coef % d.coef != 0) return std::nullopt;
    std::vector<AtomPtr> atoms = t.atoms;
    if (!remove_atoms(atoms, d.atoms)) return std::nullopt;
    out.push_back(make_term(t.coef / d.coef, std::move(atoms)));
  }
  Dim q = from_poly(std::move(out));
  return q.is_unknown() ? std::nullopt : std::optional<Dim>(q);
}

Dim max_dim(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known()) return Dim::value(std::max(a.value(), b.value()));
  if (a.same_as(b)) return a;
  return from_atom(minmax_atom(DimAtom::Op::max, a, b));
}

Dim min_dim(const Dim& a, const Dim& b) {
  if (a.is_unknown() || b.is_unknown()) return Dim();
  if (a.is_known() && b.is_known()) return Dim::value(std::min(a.value(), b.value()));
  if (a.same_as(b)) return a;
  return from_atom(minmax_atom(DimAtom::Op::min, a, b));
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

// ---- parsing dim_params --------------------------------------------------------------------

namespace {

// Recursive descent over  expr := term (('+'|'-') term)* ;  term := unary ('*' unary)* ;
// unary := '-' unary | primary ;  primary := INT | NAME | NAME '(' args ')' | '(' expr ')'
// with floor(e/e), ceil(e/e), max(e,e), min(e,e). Any other text is not an expression.
class DimParser {
 public:
  explicit DimParser(const std::string& s) : s_(s) {}

  std::optional<Dim> parse() {
    auto d = expr();
    skip_spaces();
    if (!d || pos_ != s_.size()) return std::nullopt;
    return d;
  }

 private:
  static bool is_name_char(char c) {
    return !std::isspace(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '*' &&
           c != '/' && c != '(' && c != ')' && c != ',';
  }
  void skip_spaces() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool eat(char c) {
    skip_spaces();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  std::optional<Dim> expr() {
    auto d = term();
    while (d) {
      if (eat('+')) {
        auto r = term();
        if (!r) return std::nullopt;
        d = *d + *r;
      } else if (eat('-')) {
        auto r = term();
        if (!r) return std::nullopt;
        d = *d - *r;
      } else {
        break;
      }
    }
    return d;
  }

  std::optional<Dim> term() {
    auto d = unary();
    while (d && eat('*')) {
      auto r = unary();
      if (!r) return std::nullopt;
      d = *d * *r;
    }
    return d;
  }

  std::optional<Dim> unary() {
    if (eat('-')) {
      auto d = unary();
      return d ? std::optional<Dim>(Dim::value(0) - *d) : std::nullopt;
    }
    return primary();
  }

  std::optional<Dim> number() {
    int64_t v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      if (mul_overflows(v, 10, v) || add_overflows(v, s_[pos_] - '0', v)) return std::nullopt;
      ++pos_;
    }
    if (pos_ < s_.size() && is_name_char(s_[pos_])) return std::nullopt;  // "3x"
    return Dim::value(v);
  }

  std::optional<Dim> call(const std::string& name) {
    auto x = expr();
    if (!x) return std::nullopt;
    const bool division = name == "floor" || name == "ceil";
    if (!eat(division ? '/' : ',')) return std::nullopt;
    auto y = expr();
    if (!y || !eat(')')) return std::nullopt;
    if (name == "floor") return floor_div(*x, *y);
    if (name == "ceil") return ceil_div(*x, *y);
    return name == "max" ? max_dim(*x, *y) : min_dim(*x, *y);
  }

  std::optional<Dim> primary() {
    skip_spaces();
    if (pos_ >= s_.size()) return std::nullopt;
    if (eat('(')) {
      auto d = expr();
      return d && eat(')') ? d : std::nullopt;
    }
    if (std::isdigit(static_cast<unsigned char>(s_[pos_]))) return number();
    std::size_t start = pos_;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    if (pos_ == start) return std::nullopt;
    std::string name = s_.substr(start, pos_ - start);
    if (pos_ < s_.size() && s_[pos_] == '(') {
      if (name != "floor" && name != "ceil" && name != "max" && name != "min") return std::nullopt;
      ++pos_;
      return call(name);
    }
    return from_atom(name_atom(std::move(name)));
  }

  const std::string& s_;
  std::size_t pos_ = 0;
};

}  // namespace

Dim Dim::symbol(std::string name) {
  if (name.empty()) return Dim();
  auto parsed = DimParser(name).parse();
  // A dim_param that is just a number ("1") stays a name: it is a symbol, not that value.
  if (parsed && parsed->is_symbolic()) return *parsed;
  return from_atom(name_atom(std::move(name)));
}

}  // namespace onnxtool
