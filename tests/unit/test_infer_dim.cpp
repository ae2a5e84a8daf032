// SPDX-License-Identifier: Apache-2.0
// Dim: folding, canonical symbolic expressions, parsing dim_params back.
#include <doctest/doctest.h>

#include "core/infer/dim.h"

using namespace onnxtool;

namespace {
Dim S(const char* s) {
  return Dim::symbol(s);
}
Dim V(int64_t v) {
  return Dim::value(v);
}
}  // namespace

TEST_CASE("dim: known values fold, unknown stays unknown") {
  CHECK((V(2) + V(3)).value() == 5);
  CHECK((V(2) * V(3)).value() == 6);
  CHECK((V(2) - V(3)).value() == -1);
  CHECK(floor_div(V(7), V(2)).value() == 3);
  CHECK(floor_div(V(-7), V(2)).value() == -4);
  CHECK(ceil_div(V(7), V(2)).value() == 4);
  CHECK((Dim() + V(1)).is_unknown());
  CHECK((Dim() * V(0)).value() == 0);  // 0 times anything is 0
  CHECK(floor_div(V(1), V(0)).is_unknown());
  CHECK((V(INT64_MAX) + V(1)).is_unknown());  // overflow gives up rather than wrapping
  CHECK_FALSE(Dim() == Dim());
}

TEST_CASE("dim: equal expressions from different paths have one canonical text") {
  CHECK((S("N") * V(3)).to_string() == "N*3");
  CHECK((V(3) * S("N")) == (S("N") * V(3)));
  CHECK(((S("N") + V(1)) + V(2)) == (S("N") + V(3)));
  CHECK((S("L") + V(1)).to_string() == "L+1");
  CHECK((S("L") - V(1)).to_string() == "L-1");
  CHECK((S("A") * S("B")) == (S("B") * S("A")));
  CHECK((S("N") - S("N")).value() == 0);
  CHECK((S("N") * V(2) + S("N")).to_string() == "N*3");
  CHECK((V(5) - S("N")).to_string() == "5-N");
  CHECK(((S("H") + V(1)) * V(2)).to_string() == "H*2+2");
  CHECK(((S("H") * S("W")) - V(1)).to_string() == "H*W-1");
}

TEST_CASE("dim: floor and ceil division are canonical") {
  const Dim H = S("H");
  CHECK(ceil_div(H, V(2)).to_string() == "ceil(H/2)");
  // A stride-2 3x3 convolution with pads 1: floor((H+2-3)/2)+1 is ceil(H/2).
  CHECK(floor_div(H + V(2) - V(3), V(2)) + V(1) == ceil_div(H, V(2)));
  CHECK(floor_div(H, V(2)).to_string() == "floor(H/2)");
  CHECK(floor_div(H * V(4), V(2)).to_string() == "H*2");
  CHECK(floor_div(H * V(2) + S("W"), V(2)).to_string() == "H+floor(W/2)");
  CHECK(floor_div(H + V(5), V(2)).to_string() == "ceil(H/2)+2");
  CHECK(floor_div(H + V(4), V(3)).to_string() == "floor((H+1)/3)+1");
  CHECK(floor_div(H + V(1), V(3)).to_string() == "floor((H+1)/3)");
  CHECK(floor_div(H, V(1)) == H);
  CHECK(floor_div(H, S("K")).to_string() == "floor(H/K)");
  CHECK(max_dim(S("A"), S("B")) == max_dim(S("B"), S("A")));
  CHECK(max_dim(S("A"), S("A")) == S("A"));
  CHECK(min_dim(V(2), V(3)).value() == 2);
}

TEST_CASE("dim: dim_params parse into the same expressions") {
  CHECK(S("N*3") == S("N") * V(3));
  CHECK(S("3*N") == S("N*3"));
  CHECK(S("ceil(H/2)") == ceil_div(S("H"), V(2)));
  CHECK(S("floor((H+1)/2)") == ceil_div(S("H"), V(2)));
  CHECK(S("max(B,A)").to_string() == "max(A,B)");
  CHECK(S("batch_size").is_plain_symbol());
  CHECK_FALSE(S("N+1").is_plain_symbol());
  // Not an expression: one opaque name, as written.
  CHECK(S("seq len").to_string() == "seq len");
  CHECK(S("f(x)").to_string() == "f(x)");
  // A numeric dim_param is still a symbol, not that number.
  CHECK(S("1").is_symbolic());
  CHECK(S("").is_unknown());
  CHECK(S("unk__12").to_string() == "unk__12");
}

TEST_CASE("dim: substitution, solving and exact division") {
  auto n_is_2 = [](const std::string& n) -> std::optional<Dim> {
    return n == "N" ? std::optional<Dim>(Dim::value(2)) : std::nullopt;
  };
  CHECK((S("N") * V(3)).substitute(n_is_2).value() == 6);
  CHECK(ceil_div(S("N") + S("M"), V(2)).substitute(n_is_2) == ceil_div(S("M") + V(2), V(2)));
  CHECK(S("N+1").solve_for(5) == std::make_pair(std::string("N"), int64_t{4}));
  CHECK(S("N*3").solve_for(9) == std::make_pair(std::string("N"), int64_t{3}));
  CHECK_FALSE(S("N*3").solve_for(10).has_value());
  CHECK_FALSE(S("N*M").solve_for(10).has_value());
  CHECK(exact_div(S("N") * S("C") * V(4), S("C") * V(2)).value() == S("N") * V(2));
  CHECK(exact_div(V(12), V(4)).value().value() == 3);
  CHECK_FALSE(exact_div(S("N"), S("C")).has_value());
  CHECK((S("N") * S("C") + S("M")).symbol_names() == std::vector<std::string>{"C", "M", "N"});
  CHECK(dims_to_string({V(1), S("N"), Dim()}) == "[1,N,?]");
}
