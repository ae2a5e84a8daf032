// SPDX-License-Identifier: Apache-2.0
// Cast, CastLike and BitCast (ops/onnx/cast.cpp) through the real Session: every pair of the 24
// types Cast-25 allows against a reference written here, saturate on and off, float8e8m0's
// round_mode, the 4- and 2-bit integers, NaN and infinities, strings both ways, and BitCast's
// reinterpretation.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "core/types/float_formats.h"
#include "tests/ops/test_elementwise_support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

const std::vector<DataType> kNumbers{DataType::uint8,
                                     DataType::uint16,
                                     DataType::uint32,
                                     DataType::uint64,
                                     DataType::int8,
                                     DataType::int16,
                                     DataType::int32,
                                     DataType::int64,
                                     DataType::bfloat16,
                                     DataType::float16,
                                     DataType::float32,
                                     DataType::float64,
                                     DataType::boolean,
                                     DataType::float8e4m3fn,
                                     DataType::float8e4m3fnuz,
                                     DataType::float8e5m2,
                                     DataType::float8e5m2fnuz,
                                     DataType::uint4,
                                     DataType::int4,
                                     DataType::float4e2m1,
                                     DataType::float8e8m0,
                                     DataType::uint2,
                                     DataType::int2};

// The value of element i of a tensor of any number type, as a double.
double value_at(const Tensor& t, int64_t i) {
  return visit_type(t.dtype(), [&](auto tag) -> double {
    using T = decltype(tag);
    const T& v = t.data<T>()[i];
    if constexpr (is_narrow_float_v<T>)
      return to_float(v);
    else if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> ||
                       std::is_same_v<T, Int2> || std::is_same_v<T, UInt2>)
      return v.value;
    else if constexpr (std::is_arithmetic_v<T>)
      return static_cast<double>(v);
    else
      return 0;
  });
}

// The reference: x (exact in the source type) as the target type stores it, for values the spec
// defines (in range of an integer target).
double reference(double x, DataType to) {
  switch (to) {
    case DataType::boolean:
      return x != 0;
    case DataType::float32:
      return static_cast<float>(x);
    case DataType::float64:
      return x;
    case DataType::float16:
      return to_float(to_float16(x));
    case DataType::bfloat16:
      return to_float(to_bfloat16(x));
    case DataType::float8e4m3fn:
      return to_float(to_float8e4m3fn(x));
    case DataType::float8e4m3fnuz:
      return to_float(to_float8e4m3fnuz(x));
    case DataType::float8e5m2:
      return to_float(to_float8e5m2(x));
    case DataType::float8e5m2fnuz:
      return to_float(to_float8e5m2fnuz(x));
    case DataType::float8e8m0:
      return to_float(to_float8e8m0(x));
    case DataType::float4e2m1:
      return to_float(to_float4e2m1(x));
    case DataType::int4:
      return std::nearbyint(std::clamp(x, -8.0, 7.0));
    case DataType::uint4:
      return std::nearbyint(std::clamp(x, 0.0, 15.0));
    case DataType::int2:
      return std::nearbyint(std::clamp(x, -2.0, 1.0));
    case DataType::uint2:
      return std::nearbyint(std::clamp(x, 0.0, 3.0));
    default:
      return std::trunc(x);
  }
}

bool fits_integer(double x, DataType t) {
  const auto bits = type_info(t).bits;
  const bool is_signed = type_info(t).cls == TypeClass::signed_int;
  if (bits < 8) return true;  // the small integers saturate: defined everywhere
  const double hi = std::ldexp(1.0, is_signed ? bits - 1 : bits);
  return std::trunc(x) < hi && std::trunc(x) >= (is_signed ? -hi : 0);
}

