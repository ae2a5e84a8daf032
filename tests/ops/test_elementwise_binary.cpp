// SPDX-License-Identifier: Apache-2.0
// The broadcasting families (ops/onnx/binary_math.cpp, comparison.cpp, logical.cpp, where.cpp)
// through the real Session: numpy broadcasting corners, the legacy broadcast/axis rule of opsets
// 1-6, integer semantics (wrapping, truncating division, Mod's fmod, Pow's mixed types,
// BitShift), variadic Sum/Mean/Max/Min, Where and the comparisons, and errors naming the node.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <limits>

#include "core/types/float_formats.h"
#include "tests/ops/test_elementwise_support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<float> iota(int64_t n, float start = 0) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = start++;
  return v;
}

// numpy's broadcasting, by hand: out[i] = a[ia] + b[ib] with multi-indices.
std::vector<float> add_by_hand(const Shape& out, const Shape& sa, const std::vector<float>& a,
                               const Shape& sb, const std::vector<float>& b) {
  int64_t n = 1;
  for (int64_t d : out) n *= d;
  std::vector<float> r;
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, ia = 0, ib = 0, stride_a = 1, stride_b = 1;
    for (std::size_t d = out.size(); d-- > 0;) {
      const int64_t c = rest % out[d];
      rest /= out[d];
      const std::size_t la = out.size() - sa.size(), lb = out.size() - sb.size();
      if (d >= la) {
        if (sa[d - la] != 1) ia += c * stride_a;
        stride_a *= sa[d - la];
      }
      if (d >= lb) {
        if (sb[d - lb] != 1) ib += c * stride_b;
        stride_b *= sb[d - lb];
      }
    }
    r.push_back(a[static_cast<std::size_t>(ia)] + b[static_cast<std::size_t>(ib)]);
  }
  return r;
}

void check_add(const Shape& sa, const Shape& sb, const Shape& out, int64_t opset = 21) {
  int64_t na = 1, nb = 1;
  for (int64_t d : sa) na *= d;
  for (int64_t d : sb) nb *= d;
  const auto a = iota(na), b = iota(nb, 100);
  const Tensor y = run_op("Add", {make<float>(sa, a), make<float>(sb, b)}, "", opset);
  CHECK(y.shape() == out);
  CHECK(elements<float>(y) == add_by_hand(out, sa, a, sb, b));
}

}  // namespace

TEST_CASE("Add broadcasts as numpy does: scalars, rank mismatch, size-1 dims, empty tensors") {
  check_add({2, 3}, {2, 3}, {2, 3});
  check_add({2, 3}, {}, {2, 3});
  check_add({}, {2, 3}, {2, 3});
  check_add({}, {}, {});
  check_add({2, 3, 4}, {4}, {2, 3, 4});
  check_add({2, 1, 4}, {3, 1}, {2, 3, 4});
  check_add({1, 3}, {2, 1}, {2, 3});
  check_add({2, 3, 4, 5}, {3, 1, 1}, {2, 3, 4, 5});
  check_add({5, 1, 3, 1}, {1, 4, 1, 6}, {5, 4, 3, 6});
  check_add({0, 3}, {3}, {0, 3});
  check_add({2, 0}, {1}, {2, 0});
  check_add({1}, {0}, {0});
  check_add({2, 3}, {2, 3}, {2, 3}, 7);
  check_add({2, 3}, {3}, {2, 3}, 13);
}

TEST_CASE("shapes that do not broadcast are an error naming the node and the shapes") {
  const std::string e = op_error("Add", {make<float>({2, 3}, iota(6)), make<float>({4}, iota(4))});
  CHECK(e.find("\"n\" (Add)") != std::string::npos);
  CHECK(e.find("[2,3] and [4] do not broadcast") != std::string::npos);
  CHECK(op_error("Equal", {make<int64_t>({0}, {}), make<int64_t>({2}, {1, 2})})
            .find("do not broadcast") != std::string::npos);
  CHECK(op_error("Where",
                 {make<bool>({2}, {true, false}), make<float>({3}, iota(3)), make<float>({1}, {0})})
            .find("[2], [3] and [1] do not broadcast") != std::string::npos);
}

