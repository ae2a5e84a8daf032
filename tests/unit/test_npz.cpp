// SPDX-License-Identifier: Apache-2.0
// .npz reading and writing and the zip container under it: round trips (stored and deflated),
// archives written by numpy (embedded below, made with numpy 1.24), zip64, and every kind of
// malformed archive giving an Error with its rule, never a crash.
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "core/types/npy.h"
#include "core/types/npz.h"
#include "core/types/zip.h"
#include "tests/support/support.h"

namespace onnxtool {
namespace {

// ---- archives written by numpy.savez (stored) and numpy.savez_compressed (deflated) ----------

const std::string kNumpySavez(
    "PK\003\004\024\000\000\000\000\000\000\000!\000j\317\362Q\206\000\000\000\206\000\000\000"
    "\005\000\024\000a.npy\001\000\020\000\206\000\000\000\000\000\000\000\206\000\000\000\000"
    "\000\000\000\223NUMPY\001\000v\000{'descr': '<i2', 'fortran_order': False, 'shape': (3,),"
    " }                                                            \012\000\000\001\000\002"
    "\000PK\003\004\024\000\000\000\000\000\000\000!\000\307GVr\230\000\000\000\230\000\000"
    "\000\005\000\024\000b.npy\001\000\020\000\230\000\000\000\000\000\000\000\230\000\000\000"
    "\000\000\000\000\223NUMPY\001\000v\000{'descr': '<U3', 'fortran_order': False, 'shape': ("
    "2,), }                                                            \012h\000\000\000i\000"
    "\000\000\000\000\000\000\374\000\000\000n\000\000\000\357\000\000\000PK\001\002\024\003"
    "\024\000\000\000\000\000\000\000!\000j\317\362Q\206\000\000\000\206\000\000\000\005\000"
    "\000\000\000\000\000\000\000\000\000\000\200\001\000\000\000\000a.npyPK\001\002\024\003"
    "\024\000\000\000\000\000\000\000!\000\307GVr\230\000\000\000\230\000\000\000\005\000\000"
    "\000\000\000\000\000\000\000\000\000\200\001\275\000\000\000b.npyPK\005\006\000\000\000"
    "\000\002\000\002\000f\000\000\000\214\001\000\000\000\000",
    520);
const std::string kNumpySavezCompressed(
    "PK\003\004\024\000\000\000\010\000\000\000!\000L\373\357\026L\000\000\000\220\000\000\000"
    "\005\000\024\000x.npy\001\000\020\000\220\000\000\000\000\000\000\000L\000\000\000\000"
    "\000\000\000\233\354\027\352\033\020\311\310P\306P\255\236\222Z\234\134\244n\245\240n\223"
    "f\242\256\243\240\236\226_TR\224\230\027\237_\224\222\012\022wK\314)N\005\212\027g$\026"
    "\244\002\371\032F:\012F\232:\012\265\012d\003.\006\206\006{d\014\000PK\003\004\024\000"
    "\000\000\010\000\000\000!\000\202-\370\323C\000\000\000\201\000\000\000\005\000\024\000y."
    "npy\001\000\020\000\201\000\000\000\000\000\000\000C\000\000\000\000\000\000\000\233\354"
    "\027\352\033\020\311\310P\306P\255\236\222Z\234\134\244n\245\240^\223d\250\256\243\240"
    "\236\226_TR\224\230\027\237_\224\222\012\022wK\314)N\005\212\027g$\026\244\002\371\032"
    "\232:\012\265\012\024\001.F\000PK\001\002\024\003\024\000\000\000\010\000\000\000!\000L"
    "\373\357\026L\000\000\000\220\000\000\000\005\000\000\000\000\000\000\000\000\000\000\000"
    "\200\001\000\000\000\000x.npyPK\001\002\024\003\024\000\000\000\010\000\000\000!\000\202-"
    "\370\323C\000\000\000\201\000\000\000\005\000\000\000\000\000\000\000\000\000\000\000\200"
    "\001\203\000\000\000y.npyPK\005\006\000\000\000\000\002\000\002\000f\000\000\000\375\000"
    "\000\000\000\000",
    377);

// ---- helpers ---------------------------------------------------------------------------------

// Valid values for any type: varied bytes, in range for the narrow types.
Tensor sample(DataType type, const Shape& shape) {
  Tensor t(type, shape);
  if (type == DataType::string) {
    auto& v = t.mutable_strings();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::string(i % 4, 'a') + "\xc3\xa9";
    return t;
  }
  auto* p = reinterpret_cast<unsigned char*>(t.mutable_raw());
  const auto info = type_info(type);
  for (std::size_t i = 0; i < t.nbytes(); ++i) {
    p[i] = static_cast<unsigned char>(i * 151 + 7);
    if (info.bits < 8) {  // in range; signed types from -2^(bits-1)
      const int span = 1 << info.bits;
      const int shift = info.cls == TypeClass::signed_int ? span / 2 : 0;
      p[i] =
          static_cast<unsigned char>(static_cast<int>(i % static_cast<std::size_t>(span)) - shift);
    }
    if (type == DataType::boolean) p[i] = i % 2;
  }
  return t;
}

bool same(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == DataType::string) return a.strings() == b.strings();
  return a.nbytes() == b.nbytes() &&
         (a.nbytes() == 0 || std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0);
}

void check_same(const std::vector<NamedTensor>& a, const std::vector<NamedTensor>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(a[i].name);
    CHECK(a[i].name == b[i].name);
    CHECK(same(a[i].tensor, b[i].tensor));
  }
}