// A tensor of type t holding those of `candidates` it represents exactly (and, for an integer
// target, holds in range).
Tensor source_values(DataType t, DataType to, std::vector<double>& kept) {
  const std::vector<double> candidates{0,  1,  -1,  2,    0.5, -2.5, 3,     6,  7,
                                       -8, 12, 100, -100, 0.1, 1000, 60000, 1e6};
  kept.clear();
  for (double c : candidates) {
    if (is_integer(to) && !fits_integer(c, to)) continue;
    if (t == DataType::boolean) {
      if (c == 0 || c == 1) kept.push_back(c);
      continue;
    }
    if (is_integer(t) && !(c == std::trunc(c) && fits_integer(c, t))) continue;
    if (is_integer(t) && type_info(t).bits < 8) {
      const double lo =
          type_info(t).cls == TypeClass::signed_int ? -std::ldexp(1.0, type_info(t).bits - 1) : 0;
      const double hi = type_info(t).cls == TypeClass::signed_int
                            ? std::ldexp(1.0, type_info(t).bits - 1) - 1
                            : std::ldexp(1.0, type_info(t).bits) - 1;
      if (c < lo || c > hi) continue;
    }
    if (is_float(t) && reference(c, t) != c) continue;
    kept.push_back(c);
  }
  Tensor x(t, {static_cast<int64_t>(kept.size())});
  visit_type(t, [&](auto tag) {
    using T = decltype(tag);
    T* p = x.mutable_data<T>();
    for (std::size_t i = 0; i < kept.size(); ++i) {
      if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> ||
                    std::is_same_v<T, Int2> || std::is_same_v<T, UInt2>)
        p[i] = T{static_cast<decltype(T{}.value)>(kept[i])};
      else if constexpr (is_narrow_float_v<T>)
        p[i] = narrow_float<T>(kept[i]);
      else if constexpr (std::is_arithmetic_v<T>)
        p[i] = static_cast<T>(kept[i]);
    }
  });
  return x;
}

std::string cast_attr(DataType to) {
  return "to = " + std::to_string(static_cast<int>(to));
}

}  // namespace

TEST_CASE("Cast converts every pair of number types as the reference does") {
  int pairs = 0;
  for (DataType from : kNumbers) {
    for (DataType to : kNumbers) {
      CAPTURE(type_name(from));
      CAPTURE(type_name(to));
      std::vector<double> kept;
      const Tensor x = source_values(from, to, kept);
      const Tensor y = run_op("Cast", {x}, cast_attr(to), 25);
      REQUIRE(y.dtype() == to);
      REQUIRE(y.shape() == x.shape());
      for (int64_t i = 0; i < x.numel(); ++i) {
        CAPTURE(kept[static_cast<std::size_t>(i)]);
        CHECK(value_at(y, i) == reference(kept[static_cast<std::size_t>(i)], to));
      }
      ++pairs;
    }
  }
  CHECK(pairs == 23 * 23);
}

TEST_CASE("Cast to float8 saturates by default and gives NaN or inf with saturate=0") {
  const Tensor x = make<float>({5}, {1e6f, -1e6f, kInf, -kInf, kNaN});
  auto values = [](const Tensor& y) {
    std::vector<double> v;
    for (int64_t i = 0; i < y.numel(); ++i) v.push_back(value_at(y, i));
    return v;
  };
  const auto sat = values(run_op("Cast", {x}, cast_attr(DataType::float8e4m3fn), 19));
  CHECK(sat[0] == 448);
  CHECK(sat[1] == -448);
  CHECK(sat[2] == 448);
  CHECK(sat[3] == -448);
  CHECK(std::isnan(sat[4]));
  const auto nosat =
      values(run_op("Cast", {x}, cast_attr(DataType::float8e4m3fn) + ", saturate = 0", 19));
  for (double v : nosat) CHECK(std::isnan(v));
  const auto e5 =
      values(run_op("Cast", {x}, cast_attr(DataType::float8e5m2) + ", saturate = 0", 19));
  CHECK(e5[0] == kInf);
  CHECK(e5[1] == -kInf);
  CHECK(e5[2] == kInf);
  const auto e5sat = values(run_op("Cast", {x}, cast_attr(DataType::float8e5m2), 19));
  CHECK(e5sat[0] == 57344);
  const auto fnuz = values(
      run_op("Cast", {make<float>({2}, {-0.0f, 1e-9f})}, cast_attr(DataType::float8e4m3fnuz), 19));
  CHECK(fnuz[0] == 0);
  CHECK(!std::signbit(fnuz[0]));  // no negative zero in the FNUZ formats
  // float16 to float8 goes through the same rules.
  const Tensor h = make<Float16>({1}, {to_float16(1000.0f)});
  CHECK(value_at(run_op("Cast", {h}, cast_attr(DataType::float8e4m3fn), 19), 0) == 448);
}