TEST_CASE("Add, Sub, Mul on every numeric type, wrapping on integer overflow") {
  const int32_t big = std::numeric_limits<int32_t>::max();
  CHECK(elements<int32_t>(
            run_op("Add", {make<int32_t>({2}, {big, 1}), make<int32_t>({2}, {1, 2})})) ==
        std::vector<int32_t>{std::numeric_limits<int32_t>::min(), 3});
  CHECK(elements<uint8_t>(run_op("Add", {make<uint8_t>({1}, {250}), make<uint8_t>({1}, {10})})) ==
        std::vector<uint8_t>{4});
  CHECK(elements<int8_t>(run_op("Sub", {make<int8_t>({1}, {-128}), make<int8_t>({1}, {1})})) ==
        std::vector<int8_t>{127});
  CHECK(elements<uint16_t>(
            run_op("Mul", {make<uint16_t>({1}, {65535}), make<uint16_t>({1}, {65535})})) ==
        std::vector<uint16_t>{1});
  CHECK(elements<int64_t>(run_op("Mul", {make<int64_t>({2}, {3, -4}), make<int64_t>({}, {5})})) ==
        std::vector<int64_t>{15, -20});
  CHECK(elements<uint64_t>(run_op("Sub", {make<uint64_t>({1}, {0}), make<uint64_t>({1}, {1})})) ==
        std::vector<uint64_t>{~uint64_t{0}});
  CHECK(
      elements<double>(run_op("Sub", {make<double>({2}, {1.5, 2}), make<double>({2}, {0.5, 4})})) ==
      std::vector<double>{1, -2});
  const Tensor h = run_op("Mul", {make<Float16>({2}, {to_float16(1.5f), to_float16(-2.0f)}),
                                  make<Float16>({}, {to_float16(3.0f)})});
  CHECK(to_float(h.data<Float16>()[0]) == 4.5f);
  CHECK(to_float(h.data<Float16>()[1]) == -6.0f);
  const Tensor b = run_op(
      "Add", {make<BFloat16>({1}, {to_bfloat16(1.0f)}), make<BFloat16>({1}, {to_bfloat16(2.0f)})});
  CHECK(to_float(b.data<BFloat16>()[0]) == 3.0f);
  CHECK(op_error("Add", {make<float>({1}, {1}), make<double>({1}, {1})}).find("type") !=
        std::string::npos);
}

TEST_CASE("Add-1 and Add-6 broadcast B to A only with broadcast=1, at axis or as a suffix") {
  const Shape a{2, 3, 4, 5};
  check_add(a, a, a, 6);
  const auto av = iota(120);
  auto legacy = [&](const Shape& sb, const std::string& attrs, int64_t opset = 6) {
    int64_t nb = 1;
    for (int64_t d : sb) nb *= d;
    return run_op("Add", {make<float>(a, av), make<float>(sb, iota(nb, 100))}, attrs, opset);
  };
  // Scalar and one-element B.
  CHECK(elements<float>(legacy({}, "broadcast = 1")) == add_by_hand(a, a, av, {}, {100}));
  CHECK(elements<float>(legacy({1, 1}, "broadcast = 1")) == add_by_hand(a, a, av, {}, {100}));
  // Suffix matching.
  CHECK(elements<float>(legacy({5}, "broadcast = 1")) == add_by_hand(a, a, av, {5}, iota(5, 100)));
  CHECK(elements<float>(legacy({4, 5}, "broadcast = 1", 1)) ==
        add_by_hand(a, a, av, {4, 5}, iota(20, 100)));
  // axis: where B's dims start in A's (negative counts from the end).
  CHECK(elements<float>(legacy({3, 4}, "broadcast = 1, axis = 1")) ==
        add_by_hand(a, a, av, {3, 4, 1}, iota(12, 100)));
  CHECK(elements<float>(legacy({3, 4}, "broadcast = 1, axis = -3")) ==
        add_by_hand(a, a, av, {3, 4, 1}, iota(12, 100)));
  CHECK(elements<float>(legacy({2}, "broadcast = 1, axis = 0")) ==
        add_by_hand(a, a, av, {2, 1, 1, 1}, iota(2, 100)));
  // Without broadcast=1 the shapes must be equal; B must fit A where axis puts it.
  CHECK(
      op_error("Add", {make<float>(a, av), make<float>({5}, iota(5))}, "", 6).find("broadcast=1") !=
      std::string::npos);
  CHECK(op_error("Add", {make<float>(a, av), make<float>({3, 4}, iota(12))},
                 "broadcast = 1, axis = 3", 6)
            .find("does not fit") != std::string::npos);
  CHECK(op_error("Add", {make<float>(a, av), make<float>({3, 4}, iota(12))}, "broadcast = 1", 6)
            .find("does not match") != std::string::npos);
  // The other legacy operators share the rule.
  CHECK(elements<float>(
            run_op("Mul", {make<float>({2, 2}, {1, 2, 3, 4}), make<float>({2}, {10, 100})},
                   "broadcast = 1, axis = 0", 6)) == std::vector<float>{10, 20, 300, 400});
  CHECK(elements<bool>(run_op("Greater",
                              {make<float>({2, 2}, {1, 2, 3, 4}), make<float>({2}, {2, 2})},
                              "broadcast = 1", 1)) == std::vector<bool>{false, false, true, true});
  CHECK(elements<bool>(run_op(
            "And", {make<bool>({2, 2}, {true, true, false, true}), make<bool>({2}, {true, false})},
            "broadcast = 1", 1)) == std::vector<bool>{true, false, false, false});
  CHECK(elements<float>(run_op("Pow", {make<float>({2, 2}, {1, 2, 3, 4}), make<float>({}, {2})},
                               "broadcast = 1", 1)) == std::vector<float>{1, 4, 9, 16});
}