std::string rule_of(const std::string& bytes) {
  try {
    parse_npz(bytes, "test.npz");
    return "ok";
  } catch (const Error& e) {
    return e.rule();
  }
}

// An archive of raw members, written with our zip writer.
std::string archive(const std::vector<std::pair<std::string, std::string>>& members,
                    bool compress = false, ZipWriteOptions options = {}) {
  std::string out;
  ZipWriter zip([&out](std::string_view b) { out += b; }, options);
  for (const auto& [name, content] : members) {
    const std::array<std::string_view, 1> pieces = {content};
    zip.add(name, pieces, compress);
  }
  zip.finish();
  return out;
}

std::string small_npy() {
  return serialize_npy(Tensor::from_vector<int32_t>({2}, {1, 2}));
}

uint32_t get32(const std::string& s, std::size_t at) {
  uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[at + k]);
  return v;
}

void set16(std::string& s, std::size_t at, uint32_t v) {
  s[at] = static_cast<char>(v & 0xFF);
  s[at + 1] = static_cast<char>((v >> 8) & 0xFF);
}

void set32(std::string& s, std::size_t at, uint32_t v) {
  set16(s, at, v & 0xFFFF);
  set16(s, at + 2, v >> 16);
}

// Offset of the first record with this signature (the last one when from_end).
std::size_t find_sig(const std::string& s, uint32_t sig, bool from_end = false) {
  std::string needle(4, '\0');
  set32(needle, 0, sig);
  const std::size_t at = from_end ? s.rfind(needle) : s.find(needle);
  REQUIRE(at != std::string::npos);
  return at;
}

constexpr uint32_t kCentral = 0x02014b50, kEnd = 0x06054b50;
constexpr uint32_t kEnd64 = 0x06064b50, kLocator64 = 0x07064b50;

std::vector<NamedTensor> all_types(const Shape& shape) {
  std::vector<NamedTensor> out;
  for (const DataTypeInfo& info : all_type_infos())
    out.push_back({std::string(info.name), sample(info.type, shape)});
  return out;
}

// ---- round trips -----------------------------------------------------------------------------