TEST_CASE("Cast to float8e8m0 rounds as round_mode says") {
  const Tensor x = make<float>({4}, {3.0f, 2.9f, 4.0f, 0.3f});
  auto run = [&](const std::string& mode) {
    const Tensor y = run_op(
        "Cast", {x}, cast_attr(DataType::float8e8m0) + ", round_mode = \"" + mode + "\"", 25);
    std::vector<double> v;
    for (int64_t i = 0; i < 4; ++i) v.push_back(value_at(y, i));
    return v;
  };
  CHECK(run("up") == std::vector<double>{4, 4, 4, 0.5});
  CHECK(run("down") == std::vector<double>{2, 2, 4, 0.25});
  CHECK(run("nearest") == std::vector<double>{4, 2, 4, 0.25});
  CHECK(op_error("Cast", {x}, cast_attr(DataType::float8e8m0) + ", round_mode = \"odd\"", 25)
            .find("round_mode") != std::string::npos);
}

TEST_CASE("Cast from float: truncation, bool, infinities; between integers: the low bits") {
  CHECK(elements<int32_t>(run_op("Cast", {make<float>({4}, {2.7f, -2.7f, 0.5f, -0.5f})},
                                 cast_attr(DataType::int32))) == std::vector<int32_t>{2, -2, 0, 0});
  CHECK(elements<int8_t>(run_op("Cast", {make<int32_t>({3}, {300, -129, 127})},
                                cast_attr(DataType::int8))) == std::vector<int8_t>{44, 127, 127});
  CHECK(elements<uint8_t>(run_op("Cast", {make<int64_t>({2}, {-1, 256})},
                                 cast_attr(DataType::uint8))) == std::vector<uint8_t>{255, 0});
  CHECK(elements<uint16_t>(run_op("Cast", {make<int8_t>({1}, {-1})},
                                  cast_attr(DataType::uint16))) == std::vector<uint16_t>{65535});
  CHECK(elements<bool>(run_op("Cast", {make<float>({4}, {0.0f, -0.0f, kNaN, 0.1f})},
                              cast_attr(DataType::boolean))) ==
        std::vector<bool>{false, false, true, true});
  CHECK(elements<float>(run_op("Cast", {make<bool>({2}, {true, false})},
                               cast_attr(DataType::float32))) == std::vector<float>{1, 0});
  CHECK(elements<uint64_t>(
            run_op("Cast", {make<double>({1}, {1e19})}, cast_attr(DataType::uint64))) ==
        std::vector<uint64_t>{10000000000000000000ull});
  // Out of range the spec says nothing: the result is defined (what x86 gives), never a crash.
  CHECK(elements<int64_t>(
            run_op("Cast", {make<float>({2}, {kNaN, 1e30f})}, cast_attr(DataType::int64))) ==
        std::vector<int64_t>{std::numeric_limits<int64_t>::min(),
                             std::numeric_limits<int64_t>::min()});
  const Tensor big =
      run_op("Cast", {make<double>({2}, {1e300, -1e300})}, cast_attr(DataType::float32));
  CHECK(big.data<float>()[0] == kInf);
  CHECK(big.data<float>()[1] == -kInf);
  CHECK(to_float(run_op("Cast", {make<int32_t>({1}, {100000})}, cast_attr(DataType::float16))
                     .data<Float16>()[0]) == kInf);
  // One rounding from the source: int64 2^53+1 goes to the nearest float directly.
  CHECK(elements<float>(run_op("Cast", {make<int64_t>({1}, {(int64_t{1} << 53) + 1})},
                               cast_attr(DataType::float32))) ==
        std::vector<float>{static_cast<float>((int64_t{1} << 53) + 1)});
}