TEST_CASE("Div: integers truncate toward zero, a zero divisor is an error, floats follow IEEE") {
  CHECK(elements<int32_t>(run_op(
            "Div", {make<int32_t>({4}, {7, -7, 7, -7}), make<int32_t>({4}, {2, 2, -2, -2})})) ==
        std::vector<int32_t>{3, -3, -3, 3});
  const int64_t lo = std::numeric_limits<int64_t>::min();
  CHECK(elements<int64_t>(run_op("Div", {make<int64_t>({1}, {lo}), make<int64_t>({1}, {-1})})) ==
        std::vector<int64_t>{lo});
  CHECK(elements<uint8_t>(run_op("Div", {make<uint8_t>({1}, {200}), make<uint8_t>({1}, {7})})) ==
        std::vector<uint8_t>{28});
  const std::string e = op_error("Div", {make<int32_t>({2}, {1, 2}), make<int32_t>({2}, {1, 0})});
  CHECK(e.find("\"n\" (Div)") != std::string::npos);
  CHECK(e.find("division by zero") != std::string::npos);
  const Tensor f = run_op("Div", {make<float>({3}, {1, -1, 0}), make<float>({}, {0})});
  CHECK(f.data<float>()[0] == kInf);
  CHECK(f.data<float>()[1] == -kInf);
  CHECK(std::isnan(f.data<float>()[2]));
}

TEST_CASE("Mod: fmod=0 takes the divisor's sign, fmod=1 the dividend's") {
  const Tensor a = make<int32_t>({6}, {-4, 7, 5, 4, -7, 8});
  const Tensor b = make<int32_t>({6}, {2, -3, 8, -2, 3, 5});
  CHECK(elements<int32_t>(run_op("Mod", {a, b})) == std::vector<int32_t>{0, -2, 5, 0, 2, 3});
  CHECK(elements<int32_t>(run_op("Mod", {a, b}, "fmod = 1")) ==
        std::vector<int32_t>{0, 1, 5, 0, -1, 3});
  const Tensor f = run_op("Mod",
                          {make<float>({6}, {-4.3f, 7.2f, 5.0f, 4.3f, -7.2f, 8.0f}),
                           make<float>({6}, {2.1f, -3.4f, 8.0f, -2.1f, 3.4f, 5.0f})},
                          "fmod = 1");
  const std::vector<float> want{-0.1f, 0.4f, 5.0f, 0.1f, -0.4f, 3.0f};
  for (std::size_t i = 0; i < 6; ++i) CHECK(f.data<float>()[i] == doctest::Approx(want[i]));
  // fmod=0 on floats: Python's %.
  const Tensor p = run_op("Mod", {make<double>({2}, {-4.5, 4.5}), make<double>({2}, {2, -2})});
  CHECK(elements<double>(p) == std::vector<double>{1.5, -1.5});
  CHECK(elements<uint8_t>(run_op("Mod", {make<uint8_t>({2}, {7, 200}), make<uint8_t>({}, {5})})) ==
        std::vector<uint8_t>{2, 0});
  CHECK(elements<int8_t>(run_op("Mod", {make<int8_t>({1}, {-128}), make<int8_t>({1}, {-1})})) ==
        std::vector<int8_t>{0});
  CHECK(op_error("Mod", {make<int64_t>({1}, {3}), make<int64_t>({1}, {0})}).find("by zero") !=
        std::string::npos);
  CHECK(std::isnan(run_op("Mod", {make<float>({1}, {kInf}), make<float>({1}, {2})}, "fmod = 1")
                       .data<float>()[0]));
}