TEST_CASE("npz: every element type and shape round-trips, stored and deflated") {
  for (const Shape& shape : std::vector<Shape>{{}, {0}, {2, 0, 3}, {3, 4}}) {
    CAPTURE(shape_to_string(shape));
    const auto tensors = all_types(shape);
    for (bool compress : {false, true}) {
      CAPTURE(compress);
      const std::string bytes = serialize_npz(tensors, compress);
      check_same(parse_npz(bytes, "mem.npz"), tensors);
      for (const ZipEntry& e : read_zip_directory(bytes, "mem.npz"))
        CHECK(e.method == (compress ? 8 : 0));
    }
  }
}

TEST_CASE("npz: write_npz and read_npz; stored members are viewed in place") {
  test::TempDir dir;
  const auto tensors = all_types({5, 7});
  write_npz(dir / "stored.npz", tensors, false);
  write_npz(dir / "deflated.npz", tensors, true);
  CHECK(test::read_file(dir / "stored.npz") == serialize_npz(tensors, false));
  CHECK(test::read_file(dir / "deflated.npz") == serialize_npz(tensors, true));
  const auto stored = read_npz(dir / "stored.npz");
  check_same(stored, tensors);
  for (const NamedTensor& t : stored)
    CHECK(t.tensor.is_view() == (t.tensor.dtype() != DataType::string));
  check_same(read_npz(dir / "deflated.npz"), tensors);
  // Each stored member's .npy data starts 64-byte aligned in the file.
  const std::string bytes = test::read_file(dir / "stored.npz");
  for (const ZipEntry& e : read_zip_directory(bytes, "stored.npz")) CHECK(e.data_offset % 64 == 0);
}

TEST_CASE("npz: deflate shrinks compressible data and output is deterministic") {
  const std::vector<NamedTensor> zeros = {{"z", Tensor(DataType::float32, {256, 256})}};
  const std::string stored = serialize_npz(zeros, false);
  const std::string deflated = serialize_npz(zeros, true);
  CHECK(deflated.size() * 100 < stored.size());
  CHECK(serialize_npz(zeros, true) == deflated);
  check_same(parse_npz(deflated, "z.npz"), zeros);
}

TEST_CASE("npz: an empty archive") {
  const std::string bytes = serialize_npz({}, false);
  CHECK(bytes.size() == 22);
  CHECK(parse_npz(bytes, "e.npz").empty());
}

TEST_CASE("npz: names keep slashes and unicode, and unsafe or repeated names are refused") {
  const std::vector<NamedTensor> tensors = {{"layer/0/weight", Tensor::scalar<float>(1)},
                                            {"caf\xc3\xa9", Tensor::scalar<int8_t>(2)},
                                            {"", Tensor::scalar<bool>(true)}};
  check_same(parse_npz(serialize_npz(tensors, false), "n.npz"), tensors);
  for (const std::string& bad : {std::string("../x"), std::string("/abs"), std::string("a/../../b"),
                                 std::string("C:x"), std::string("nul\0byte", 8)}) {
    CAPTURE(bad);
    try {
      serialize_npz({{bad, Tensor::scalar<float>(1)}}, false);
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(e.rule() == "npz.unsafe-name");
    }
  }
  try {
    serialize_npz({{"a", Tensor::scalar<float>(1)}, {"a", Tensor::scalar<float>(2)}}, false);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.rule() == "npz.duplicate-name");
  }
  test::TempDir dir;
  try {
    write_npz(dir / "x.npz", {{"s", Tensor::from_strings({1}, {"\xff"})}}, true);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.rule() == "npy.bad-utf8");
    CHECK(e.location() == "tensor \"s\"");
  }
  CHECK_FALSE(std::filesystem::exists(dir / "x.npz"));  // nothing half-written
}

