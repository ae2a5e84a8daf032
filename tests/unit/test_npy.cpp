// SPDX-License-Identifier: Apache-2.0
// .npy reading and writing: every element type round-trips bit for bit, files written by numpy
// (embedded below, made with numpy 1.24) read correctly, our files match numpy's byte for byte,
// and malformed input gives an Error with its rule, never a crash.
#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "core/types/npy.h"
#include "tests/support/support.h"

namespace onnxtool {
namespace {

// ---- reference files written by numpy.save (np.lib.format.write_array for v2/v3) -------------

const std::string kF32(
    "\223NUMPY\001\000v\000{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }          "
    "                                                  \012\000\000\300?\000\000\000\300\000"
    "\000P@",
    140);
const std::string kBigI4(
    "\223NUMPY\001\000v\000{'descr': '>i4', 'fortran_order': False, 'shape': (2, 2), }        "
    "                                                  \012\000\000\000\001\377\377\377\376"
    "\000\000\000\003\0224Vx",
    144);
const std::string kBigF8(
    "\223NUMPY\001\000v\000{'descr': '>f8', 'fortran_order': False, 'shape': (3,), }          "
    "                                                  \012?\360\000\000\000\000\000\000\200"
    "\000\000\000\000\000\000\000\177\360\000\000\000\000\000\000",
    152);
const std::string kBigC8(
    "\223NUMPY\001\000v\000{'descr': '>c8', 'fortran_order': False, 'shape': (2,), }          "
    "                                                  \012?\200\000\000@\000\000\000\300`\000"
    "\000\276\200\000\000",
    144);
const std::string kBigF2(
    "\223NUMPY\001\000v\000{'descr': '>f2', 'fortran_order': False, 'shape': (3,), }          "
    "                                                  \012<\000\300\000{\377",
    134);
const std::string kBigU(
    "\223NUMPY\001\000v\000{'descr': '>U3', 'fortran_order': False, 'shape': (3,), }          "
    "                                                  \012\000\000\000a\000\000\000\000\000"
    "\000\000\000\000\000\000b\000\000\000\351\000\000\000\000\000\001\366\000\000\000\000z"
    "\000\000\000\000",
    164);
const std::string kBigU2(
    "\223NUMPY\001\000v\000{'descr': '>u2', 'fortran_order': False, 'shape': (2,), }          "
    "                                                  \012?\200\300\000",
    132);
const std::string kV2(
    "\223NUMPY\002\000t\000\000\000{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                        \012\000\000\000\000\000\000\000"
    "\000\001\000\000\000\000\000\000\000\002\000\000\000\000\000\000\000\003\000\000\000\000"
    "\000\000\000\004\000\000\000\000\000\000\000\005\000\000\000\000\000\000\000",
    176);
const std::string kV3(
    "\223NUMPY\003\000t\000\000\000{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }  "
    "                                                        \012\007\000\010\000",
    132);
const std::string kBool(
    "\223NUMPY\001\000v\000{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }          "
    "                                                  \012\001\000\001",
    131);
const std::string kBytesS(
    "\223NUMPY\001\000v\000{'descr': '|S3', 'fortran_order': False, 'shape': (3,), }          "
    "                                                  \012ab\000\000\000\000xyz",
    137);
const std::string kUnicode(
    "\223NUMPY\001\000v\000{'descr': '<U5', 'fortran_order': False, 'shape': (2, 2), }        "
    "                                                  \012x\000\000\000\000\000\000\000\000"
    "\000\000\000\000\000\000\000\000\000\000\000\374\000\000\000\337\000\000\000\000\000\000"
    "\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000"
    "\000\000\000\000\000\000\000l\000\000\000o\000\000\000n\000\000\000g\000\000\000!\000\000"
    "\000",
    208);
const std::string kScalarF8(
    "\223NUMPY\001\000v\000{'descr': '<f8', 'fortran_order': False, 'shape': (), }            "
    "                                                  \012\000\000\000\000\000\000\004@",
    136);
const std::string kEmpty(
    "\223NUMPY\001\000v\000{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0, 3), }     "
    "                                                  \012",
    128);
const std::string kBf16(
    "\223NUMPY\001\000v\000{'descr': [('bfloat16', '<u2')], 'fortran_order': False, 'shape': ("
    "3,), }                                            \012\200?\301\177\000\200",
    134);
const std::string kInt4(
    "\223NUMPY\001\000v\000{'descr': [('int4', '|i1')], 'fortran_order': False, 'shape': (4,),"
    " }                                                \012\370\007\000\377",
    132);

// ---- helpers ---------------------------------------------------------------------------------

const std::vector<Shape> kShapes = {{}, {0}, {2, 0, 3}, {3, 4}};

// Deterministic valid values for any type: arbitrary bit patterns (NaN payloads, -0.0 and
// denormals among them) for the full-byte types, in-range values for the narrow ones.
Tensor sample(DataType type, const Shape& shape) {
  if (type == DataType::string) {
    const std::vector<std::string> pool = {"",
                                           "a",
                                           "h\xc3\xa9llo",
                                           "\xe6\x97\xa5\xe6\x9c\xac",
                                           "\xf0\x9f\x98\x80x",
                                           "tab\there",
                                           "longer string"};
    Tensor t(type, shape);
    auto& v = t.mutable_strings();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = pool[i % pool.size()];
    return t;
  }
  Tensor t(type, shape);
  auto* p = reinterpret_cast<unsigned char*>(t.mutable_raw());
  const std::size_t n = t.nbytes();
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(i * 151 + 7);
  const auto count = static_cast<std::size_t>(t.numel());
  if (type == DataType::boolean)
    for (std::size_t i = 0; i < n; ++i) p[i] = (i % 3) == 1;
  const auto put = [&](std::size_t i, auto bits) {
    if (i < count) std::memcpy(p + i * sizeof bits, &bits, sizeof bits);
  };
  if (type == DataType::float32) {
    put(0, uint32_t{0x7fc00001});  // quiet NaN with a payload
    put(1, uint32_t{0x80000000});  // -0.0
    put(2, uint32_t{0x00000001});  // smallest denormal
    put(3, uint32_t{0xff800001});  // signalling NaN
  }
  if (type == DataType::float64) {
    put(0, uint64_t{0x7ff8000000000123});
    put(1, uint64_t{0x8000000000000000});
    put(2, uint64_t{0x0000000000000001});
  }
  if (type == DataType::float16 || type == DataType::bfloat16) {
    put(0, uint16_t{0x7e01});
    put(1, uint16_t{0x8000});
    put(2, uint16_t{0x0001});
  }
  const auto info = type_info(type);
  if (info.bits < 8) {  // one element per byte, in range
    const int span = 1 << info.bits;
    const bool is_signed = info.cls == TypeClass::signed_int;
    for (std::size_t i = 0; i < n; ++i) {
      const int v =
          static_cast<int>(i % static_cast<std::size_t>(span)) - (is_signed ? span / 2 : 0);
      p[i] = static_cast<unsigned char>(static_cast<int8_t>(v));
    }
  }
  return t;
}

bool same(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == DataType::string) return a.strings() == b.strings();
  return a.nbytes() == b.nbytes() &&
         (a.nbytes() == 0 || std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0);
}

// The rule of the Error that parsing throws, or "ok".
std::string rule_of(const std::string& bytes) {
  try {
    parse_npy(bytes, "test.npy");
    return "ok";
  } catch (const Error& e) {
    return e.rule();
  }
}

std::string message_of(const std::string& bytes) {
  try {
    parse_npy(bytes, "test.npy");
    return "";
  } catch (const Error& e) {
    return e.message();
  }
}

// A .npy file with the given header dict and data (no alignment padding).
std::string npy(const std::string& dict, const std::string& data = "", int major = 1) {
  std::string s = "\x93NUMPY";
  s += static_cast<char>(major);
  s += '\0';
  const std::size_t len = dict.size() + 1;
  s += static_cast<char>(len & 0xFF);
  s += static_cast<char>((len >> 8) & 0xFF);
  if (major > 1) {
    s += static_cast<char>((len >> 16) & 0xFF);
    s += static_cast<char>((len >> 24) & 0xFF);
  }
  return s + dict + "\n" + data;
}

std::string dict(const std::string& descr, const std::string& shape,
                 const std::string& fortran = "False") {
  return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

template <class T>
std::vector<T> values(const Tensor& t) {
  const auto s = t.span<T>();
  return {s.begin(), s.end()};
}

template <class T>
T bits_of(const Tensor& t, std::size_t i) {
  T v;
  std::memcpy(&v, t.raw() + i * sizeof(T), sizeof(T));
  return v;
}

std::size_t data_offset(const std::string& file) {
  const std::size_t len_bytes = file[6] == 1 ? 2 : 4;
  std::size_t len = 0;
  for (std::size_t k = 0; k < len_bytes; ++k)
    len |= std::size_t{static_cast<unsigned char>(file[8 + k])} << (8 * k);
  return 8 + len_bytes + len;
}

// ---- round trips -----------------------------------------------------------------------------

TEST_CASE("npy: every element type and shape round-trips bit for bit") {
  for (const DataTypeInfo& info : all_type_infos()) {
    for (const Shape& shape : kShapes) {
      CAPTURE(info.name);
      CAPTURE(shape_to_string(shape));
      const Tensor t = sample(info.type, shape);
      const std::string bytes = serialize_npy(t);
      CHECK(data_offset(bytes) % 64 == 0);  // numpy's alignment, which makes mapping possible
      CHECK(bytes[6] == 1);
      const Tensor back = parse_npy(bytes, "mem.npy");
      CHECK(same(t, back));
      CHECK_FALSE(back.is_view());
    }
  }
}

TEST_CASE("npy: write_npy and read_npy map aligned data in place") {
  test::TempDir dir;
  for (const DataTypeInfo& info : all_type_infos()) {
    CAPTURE(info.name);
    const Tensor t = sample(info.type, {3, 4});
    const auto path = dir / (std::string(info.name) + ".npy");
    write_npy(path, t);
    CHECK(test::read_file(path) == serialize_npy(t));
    const Tensor back = read_npy(path);
    CHECK(same(t, back));
    CHECK(back.is_view() == (info.type != DataType::string));
  }
}

TEST_CASE("npy: write_npy replaces a file atomically and reports I/O errors") {
  test::TempDir dir;
  const auto path = dir / "x.npy";
  test::write_file(path, "old");
  write_npy(path, Tensor::scalar<int32_t>(5));
  CHECK(values<int32_t>(read_npy(path)) == std::vector<int32_t>{5});
  try {
    write_npy(path / "x.npy", Tensor::scalar<int32_t>(5));  // a file where the folder would be
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
  }
  try {
    read_npy(dir / "absent.npy");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
  }
}

TEST_CASE("npy: our files are byte-identical to numpy.save") {
  CHECK(serialize_npy(Tensor::from_vector<float>({3}, {1.5f, -2.0f, 3.25f})) == kF32);
  CHECK(serialize_npy(Tensor::from_vector<bool>({3}, {true, false, true})) == kBool);
  CHECK(serialize_npy(Tensor::from_strings({2, 2}, {"x", "\xc3\xbc\xc3\x9f", "", "long!"})) ==
        kUnicode);
  CHECK(serialize_npy(Tensor::scalar<double>(2.5)) == kScalarF8);
  CHECK(serialize_npy(Tensor(DataType::float32, {2, 0, 3})) == kEmpty);
  CHECK(serialize_npy(Tensor::from_vector<BFloat16>({3}, {{0x3f80}, {0x7fc1}, {0x8000}})) == kBf16);
  CHECK(serialize_npy(Tensor::from_vector<Int4>({4}, {{-8}, {7}, {0}, {-1}})) == kInt4);
}

TEST_CASE("npy: reads numpy's files, big-endian ones included") {
  const Tensor f32 = parse_npy(kF32, "f32.npy");
  CHECK(f32.dtype() == DataType::float32);
  CHECK(values<float>(f32) == std::vector<float>{1.5f, -2.0f, 3.25f});

  const Tensor i4 = parse_npy(kBigI4, "i4.npy");
  CHECK(i4.shape() == Shape{2, 2});
  CHECK(values<int32_t>(i4) == std::vector<int32_t>{1, -2, 3, 0x12345678});

  const Tensor f8 = parse_npy(kBigF8, "f8.npy");
  CHECK(bits_of<uint64_t>(f8, 0) == 0x3ff0000000000000);
  CHECK(bits_of<uint64_t>(f8, 1) == 0x8000000000000000);  // -0.0 keeps its sign
  CHECK(bits_of<uint64_t>(f8, 2) == 0x7ff0000000000000);

  const Tensor c8 = parse_npy(kBigC8, "c8.npy");
  CHECK(c8.dtype() == DataType::complex64);
  CHECK(values<std::complex<float>>(c8) ==
        std::vector<std::complex<float>>{{1, 2}, {-3.5f, -0.25f}});

  const Tensor f2 = parse_npy(kBigF2, "f2.npy");
  CHECK(f2.dtype() == DataType::float16);
  CHECK(bits_of<uint16_t>(f2, 0) == 0x3c00);
  CHECK(bits_of<uint16_t>(f2, 1) == 0xc000);
  CHECK(bits_of<uint16_t>(f2, 2) == 0x7bff);

  const Tensor u = parse_npy(kBigU, "u.npy");
  CHECK(u.strings() == std::vector<std::string>{"a", "b\xc3\xa9", "\xf0\x9f\x98\x80z"});

  const Tensor u2 = parse_npy(kBigU2, "u2.npy");
  CHECK(values<uint16_t>(u2) == std::vector<uint16_t>{0x3f80, 0xc000});

  CHECK(parse_npy(kBool, "b.npy").dtype() == DataType::boolean);
  CHECK(values<bool>(parse_npy(kBool, "b.npy")) == std::vector<bool>{true, false, true});
  CHECK(parse_npy(kBytesS, "s.npy").strings() == std::vector<std::string>{"ab", "", "xyz"});
  CHECK(parse_npy(kUnicode, "u.npy").strings() ==
        std::vector<std::string>{"x", "\xc3\xbc\xc3\x9f", "", "long!"});
  const Tensor scalar = parse_npy(kScalarF8, "s.npy");
  CHECK(scalar.shape().empty());
  CHECK(values<double>(scalar) == std::vector<double>{2.5});
  CHECK(parse_npy(kEmpty, "e.npy").shape() == Shape{2, 0, 3});

  const Tensor bf16 = parse_npy(kBf16, "bf16.npy");
  CHECK(bf16.dtype() == DataType::bfloat16);
  CHECK(bits_of<uint16_t>(bf16, 1) == 0x7fc1);
  const Tensor int4 = parse_npy(kInt4, "int4.npy");
  CHECK(int4.dtype() == DataType::int4);
  CHECK(bits_of<int8_t>(int4, 0) == -8);
  CHECK(bits_of<int8_t>(int4, 3) == -1);
}

TEST_CASE("npy: versions 2.0 and 3.0") {
  const Tensor v2 = parse_npy(kV2, "v2.npy");
  CHECK(v2.shape() == Shape{2, 3});
  CHECK(values<int64_t>(v2) == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  const Tensor v3 = parse_npy(kV3, "v3.npy");
  CHECK(values<uint16_t>(v3) == std::vector<uint16_t>{7, 8});
  // Field names may be written with escapes and string prefixes; a 3.0 header may hold UTF-8.
  const Tensor escaped =
      parse_npy(npy("{'descr': [(u'bfl\\x6fat16', '>u2')], 'fortran_order': False, 'shape': (1,)}",
                    std::string("\x3f\x80", 2), 3),
                "v3.npy");
  CHECK(escaped.dtype() == DataType::bfloat16);
  CHECK(bits_of<uint16_t>(escaped, 0) == 0x3f80);
  CHECK(rule_of(npy("{'descr': [('caf\xc3\xa9', '<u2')], 'fortran_order': False, 'shape': ()}",
                    std::string(2, '\0'), 3)) == "npy.unsupported-dtype");
}

TEST_CASE("npy: a header too long for 16 bits is written as version 2.0") {
  const Tensor t = sample(DataType::float32, Shape(30000, 1));
  const std::string bytes = serialize_npy(t);
  CHECK(bytes[6] == 2);
  CHECK(data_offset(bytes) % 64 == 0);
  CHECK(same(parse_npy(bytes, "v2.npy"), t));
}

TEST_CASE("npy: header dicts in every form python writes them") {
  const std::string two_i2("\x01\x00\xff\xff", 4);
  const std::vector<std::string> dicts = {
      "{'shape': (2,), 'fortran_order': False, 'descr': '<i2'}",
      "{\"descr\": \"<i2\", \"fortran_order\": False, \"shape\": (2,)}",
      "{ 'descr' :'<i2' ,\t'fortran_order':False,\n'shape':( 2 , ) , }   ",
      "{'descr': u'<i2', 'fortran_order': False, 'shape': (2L,)}",
      "{'descr': '=i2', 'fortran_order': False, 'shape': [2]}",
      "{'descr': 'i2', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '\\x3c\\u0069\\U00000032', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<i2', 'fortran_order': True, 'shape': (2,)}",  // 1-D: same layout either way
      "{'descr': '<i2', 'fortran_order': True, 'shape': (1, 2, 1)}",
  };
  for (const std::string& d : dicts) {
    CAPTURE(d);
    const Tensor t = parse_npy(npy(d, two_i2), "h.npy");
    CHECK(t.dtype() == DataType::int16);
    CHECK(t.numel() == 2);
    CHECK(values<int16_t>(t) == std::vector<int16_t>{1, -1});
  }
  CHECK(parse_npy(npy(dict("'<i2'", "()"), std::string("\x05\x00", 2)), "s").shape().empty());
  CHECK(parse_npy(npy(dict("'<i2'", "(0, 5)", "True")), "e.npy").numel() == 0);
}

TEST_CASE("npy: bool bytes other than 0 and 1 read as true") {
  const Tensor t = parse_npy(npy(dict("'|b1'", "(4,)"), std::string("\x00\x02\xff\x01", 4)), "b");
  CHECK(values<bool>(t) == std::vector<bool>{false, true, true, true});
  std::vector<uint8_t> raw(4);
  std::memcpy(raw.data(), t.raw(), 4);
  CHECK(raw == std::vector<uint8_t>{0, 1, 1, 1});
}

TEST_CASE("npy: unaligned or big-endian data is copied, not viewed") {
  test::TempDir dir;
  // A 1-byte shorter header than numpy writes leaves the floats misaligned.
  const std::string floats("\x00\x00\xc0\x3f\x00\x00\x00\xc0", 8);
  std::string d = dict("'<f4'", "(2,)");
  while ((10 + d.size() + 1) % 4 != 1) d += ' ';
  test::write_file(dir / "odd.npy", npy(d, floats));
  const Tensor odd = read_npy(dir / "odd.npy");
  CHECK_FALSE(odd.is_view());
  CHECK(values<float>(odd) == std::vector<float>{1.5f, -2.0f});
  test::write_file(dir / "big.npy", kBigI4);
  const Tensor big = read_npy(dir / "big.npy");
  CHECK_FALSE(big.is_view());
  CHECK(values<int32_t>(big) == std::vector<int32_t>{1, -2, 3, 0x12345678});
  test::write_file(dir / "ok.npy", kF32);
  CHECK(read_npy(dir / "ok.npy").is_view());
}

TEST_CASE("npy: the narrow-type convention reads every byte order and checks ranges") {
  const Tensor big = parse_npy(npy(dict("[('bfloat16', '>u2')]", "(1,)"), "\x12\x34"), "b");
  CHECK(bits_of<uint16_t>(big, 0) == 0x1234);
  const Tensor f8 = parse_npy(npy(dict("[('float8e5m2fnuz', '|u1')]", "(1,)"), "\xff"), "f");
  CHECK(f8.dtype() == DataType::float8e5m2fnuz);
  CHECK(bits_of<uint8_t>(f8, 0) == 0xff);
  CHECK(rule_of(npy(dict("[('int4', '|i1')]", "(2,)"), "\x07\x08")) == "npy.value-out-of-range");
  CHECK(rule_of(npy(dict("[('int4', '|i1')]", "(1,)"), "\xf7")) == "npy.value-out-of-range");
  CHECK(rule_of(npy(dict("[('uint2', '|u1')]", "(1,)"), "\x04")) == "npy.value-out-of-range");
  CHECK(rule_of(npy(dict("[('int2', '|i1')]", "(1,)"), "\x02")) == "npy.value-out-of-range");
  CHECK(rule_of(npy(dict("[('float4e2m1', '|u1')]", "(1,)"), "\x10")) == "npy.value-out-of-range");
  CHECK(message_of(npy(dict("[('uint4', '|u1')]", "(3,)"), "\x01\x02\x10")) ==
        "npy data: element 2 of a uint4 array is 16, expected 0..15");
}

// ---- malformed input -------------------------------------------------------------------------

TEST_CASE("npy: each kind of malformed file gives its rule") {
  struct Case {
    const char* what;
    std::string bytes;
    const char* rule;
  };
  const std::string f4x3(12, '\0');
  const std::vector<Case> cases = {
      {"not npy", "hello, world", "npy.bad-magic"},
      {"zip file", "PK\x03\x04", "npy.bad-magic"},
      {"empty", "", "npy.truncated"},
      {"magic only", "\x93NUMPY", "npy.truncated"},
      {"no header length", std::string("\x93NUMPY\x01\x00\x10", 9), "npy.truncated"},
      {"header past the end", std::string("\x93NUMPY\x01\x00\xff\x00{}", 12), "npy.truncated"},
      {"version 4", npy(dict("'<f4'", "(3,)"), f4x3, 4), "npy.unsupported-version"},
      {"version 0", npy(dict("'<f4'", "(3,)"), f4x3, 0), "npy.unsupported-version"},
      {"version 1.1",
       [] {
         std::string s = kF32;
         s[7] = 1;
         return s;
       }(),
       "npy.unsupported-version"},
      {"garbage header", npy("not a dict"), "npy.bad-header"},
      {"list header", npy("[1, 2]"), "npy.bad-header"},
      {"unclosed dict", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)"),
       "npy.bad-header"},
      {"quote missing", npy("{'descr': '<f4, 'fortran_order': False, 'shape': (3,)}"),
       "npy.bad-header"},
      {"string at the end", npy("{'descr': '<f4"), "npy.bad-header"},
      {"missing comma", npy("{'descr': '<f4' 'fortran_order': False, 'shape': (3,)}"),
       "npy.bad-header"},
      {"text after the dict", npy(dict("'<f4'", "(3,)") + " x", f4x3), "npy.bad-header"},
      {"a call", npy("{'descr': __import__('os'), 'fortran_order': False, 'shape': (3,)}"),
       "npy.bad-header"},
      {"missing key", npy("{'descr': '<f4', 'shape': (3,)}", f4x3), "npy.bad-header"},
      {"duplicate key",
       npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': "
           "(3,)}",
           f4x3),
       "npy.bad-header"},
      {"unknown key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", f4x3),
       "npy.bad-header"},
      {"non-string key", npy("{1: '<f4', 'fortran_order': False, 'shape': (3,)}"),
       "npy.bad-header"},
      {"fortran_order not bool", npy(dict("'<f4'", "(3,)", "0"), f4x3), "npy.bad-header"},
      {"shape not a tuple", npy(dict("'<f4'", "3"), f4x3), "npy.bad-header"},
      {"shape of strings", npy(dict("'<f4'", "('3',)"), f4x3), "npy.bad-header"},
      {"descr not a string", npy(dict("4", "(3,)"), f4x3), "npy.bad-header"},
      {"deep nesting", npy("{'descr': " + std::string(100000, '[') + "}"), "npy.bad-header"},
      {"bad escape", npy("{'descr': '\\x4', 'fortran_order': False, 'shape': (3,)}"),
       "npy.bad-header"},
      {"negative dim", npy(dict("'<f4'", "(-3,)"), f4x3), "npy.bad-shape"},
      {"dim beyond 64 bits", npy(dict("'<f4'", "(99999999999999999999,)")), "npy.bad-shape"},
      {"product beyond 64 bits", npy(dict("'<f4'", "(4294967296, 4294967296)")), "npy.bad-shape"},
      {"bytes beyond 64 bits", npy(dict("'<f8'", "(4611686018427387904,)")), "npy.bad-shape"},
      {"huge shape, little data", npy(dict("'<f4'", "(1099511627776,)"), f4x3), "npy.truncated"},
      {"short data", npy(dict("'<f4'", "(3,)"), f4x3.substr(1)), "npy.truncated"},
      {"trailing data", npy(dict("'<f4'", "(3,)"), f4x3 + "x"), "npy.trailing-data"},
      {"fortran order", npy(dict("'<f4'", "(3, 1, 2)", "True"), std::string(24, '\0')),
       "npy.fortran-order"},
      {"object array", npy(dict("'|O'", "(3,)"), std::string(24, '\0')), "npy.object-dtype"},
      {"long double", npy(dict("'<f16'", "(1,)"), std::string(16, '\0')), "npy.unsupported-dtype"},
      {"datetime", npy(dict("'<M8[ns]'", "(1,)"), std::string(8, '\0')), "npy.unsupported-dtype"},
      {"timedelta", npy(dict("'<m8'", "(1,)"), std::string(8, '\0')), "npy.unsupported-dtype"},
      {"void", npy(dict("'|V2'", "(1,)"), std::string(2, '\0')), "npy.unsupported-dtype"},
      {"letter code", npy(dict("'d'", "(1,)"), std::string(8, '\0')), "npy.unsupported-dtype"},
      {"empty descr", npy(dict("''", "(1,)"), std::string(8, '\0')), "npy.unsupported-dtype"},
      {"i3", npy(dict("'<i3'", "(1,)"), std::string(3, '\0')), "npy.unsupported-dtype"},
      {"two fields", npy(dict("[('a', '<f4'), ('b', '<f4')]", "(1,)"), std::string(8, '\0')),
       "npy.unsupported-dtype"},
      {"no fields", npy(dict("[]", "(1,)")), "npy.unsupported-dtype"},
      {"unknown field", npy(dict("[('foo', '<u2')]", "(1,)"), "\0\0"), "npy.unsupported-dtype"},
      {"wrong field type", npy(dict("[('bfloat16', '<f4')]", "(1,)"), f4x3.substr(8)),
       "npy.unsupported-dtype"},
      {"sub-array field", npy(dict("[('bfloat16', '<u2', (2,))]", "(1,)"), f4x3.substr(8)),
       "npy.unsupported-dtype"},
      {"titled field", npy(dict("[(('t', 'bfloat16'), '<u2')]", "(1,)"), f4x3.substr(8)),
       "npy.unsupported-dtype"},
      {"surrogate in U", npy(dict("'<U1'", "(1,)"), std::string("\x00\xd8\x00\x00", 4)),
       "npy.bad-string"},
      {"code past U+10FFFF", npy(dict("'<U1'", "(1,)"), std::string("\x00\x00\x11\x00", 4)),
       "npy.bad-string"},
      {"many empty strings", npy(dict("'<U0'", "(1099511627776,)")), "npy.too-large"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK(rule_of(c.bytes) == c.rule);
  }
}

TEST_CASE("npy: error messages say what was expected") {
  CHECK(message_of(npy(dict("'<f4'", "(3, 2)", "True"), std::string(24, '\0'))) ==
        "npy header: fortran_order is True; onnxtool reads only C-order arrays (save with "
        "np.ascontiguousarray)");
  CHECK(message_of(npy(dict("'<f4'", "(3,)"), std::string(8, '\0'))) ==
        "npy data: shape [3] of '<f4' takes 12 bytes, but the file has only 8");
  CHECK(message_of("hello") ==
        "npy: does not start with the .npy magic \\x93NUMPY, found 'hello'; expected a file "
        "written by numpy.save");
  CHECK(message_of(npy(dict("'|O'", "(1,)"))).find("never unpickles") != std::string::npos);
  CHECK(message_of(npy(dict("'>U1'", "(1,)"), std::string("\x00\x00\xdc\x00", 4))) ==
        "npy data: string element 0 holds U+DC00, which is not a unicode scalar value");
  try {
    parse_npy("junk", "where.npy");
  } catch (const Error& e) {
    CHECK(e.file() == "where.npy");
    CHECK(e.kind() == ErrorKind::invalid);
  }
}

TEST_CASE("npy: strings that are not UTF-8 cannot be written") {
  for (const std::string& bad :
       {std::string("\xff"), std::string("\xc0\x80"), std::string("\xed\xa0\x80"),
        std::string("\xe2\x82"), std::string("\xf4\x90\x80\x80"), std::string("a\x80")}) {
    CAPTURE(bad);
    try {
      serialize_npy(Tensor::from_strings({2}, {"ok", bad}));
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(e.rule() == "npy.bad-utf8");
      CHECK(e.message().find("string element 1") != std::string::npos);
    }
  }
  CHECK_THROWS_AS(serialize_npy(Tensor()), Error);
}

TEST_CASE("npy: every truncation of a valid file is an error, never a crash") {
  const std::vector<std::string> files = {
      serialize_npy(sample(DataType::float32, {2, 3})),
      serialize_npy(sample(DataType::string, {3})),
      serialize_npy(sample(DataType::bfloat16, {2})),
      kV2,
      kBigU,
  };
  for (const std::string& file : files) {
    for (std::size_t n = 0; n < file.size(); ++n) {
      CAPTURE(n);
      CHECK(rule_of(file.substr(0, n)) == "npy.truncated");
    }
    CHECK(rule_of(file) == "ok");
  }
}

TEST_CASE("npy: random corruption is an error or a tensor, never a crash") {
  const std::vector<std::string> files = {
      serialize_npy(sample(DataType::float32, {2, 3})),
      serialize_npy(sample(DataType::string, {3})),
      serialize_npy(sample(DataType::int4, {5})),
      kBigC8,
      kV3,
  };
  uint64_t state = 0x9e3779b97f4a7c15;
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::string alphabet = "{}[](),:'\" 0123456789-<>|=fiucbUSOVTrueFalsNn\n\\\x93";
  for (const std::string& file : files) {
    for (int round = 0; round < 3000; ++round) {
      std::string s = file;
      const int edits = 1 + static_cast<int>(next() % 4);
      for (int k = 0; k < edits; ++k) {
        const std::size_t at = next() % s.size();
        const uint64_t r = next();
        if (r % 3 == 0)
          s[at] = static_cast<char>(r >> 8);
        else if (r % 3 == 1)
          s[at] = alphabet[(r >> 8) % alphabet.size()];
        else
          s.erase(at, 1 + (r >> 8) % 3);
        if (s.empty()) s = "x";
      }
      try {
        parse_npy(s, "fuzz.npy");
      } catch (const Error&) {
        // expected for most inputs
      }
    }
  }
}

}  // namespace
}  // namespace onnxtool