TEST_CASE("Pow: exact integers, mixed base and exponent types, x^2 as x*x") {
  CHECK(elements<int32_t>(
            run_op("Pow", {make<int32_t>({3}, {2, 3, -2}), make<int32_t>({3}, {3, 2, 3})})) ==
        std::vector<int32_t>{8, 9, -8});
  CHECK(elements<int64_t>(run_op(
            "Pow", {make<int64_t>({4}, {2, 1, -1, -1}), make<int64_t>({4}, {-1, -5, -3, -2})})) ==
        std::vector<int64_t>{0, 1, -1, 1});
  CHECK(elements<int64_t>(run_op("Pow", {make<int64_t>({1}, {3}), make<int64_t>({1}, {40})})) ==
        std::vector<int64_t>{static_cast<int64_t>(12157665459056928801ull)});  // wraps
  // Pow-12 on: the exponent may have another type.
  CHECK(elements<float>(
            run_op("Pow", {make<float>({3}, {2, 4, 9}), make<int64_t>({3}, {3, -1, 0})})) ==
        std::vector<float>{8, 0.25f, 1});
  CHECK(elements<int32_t>(
            run_op("Pow", {make<int32_t>({2}, {2, 10}), make<float>({2}, {0.5f, 2})})) ==
        std::vector<int32_t>{1, 100});
  CHECK(elements<double>(run_op("Pow", {make<double>({1}, {2}), make<uint8_t>({1}, {10})})) ==
        std::vector<double>{1024});
  const Tensor h = run_op("Pow", {make<Float16>({1}, {to_float16(3.0f)}), make<int32_t>({1}, {2})});
  CHECK(to_float(h.data<Float16>()[0]) == 9.0f);
  // The x^2 shortcut agrees with pow, NaN and infinities included.
  const std::vector<float> x{-3.5f, 0.0f, -0.0f, 1e20f, kInf, -kInf, kNaN, 1.0000001f};
  const Tensor sq = run_op("Pow", {make<float>({8}, x), make<float>({}, {2})});
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float want = std::pow(x[i], 2.0f);
    const float got = sq.data<float>()[i];
    CHECK((std::isnan(want) ? std::isnan(got) : got == want));
  }
  CHECK(op_error("Pow", {make<int32_t>({1}, {0}), make<int32_t>({1}, {-1})}).find("negative") !=
        std::string::npos);
}