TEST_CASE("npz: reads numpy's savez and savez_compressed") {
  const auto stored = parse_npz(kNumpySavez, "savez.npz");
  REQUIRE(stored.size() == 2);
  CHECK(stored[0].name == "a");
  CHECK(stored[0].tensor.dtype() == DataType::int16);
  CHECK(std::vector<int16_t>(stored[0].tensor.span<int16_t>().begin(),
                             stored[0].tensor.span<int16_t>().end()) ==
        std::vector<int16_t>{0, 1, 2});
  CHECK(stored[1].name == "b");
  CHECK(stored[1].tensor.strings() == std::vector<std::string>{"hi", "\xc3\xbcn\xc3\xaf"});

  const auto deflated = parse_npz(kNumpySavezCompressed, "compressed.npz");
  REQUIRE(deflated.size() == 2);
  CHECK(deflated[0].name == "x");
  CHECK(deflated[0].tensor.shape() == Shape{2, 2});
  CHECK(deflated[0].tensor.span<float>()[3] == 1.0f);
  CHECK(deflated[1].name == "y");
  CHECK(deflated[1].tensor.dtype() == DataType::boolean);
  CHECK(deflated[1].tensor.span<bool>()[0]);
  for (const ZipEntry& e : read_zip_directory(kNumpySavezCompressed, "c.npz")) CHECK(e.method == 8);
}

// ---- zip64 -----------------------------------------------------------------------------------

TEST_CASE("npz: zip64 extra fields and end records read back") {
  const auto tensors = all_types({3});
  for (bool compress : {false, true}) {
    std::string out;
    ZipWriter zip([&out](std::string_view b) { out += b; }, {.force_zip64 = true});
    for (const NamedTensor& t : tensors) {
      const NpyParts parts = encode_npy(t.tensor);
      const std::array<std::string_view, 2> pieces = {parts.header, parts.payload()};
      zip.add(t.name + ".npy", pieces, compress, 64);
    }
    zip.finish();
    const std::size_t central = find_sig(out, kCentral);
    CHECK(get32(out, central + 20) == 0xFFFFFFFF);  // sizes and offset live in the zip64 field
    CHECK(get32(out, central + 42) == 0xFFFFFFFF);
    const std::size_t end64 = find_sig(out, kEnd64, true);
    CHECK(find_sig(out, kLocator64, true) == end64 + 56);
    check_same(parse_npz(out, "zip64.npz"), tensors);
  }
}

TEST_CASE("npz: more than 65535 members need zip64, and read back") {
  std::vector<NamedTensor> many;
  for (int i = 0; i < 70000; ++i)
    many.push_back({"t" + std::to_string(i), Tensor::scalar<uint8_t>(static_cast<uint8_t>(i))});
  const std::string bytes = serialize_npz(many, false);
  const std::size_t end = find_sig(bytes, kEnd, true);
  CHECK(get32(bytes, end + 8) == 0xFFFFFFFF);  // both 16-bit counts saturated
  find_sig(bytes, kEnd64, true);
  const auto back = parse_npz(bytes, "many.npz");
  REQUIRE(back.size() == many.size());
  CHECK(back[69999].name == "t69999");
  CHECK(back[69999].tensor.span<uint8_t>()[0] == static_cast<uint8_t>(69999));
}

// ---- malformed archives ----------------------------------------------------------------------