TEST_CASE("Cast to the 4- and 2-bit integers saturates and rounds half to even") {
  const Tensor x = make<float>({8}, {-9, -8, 7, 8, 2.5f, 3.5f, kNaN, -0.4f});
  const Tensor i4 = run_op("Cast", {x}, cast_attr(DataType::int4), 21);
  std::vector<int> got;
  for (int64_t i = 0; i < 8; ++i) got.push_back(i4.data<Int4>()[i].value);
  CHECK(got == std::vector<int>{-8, -8, 7, 7, 2, 4, 0, 0});
  const Tensor u4 =
      run_op("Cast", {make<float>({3}, {-1, 15, 16})}, cast_attr(DataType::uint4), 21);
  CHECK(u4.data<UInt4>()[0].value == 0);
  CHECK(u4.data<UInt4>()[1].value == 15);
  CHECK(u4.data<UInt4>()[2].value == 15);
  const Tensor i2 =
      run_op("Cast", {make<int32_t>({4}, {-3, -2, 1, 2})}, cast_attr(DataType::int2), 25);
  CHECK(i2.data<Int2>()[0].value == -2);
  CHECK(i2.data<Int2>()[3].value == 1);
  const Tensor u2 =
      run_op("Cast", {make<uint64_t>({2}, {3, 1000})}, cast_attr(DataType::uint2), 25);
  CHECK(u2.data<UInt2>()[1].value == 3);
  const Tensor back = run_op("Cast", {i4}, cast_attr(DataType::int8), 21);
  CHECK(elements<int8_t>(back) == std::vector<int8_t>{-8, -8, 7, 7, 2, 4, 0, 0});
  CHECK(value_at(
            run_op("Cast", {make<float>({2}, {1e6f, kNaN})}, cast_attr(DataType::float4e2m1), 23),
            0) == 6);
}

TEST_CASE("Cast between strings and numbers") {
  const Tensor s = Tensor::from_strings(
      {9}, {"3.14", "1e-5", "+INF", "inf", "-INF", "NaN", " 2 ", "-0.5", "1E8"});
  const Tensor f = run_op("Cast", {s}, cast_attr(DataType::float32), 9);
  CHECK(f.data<float>()[0] == 3.14f);
  CHECK(f.data<float>()[1] == 1e-5f);
  CHECK(f.data<float>()[2] == kInf);
  CHECK(f.data<float>()[3] == kInf);
  CHECK(f.data<float>()[4] == -kInf);
  CHECK(std::isnan(f.data<float>()[5]));
  CHECK(f.data<float>()[6] == 2);
  CHECK(f.data<float>()[7] == -0.5f);
  CHECK(f.data<float>()[8] == 1e8f);
  CHECK(elements<int64_t>(run_op(
            "Cast", {Tensor::from_strings({4}, {"1000", "-7", "100.5", "9223372036854775807"})},
            cast_attr(DataType::int64))) ==
        std::vector<int64_t>{1000, -7, 100, std::numeric_limits<int64_t>::max()});
  CHECK(elements<bool>(run_op("Cast", {Tensor::from_strings({4}, {"True", "false", "0", "2"})},
                              cast_attr(DataType::boolean))) ==
        std::vector<bool>{true, false, false, true});
  CHECK(to_float(run_op("Cast", {Tensor::from_strings({1}, {"0.1"})}, cast_attr(DataType::float16))
                     .data<Float16>()[0]) == to_float(to_float16(0.1f)));
  const std::string e =
      op_error("Cast", {Tensor::from_strings({1}, {"Hello"})}, cast_attr(DataType::float32));
  CHECK(e.find("cannot cast the string \"Hello\" to float") != std::string::npos);
  // Numbers print in numpy's shortest round-trip form.
  const Tensor t = run_op(
      "Cast",
      {make<float>({8}, {0.47892547f, 1.0f, 1e-5f, 1e20f, kNaN, -kInf, -0.0f, 0.039187793f})},
      cast_attr(DataType::string));
  CHECK(t.strings() == std::vector<std::string>{"0.47892547", "1.0", "1e-05", "1e+20", "NaN",
                                                "-INF", "-0.0", "0.039187793"});
  CHECK(run_op("Cast", {make<double>({1}, {0.1})}, cast_attr(DataType::string)).strings() ==
        std::vector<std::string>{"0.1"});
  CHECK(run_op("Cast", {make<Float16>({1}, {to_float16(0.1f)})}, cast_attr(DataType::string))
            .strings() == std::vector<std::string>{"0.1"});
  CHECK(run_op("Cast", {make<int64_t>({2}, {42, -7})}, cast_attr(DataType::string)).strings() ==
        std::vector<std::string>{"42", "-7"});
  CHECK(run_op("Cast", {make<bool>({2}, {true, false})}, cast_attr(DataType::string)).strings() ==
        std::vector<std::string>{"True", "False"});
  CHECK(run_op("Cast", {Tensor::from_strings({1}, {"x"})}, cast_attr(DataType::string)).strings() ==
        std::vector<std::string>{"x"});
}