TEST_CASE("Sum, Mean, Max, Min take one or more inputs and broadcast them all (opset 8 on)") {
  const Tensor a = make<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor b = make<float>({3}, {10, 20, 30});
  const Tensor c = make<float>({}, {100});
  CHECK(elements<float>(run_op("Sum", {a, b, c})) ==
        std::vector<float>{111, 122, 133, 114, 125, 136});
  CHECK(elements<float>(run_op("Mean", {a, b, c})) ==
        std::vector<float>{37, 122.0f / 3, 133.0f / 3, 38, 125.0f / 3, 136.0f / 3});
  CHECK(elements<float>(run_op("Max", {a, make<float>({2, 1}, {3, 4})})) ==
        std::vector<float>{3, 3, 3, 4, 5, 6});
  CHECK(elements<float>(run_op("Min", {b, a})) == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(elements<float>(run_op("Sum", {a})) == elements<float>(a));
  CHECK(elements<float>(run_op("Mean", {c})) == std::vector<float>{100});
  CHECK(run_op("Sum", {make<float>({0, 3}, {}), b}).shape() == Shape{0, 3});
  // A scalar output when every input is one.
  CHECK(run_op("Max", {c, make<float>({}, {3})}).shape().empty());
  // NaN wins in Max and Min, as in numpy.
  const Tensor m = run_op("Max", {make<float>({2}, {kNaN, 1}), make<float>({2}, {1, kNaN})});
  CHECK(std::isnan(m.data<float>()[0]));
  CHECK(std::isnan(m.data<float>()[1]));
  // Max-12 and Min-12 take integers.
  CHECK(elements<int8_t>(run_op("Max", {make<int8_t>({3}, {-5, 0, 7}), make<int8_t>({}, {1})})) ==
        std::vector<int8_t>{1, 1, 7});
  CHECK(elements<uint64_t>(
            run_op("Min", {make<uint64_t>({2}, {5, 9}), make<uint64_t>({2}, {7, 3})})) ==
        std::vector<uint64_t>{5, 3});
  const Tensor h = run_op(
      "Mean", {make<Float16>({1}, {to_float16(1.0f)}), make<Float16>({1}, {to_float16(2.0f)})});
  CHECK(to_float(h.data<Float16>()[0]) == 1.5f);
  // Before opset 8 the shapes must be equal.
  CHECK(elements<float>(run_op("Sum", {a, a}, "", 6)) == std::vector<float>{2, 4, 6, 8, 10, 12});
  CHECK(op_error("Sum", {a, b}, "", 6).find("equal shapes") != std::string::npos);
  CHECK(op_error("Max", {a, b}, "", 1).find("equal shapes") != std::string::npos);
}

TEST_CASE("comparisons give bool; NaN equals nothing; Equal takes bool and strings") {
  const Tensor x = make<float>({4}, {1, 2, kNaN, 4});
  const Tensor y = make<float>({}, {2});
  CHECK(elements<bool>(run_op("Equal", {x, y})) == std::vector<bool>{false, true, false, false});
  CHECK(elements<bool>(run_op("Less", {x, y})) == std::vector<bool>{true, false, false, false});
  CHECK(elements<bool>(run_op("LessOrEqual", {x, y})) ==
        std::vector<bool>{true, true, false, false});
  CHECK(elements<bool>(run_op("Greater", {x, y})) == std::vector<bool>{false, false, false, true});
  CHECK(elements<bool>(run_op("GreaterOrEqual", {x, y})) ==
        std::vector<bool>{false, true, false, true});
  CHECK(elements<bool>(run_op("Equal", {x, x})) == std::vector<bool>{true, true, false, true});
  CHECK(elements<bool>(run_op(
            "Less", {make<uint64_t>({2}, {1, ~uint64_t{0}}), make<uint64_t>({2}, {2, 0})})) ==
        std::vector<bool>{true, false});
  CHECK(
      elements<bool>(run_op("Equal", {make<bool>({2}, {true, false}), make<bool>({1}, {false})})) ==
      std::vector<bool>{false, true});
  CHECK(elements<bool>(run_op("Equal", {make<int64_t>({2, 1}, {1, 2}), make<int64_t>({2}, {1, 2})},
                              "", 7)) == std::vector<bool>{true, false, false, true});
  const Tensor s = Tensor::from_strings({2, 2}, {"a", "b", "c", "a"});
  const Tensor t = Tensor::from_strings({2}, {"a", "b"});
  CHECK(elements<bool>(run_op("Equal", {s, t})) == std::vector<bool>{true, true, false, false});
  const Tensor h = make<Float16>({2}, {to_float16(1.0f), to_float16(3.0f)});
  CHECK(elements<bool>(run_op("Greater", {h, make<Float16>({}, {to_float16(2.0f)})})) ==
        std::vector<bool>{false, true});
}

TEST_CASE("And, Or, Xor broadcast bools; Bitwise operators on every integer type") {
  const Tensor a = make<bool>({2, 2}, {false, false, true, true});
  const Tensor b = make<bool>({2}, {false, true});
  CHECK(elements<bool>(run_op("And", {a, b})) == std::vector<bool>{false, false, false, true});
  CHECK(elements<bool>(run_op("Or", {a, b})) == std::vector<bool>{false, true, true, true});
  CHECK(elements<bool>(run_op("Xor", {a, b})) == std::vector<bool>{false, true, true, false});
  CHECK(elements<uint8_t>(
            run_op("BitwiseAnd", {make<uint8_t>({2}, {0xF0, 0xFF}), make<uint8_t>({}, {0x3C})})) ==
        std::vector<uint8_t>{0x30, 0x3C});
  CHECK(elements<int16_t>(
            run_op("BitwiseOr", {make<int16_t>({2}, {-32768, 1}), make<int16_t>({2}, {1, 2})})) ==
        std::vector<int16_t>{-32767, 3});
  CHECK(elements<int64_t>(
            run_op("BitwiseXor", {make<int64_t>({1}, {-1}), make<int64_t>({1}, {5})})) ==
        std::vector<int64_t>{-6});
}

TEST_CASE("BitShift moves bits LEFT or RIGHT; a shift past the width gives 0") {
  const Tensor x = make<uint8_t>({4}, {1, 4, 255, 16});
  const Tensor s = make<uint8_t>({4}, {1, 2, 1, 8});
  CHECK(elements<uint8_t>(run_op("BitShift", {x, s}, "direction = \"LEFT\"")) ==
        std::vector<uint8_t>{2, 16, 254, 0});
  CHECK(elements<uint8_t>(run_op("BitShift", {x, s}, "direction = \"RIGHT\"")) ==
        std::vector<uint8_t>{0, 1, 127, 0});
  CHECK(elements<uint16_t>(run_op("BitShift",
                                  {make<uint16_t>({1}, {0xFFFF}), make<uint16_t>({}, {15})},
                                  "direction = \"LEFT\"")) == std::vector<uint16_t>{0x8000});
  CHECK(elements<uint64_t>(
            run_op("BitShift", {make<uint64_t>({2}, {1, 1}), make<uint64_t>({2}, {63, 64})},
                   "direction = \"LEFT\"")) == std::vector<uint64_t>{uint64_t{1} << 63, 0});
  CHECK(elements<uint32_t>(run_op("BitShift",
                                  {make<uint32_t>({1}, {0x80000000u}), make<uint32_t>({1}, {31})},
                                  "direction = \"RIGHT\"")) == std::vector<uint32_t>{1});
  CHECK(op_error("BitShift", {x, s}, "direction = \"UP\"").find("direction") != std::string::npos);
}

TEST_CASE("Where picks from X or Y with all three inputs broadcast, for every type") {
  const Tensor c = make<bool>({2, 1}, {true, false});
  CHECK(elements<float>(run_op("Where", {c, make<float>({3}, {1, 2, 3}), make<float>({}, {0})})) ==
        std::vector<float>{1, 2, 3, 0, 0, 0});
  CHECK(elements<int64_t>(run_op("Where", {make<bool>({}, {false}), make<int64_t>({2}, {1, 2}),
                                           make<int64_t>({2}, {3, 4})})) ==
        std::vector<int64_t>{3, 4});
  const Tensor s =
      run_op("Where", {make<bool>({2}, {true, false}), Tensor::from_strings({2}, {"a", "b"}),
                       Tensor::from_strings({}, {"z"})});
  CHECK(s.strings() == std::vector<std::string>{"a", "z"});
  CHECK(elements<bool>(run_op("Where", {c, make<bool>({1}, {true}), make<bool>({1}, {false})})) ==
        std::vector<bool>{true, false});
  const Tensor z = run_op(
      "Where", {make<bool>({2}, {false, true}), make<std::complex<double>>({2}, {{1, 2}, {3, 4}}),
                make<std::complex<double>>({2}, {{5, 6}, {7, 8}})});
  CHECK(elements<std::complex<double>>(z) == std::vector<std::complex<double>>{{5, 6}, {3, 4}});
  const Tensor h = run_op("Where", {make<bool>({1}, {true}), make<Float16>({1}, {to_float16(2.5f)}),
                                    make<Float16>({1}, {to_float16(1.0f)})});
  CHECK(to_float(h.data<Float16>()[0]) == 2.5f);
  CHECK(run_op("Where", {make<bool>({0}, {}), make<float>({1}, {1}), make<float>({1}, {2})})
            .shape() == Shape{0});
}