TEST_CASE("npz: each kind of malformed archive gives its rule") {
  const std::string npy = small_npy();
  const std::string good = archive({{"a.npy", npy}, {"b.npy", npy}});
  const std::string good_deflated = archive({{"a.npy", npy}}, true);
  const std::size_t central = find_sig(good, kCentral);
  const std::size_t end = find_sig(good, kEnd, true);
  const auto patched = [](std::string s, std::size_t at, uint32_t v, int width = 2) {
    if (width == 2) set16(s, at, v);
    if (width == 4) set32(s, at, v);
    if (width == 1) s[at] = static_cast<char>(v);
    return s;
  };
  const ZipEntry first = read_zip_directory(good, "good")[0];
  const ZipEntry first_deflated = read_zip_directory(good_deflated, "good")[0];
  const std::size_t central_deflated = find_sig(good_deflated, kCentral);
  struct Case {
    const char* what;
    std::string bytes;
    const char* rule;
  };
  const std::vector<Case> cases = {
      {"empty file", "", "npz.bad-zip"},
      {"text", "this is not a zip archive at all, it is text", "npz.bad-zip"},
      {"an npy file", npy, "npz.bad-zip"},
      {"encrypted", patched(good, central + 8, 1), "npz.encrypted"},
      {"strong encryption", patched(good, central + 8, 1 << 6), "npz.encrypted"},
      {"aes", patched(good, central + 10, 99), "npz.encrypted"},
      {"bzip2", patched(good, central + 10, 12), "npz.unsupported-compression"},
      {"bad crc", patched(good, first.data_offset + first.size - 1, 0x55, 1), "npz.bad-crc"},
      {"crc field", patched(good, central + 16, 0x12345678, 4), "npz.bad-crc"},
      {"parent dir", archive({{"../evil.npy", npy}}), "npz.unsafe-name"},
      {"nested parent dir", archive({{"a/../../evil.npy", npy}}), "npz.unsafe-name"},
      {"absolute", archive({{"/etc/evil.npy", npy}}), "npz.unsafe-name"},
      {"backslashes", archive({{"a\\..\\..\\evil.npy", npy}}), "npz.unsafe-name"},
      {"drive letter", archive({{"C:evil.npy", npy}}), "npz.unsafe-name"},
      {"duplicate", archive({{"a.npy", npy}, {"a.npy", npy}}), "npz.duplicate-name"},
      {"not npy", archive({{"readme.txt", "hello"}}), "npz.not-npy"},
      {"directory", archive({{"dir/", ""}}), "npz.not-npy"},
      {"bad npy inside", archive({{"x.npy", "garbage"}}), "npy.bad-magic"},
      {"truncated npy inside", archive({{"x.npy", npy.substr(0, 100)}}), "npy.truncated"},
      {"count beyond the directory", patched(patched(good, end + 8, 900), end + 10, 900),
       "npz.bad-zip"},
      {"count below the directory", patched(patched(good, end + 8, 1), end + 10, 1), "npz.bad-zip"},
      {"directory offset past the end", patched(good, end + 16, 0x7FFFFFFF, 4), "npz.bad-zip"},
      {"directory size past the end", patched(good, end + 12, 0x7FFFFFFF, 4), "npz.bad-zip"},
      {"two disks", patched(good, end + 4, 1), "npz.bad-zip"},
      {"member on another disk", patched(good, central + 34, 1), "npz.bad-zip"},
      {"no central signature", patched(good, central, 0, 4), "npz.bad-zip"},
      {"local offset wrong", patched(good, central + 42, 7, 4), "npz.bad-zip"},
      {"local offset past the end", patched(good, central + 42, 0x7FFFFFF0, 4), "npz.bad-zip"},
      {"local name differs", patched(good, 30, 'z', 1), "npz.bad-zip"},
      {"local method differs", patched(good, 8, 8), "npz.bad-zip"},
      {"name length past the directory", patched(good, central + 28, 0xFFFF), "npz.bad-zip"},
      {"extra past the directory", patched(good, central + 30, 0xFFF0), "npz.bad-zip"},
      {"stored sizes differ", patched(good, central + 24, 3, 4), "npz.bad-zip"},
      {"stored size past the end",
       patched(patched(good, central + 24, 0x7FFFFFFF, 4), central + 20, 0x7FFFFFFF, 4),
       "npz.bad-zip"},
      {"inflates to more",
       patched(good_deflated, central_deflated + 24, first_deflated.size - 1, 4), "npz.bad-zip"},
      {"inflates to less",
       patched(good_deflated, central_deflated + 24, first_deflated.size + 1, 4), "npz.bad-zip"},
      {"zip bomb", patched(good_deflated, central_deflated + 24, 0xFFFFFFF0, 4), "npz.bad-zip"},
      {"deflate stream cut",
       patched(good_deflated, central_deflated + 20,
               static_cast<uint32_t>(first_deflated.compressed_size) - 4, 4),
       "npz.bad-zip"},
      {"invalid deflate block", patched(good_deflated, first_deflated.data_offset, 0xFF, 1),
       "npz.bad-zip"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK(rule_of(c.bytes) == c.rule);
  }
  CHECK(rule_of(good) == "ok");
  CHECK(rule_of(good_deflated) == "ok");
}

TEST_CASE("npz: a zip64 locator pointing nowhere is an error") {
  std::string out = archive({{"a.npy", small_npy()}}, false, {.force_zip64 = true});
  const std::size_t locator = find_sig(out, kLocator64, true);
  set32(out, locator + 8, 3);  // the zip64 end record's offset
  CHECK(rule_of(out) == "npz.bad-zip");
  set32(out, locator + 8, 0x7FFFFFF0);
  CHECK(rule_of(out) == "npz.bad-zip");
}

TEST_CASE("npz: errors name the archive and the member") {
  try {
    parse_npz(archive({{"w.npy", serialize_npy(Tensor::scalar<float>(1)) + "x"}}), "arch.npz");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.rule() == "npy.trailing-data");
    CHECK(e.file() == "arch.npz");
    CHECK(e.location() == "member \"w.npy\"");
  }
  try {
    std::string s = archive({{"w.npy", small_npy()}});
    set16(s, find_sig(s, kCentral) + 10, 14);
    parse_npz(s, "arch.npz");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() ==
          "zip: compression method 14 (lzma) is not supported; onnxtool reads stored (0) and "
          "deflated (8) members");
  }
  test::TempDir dir;
  try {
    read_npz(dir / "absent.npz");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
  }
}