TEST_CASE("Cast-1 names its target, the same type passes through, empty tensors stay empty") {
  CHECK(elements<int32_t>(run_op("Cast", {make<float>({2}, {1.5f, -2.5f})}, "to = \"INT32\"", 1)) ==
        std::vector<int32_t>{1, -2});
  CHECK(elements<double>(run_op("Cast", {make<float>({1}, {0.5f})}, "to = \"DOUBLE\"", 1)) ==
        std::vector<double>{0.5});
  CHECK(elements<float>(run_op("Cast", {make<float>({2}, {1, 2})}, cast_attr(DataType::float32))) ==
        std::vector<float>{1, 2});
  CHECK(run_op("Cast", {make<float>({0, 4}, {})}, cast_attr(DataType::float16)).shape() ==
        Shape{0, 4});
  CHECK(op_error("Cast", {make<float>({1}, {1})}, "to = 99").find("not a tensor element type") !=
        std::string::npos);
}

TEST_CASE("a large cast runs in chunks across threads and converts every element") {
  const int64_t n = 100003;
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<std::size_t>(i)] = static_cast<float>(i) * 0.37f - 9000;
  const Tensor h = run_op("Cast", {make<float>({n}, x)}, cast_attr(DataType::float16));
  const Tensor i = run_op("Cast", {make<float>({n}, x)}, cast_attr(DataType::int32));
  for (int64_t k = 0; k < n; ++k) {
    const float v = x[static_cast<std::size_t>(k)];
    if (h.data<Float16>()[k].bits != to_float16(v).bits ||
        i.data<int32_t>()[k] != static_cast<int32_t>(v)) {
      FAIL("element " << k << " differs");
      break;
    }
  }
}

// float32 <-> float16/bfloat16 take the bulk conversions (core/kernels/half.h): the same bits as
// the element functions, over random bit patterns (NaN payloads, subnormals, ties among them).
TEST_CASE("Cast between float32 and float16/bfloat16 keeps the element functions' bits") {
  std::mt19937 rng(7);
  const int64_t n = 50000;
  std::vector<float> f(static_cast<std::size_t>(n));
  std::vector<uint16_t> h(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t bits = static_cast<uint32_t>(rng());
    std::memcpy(&f[static_cast<std::size_t>(i)], &bits, sizeof bits);
    h[static_cast<std::size_t>(i)] = static_cast<uint16_t>(bits >> 7);
  }
  const Tensor x = make<float>({n}, f);
  const Tensor to16 = run_op("Cast", {x}, cast_attr(DataType::float16));
  const Tensor to_b16 = run_op("Cast", {x}, cast_attr(DataType::bfloat16), 21);
  Tensor h16 = Tensor::uninitialized(DataType::float16, {n});
  Tensor hb16 = Tensor::uninitialized(DataType::bfloat16, {n});
  for (int64_t i = 0; i < n; ++i) {
    h16.mutable_data<Float16>()[i].bits = h[static_cast<std::size_t>(i)];
    hb16.mutable_data<BFloat16>()[i].bits = h[static_cast<std::size_t>(i)];
  }
  const Tensor from16 = run_op("Cast", {h16}, cast_attr(DataType::float32));
  const Tensor from_b16 = run_op("Cast", {hb16}, cast_attr(DataType::float32), 21);
  int64_t differing = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float v = f[static_cast<std::size_t>(i)];
    differing += to16.data<Float16>()[i].bits != narrow_float<Float16>(static_cast<double>(v)).bits;
    differing +=
        to_b16.data<BFloat16>()[i].bits != narrow_float<BFloat16>(static_cast<double>(v)).bits;
    const float a = to_float(h16.data<Float16>()[i]), b = to_float(hb16.data<BFloat16>()[i]);
    differing += std::memcmp(&from16.data<float>()[i], &a, sizeof a) != 0;
    differing += std::memcmp(&from_b16.data<float>()[i], &b, sizeof b) != 0;
  }
  CHECK(differing == 0);
}