TEST_CASE("npz: every truncation of a valid archive is an error, never a crash") {
  const std::vector<NamedTensor> tensors = {{"a", Tensor::from_vector<int16_t>({3}, {1, 2, 3})},
                                            {"s", Tensor::from_strings({2}, {"x", "yz"})}};
  for (bool compress : {false, true}) {
    const std::string bytes = serialize_npz(tensors, compress);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      CAPTURE(n);
      CHECK(rule_of(bytes.substr(0, n)) != "ok");
    }
  }
  const std::string zip64 = archive({{"a.npy", small_npy()}}, true, {.force_zip64 = true});
  for (std::size_t n = 0; n < zip64.size(); ++n) CHECK(rule_of(zip64.substr(0, n)) != "ok");
}

TEST_CASE("npz: random corruption is an error or tensors, never a crash") {
  const std::vector<NamedTensor> tensors = {{"a", Tensor::from_vector<int16_t>({3}, {1, 2, 3})},
                                            {"b", Tensor::scalar<double>(0.5)}};
  const std::vector<std::string> archives = {
      serialize_npz(tensors, false), serialize_npz(tensors, true),
      archive({{"a.npy", small_npy()}}, true, {.force_zip64 = true}), kNumpySavez};
  uint64_t state = 0x2545f4914f6cdd1d;
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (const std::string& good : archives) {
    for (int round = 0; round < 3000; ++round) {
      std::string s = good;
      const int edits = 1 + static_cast<int>(next() % 3);
      for (int k = 0; k < edits; ++k) {
        const uint64_t r = next();
        const std::size_t at = r % s.size();
        // Mostly small changes to numbers, so sizes and offsets go slightly wrong.
        s[at] =
            static_cast<char>(r % 5 == 0 ? (r >> 8) : s[at] + static_cast<char>((r >> 8) % 3) - 1);
      }
      try {
        parse_npz(s, "fuzz.npz");
      } catch (const Error&) {
        // expected for most inputs
      }
    }
  }
}

}  // namespace
}  // namespace onnxtool