TEST_CASE("CastLike takes the second input's type and Cast's attributes") {
  const Tensor like = make<Float8E4M3FN>({1}, {Float8E4M3FN{0}});
  CHECK(value_at(run_op("CastLike", {make<float>({1}, {1e6f}), like}, "", 19), 0) == 448);
  CHECK(std::isnan(
      value_at(run_op("CastLike", {make<float>({1}, {1e6f}), like}, "saturate = 0", 19), 0)));
  CHECK(elements<int64_t>(
            run_op("CastLike", {make<double>({2}, {2.9, -2.9}), make<int64_t>({}, {0})})) ==
        std::vector<int64_t>{2, -2});
  CHECK(run_op("CastLike", {make<float>({1}, {2.5f}), Tensor::from_strings({}, {""})}).strings() ==
        std::vector<std::string>{"2.5"});
}

TEST_CASE("BitCast keeps the bits of elements of equal width") {
  CHECK(elements<int32_t>(
            run_op("BitCast", {make<float>({2}, {1.0f, -2.0f})}, cast_attr(DataType::int32), 26)) ==
        std::vector<int32_t>{0x3F800000, static_cast<int32_t>(0xC0000000u)});
  CHECK(elements<float>(run_op("BitCast", {make<int32_t>({1}, {0x3F800000})},
                               cast_attr(DataType::float32), 26)) == std::vector<float>{1.0f});
  CHECK(elements<uint16_t>(run_op("BitCast", {make<Float16>({1}, {to_float16(1.0f)})},
                                  cast_attr(DataType::uint16), 26)) ==
        std::vector<uint16_t>{0x3C00});
  const Tensor u4 =
      run_op("BitCast", {make<Int4>({2}, {Int4{-1}, Int4{-8}})}, cast_attr(DataType::uint4), 26);
  CHECK(u4.data<UInt4>()[0].value == 15);
  CHECK(u4.data<UInt4>()[1].value == 8);
  const Tensor i4 =
      run_op("BitCast", {make<UInt4>({2}, {UInt4{15}, UInt4{7}})}, cast_attr(DataType::int4), 26);
  CHECK(i4.data<Int4>()[0].value == -1);
  CHECK(i4.data<Int4>()[1].value == 7);
  const Tensor f4 =
      run_op("BitCast", {make<UInt4>({1}, {UInt4{0x2}})}, cast_attr(DataType::float4e2m1), 26);
  CHECK(to_float(f4.data<Float4E2M1>()[0]) == 1.0f);
  const Tensor i2 =
      run_op("BitCast", {make<UInt2>({1}, {UInt2{3}})}, cast_attr(DataType::int2), 26);
  CHECK(i2.data<Int2>()[0].value == -1);
  CHECK(elements<bool>(
            run_op("BitCast", {make<uint8_t>({3}, {0, 1, 2})}, cast_attr(DataType::boolean), 26)) ==
        std::vector<bool>{false, true, true});
  CHECK(elements<int8_t>(run_op("BitCast", {make<bool>({2}, {true, false})},
                                cast_attr(DataType::int8), 26)) == std::vector<int8_t>{1, 0});
  const Tensor c = run_op("BitCast", {make<std::complex<float>>({1}, {{1.0f, 0.0f}})},
                          cast_attr(DataType::uint64), 26);
  CHECK(c.data<uint64_t>()[0] == 0x3F800000u);
  CHECK(op_error("BitCast", {make<float>({1}, {1})}, cast_attr(DataType::int64), 26)
            .find("32 bits") != std::string::npos);
  CHECK(run_op("BitCast", {make<float>({2, 0}, {})}, cast_attr(DataType::uint32), 26).shape() ==
        Shape{2, 0});
}
