// SPDX-License-Identifier: Apache-2.0
#include "core/types/tensor_proto.h"

#include <doctest/doctest.h>

#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "core/types/float_formats.h"
#include "onnx.pb.h"

using namespace onnxtool;

namespace {

// Keeps only the bits a sub-byte or bool element may have, as Tensor holds them in memory.
uint8_t legal_byte(DataType t, uint8_t b) {
  switch (t) {
    case DataType::boolean:
      return b & 1;
    case DataType::uint4:
    case DataType::float4e2m1:
      return b & 0xF;
    case DataType::uint2:
      return b & 0x3;
    case DataType::int4:
      return (b & 0x8) ? (b | 0xF0) : (b & 0xF);
    case DataType::int2:
      return (b & 0x2) ? (b | 0xFC) : (b & 0x3);
    default:
      return b;
  }
}

// A tensor whose every byte differs from its neighbours (NaN payloads and all), legal for t.
Tensor sample(DataType t, Shape shape) {
  if (t == DataType::string) {
    Tensor s(DataType::string, shape);
    auto& v = s.mutable_strings();
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = i % 3 == 0 ? std::string() : std::string("s\0\xff", 3) + std::to_string(i);
    return s;
  }
  Tensor out(t, std::move(shape));
  auto* bytes = reinterpret_cast<uint8_t*>(out.mutable_raw());
  for (std::size_t i = 0; i < out.nbytes(); ++i)
    bytes[i] = legal_byte(t, static_cast<uint8_t>(i * 151 + 29));
  return out;
}

bool same(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == DataType::string) return a.strings() == b.strings();
  return a.nbytes() == b.nbytes() &&
         (a.nbytes() == 0 || std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0);
}

onnx::TensorProto proto_of(DataType t, Shape dims) {
  onnx::TensorProto p;
  p.set_data_type(static_cast<int32_t>(t));
  for (int64_t d : dims) p.add_dims(d);
  return p;
}

// Writes the typed-field form of a tensor by hand, independently of tensor_to_proto.
onnx::TensorProto typed_proto(const Tensor& t) {
  onnx::TensorProto p = proto_of(t.dtype(), t.shape());
  const auto n = static_cast<std::size_t>(t.numel());
  const auto* bytes = reinterpret_cast<const uint8_t*>(t.raw());
  const int bits = type_info(t.dtype()).bits;
  switch (t.dtype()) {
    case DataType::float32:
    case DataType::complex64:
      for (std::size_t i = 0; i < t.nbytes() / 4; ++i) p.add_float_data(t.data<float>()[i]);
      break;
    case DataType::float64:
    case DataType::complex128:
      for (std::size_t i = 0; i < t.nbytes() / 8; ++i) p.add_double_data(t.data<double>()[i]);
      break;
    case DataType::int64:
      for (int64_t v : t.span<int64_t>()) p.add_int64_data(v);
      break;
    case DataType::uint64:
      for (uint64_t v : t.span<uint64_t>()) p.add_uint64_data(v);
      break;
    case DataType::uint32:
      for (uint32_t v : t.span<uint32_t>()) p.add_uint64_data(v);
      break;
    case DataType::string:
      for (const auto& s : t.strings()) p.add_string_data(s);
      break;
    case DataType::int32:
      for (int32_t v : t.span<int32_t>()) p.add_int32_data(v);
      break;
    case DataType::int16:
      for (int16_t v : t.span<int16_t>()) p.add_int32_data(v);
      break;
    case DataType::int8:
      for (int8_t v : t.span<int8_t>()) p.add_int32_data(v);
      break;
    case DataType::uint16:
    case DataType::float16:
    case DataType::bfloat16:
      for (std::size_t i = 0; i < n; ++i) p.add_int32_data(t.data<uint16_t>()[i]);
      break;
    default:
      if (bits >= 8) {  // uint8, bool, the float8 formats: one pattern per entry
        for (std::size_t i = 0; i < n; ++i) p.add_int32_data(bytes[i]);
        break;
      }
      // Packed: 8 / bits elements per entry, first in the low bits.
      const std::size_t per = 8 / static_cast<std::size_t>(bits);
      for (std::size_t i = 0; i < n; i += per) {
        int32_t v = 0;
        for (std::size_t k = 0; k < per && i + k < n; ++k)
          v |= (bytes[i + k] & ((1 << bits) - 1)) << (k * static_cast<std::size_t>(bits));
        p.add_int32_data(v);
      }
  }
  return p;
}

struct Failure {
  std::string rule, message, file, location;
};

Failure failure_of(const onnx::TensorProto& p, const TensorSource& source = {}) {
  try {
    tensor_from_proto(p, source);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid);
    return {e.rule(), e.message(), e.file(), e.location()};
  }
  return {"(no error)", "", "", ""};
}

std::string rule_of(const onnx::TensorProto& p, const TensorSource& source = {}) {
  return failure_of(p, source).rule;
}

// TensorSource with one member set (designated initializers would trip -Wextra).
TensorSource owned_by(std::shared_ptr<const void> owner) {
  TensorSource s;
  s.owner = std::move(owner);
  return s;
}

TensorSource reading(std::function<std::shared_ptr<Storage>(const onnx::TensorProto&)> f) {
  TensorSource s;
  s.external_bytes = std::move(f);
  return s;
}

TensorSource named(std::string file, std::string location) {
  TensorSource s;
  s.file = std::move(file);
  s.location = std::move(location);
  return s;
}

const std::vector<Shape> kShapes = {{}, {0}, {1}, {3, 5}, {2, 0, 3}, {7}, {4, 2}};

}  // namespace

// ---- round trips -----------------------------------------------------------------------------

TEST_CASE("tensor_proto: every type survives Tensor -> proto -> bytes -> proto -> Tensor") {
  REQUIRE(all_type_infos().size() == 26);
  for (const auto& info : all_type_infos()) {
    for (const Shape& shape : kShapes) {
      CAPTURE(info.name);
      CAPTURE(shape_to_string(shape));
      const Tensor t = sample(info.type, shape);
      onnx::TensorProto p;
      tensor_to_proto(t, p);
      CHECK(p.data_type() == static_cast<int32_t>(info.type));
      if (info.type == DataType::string) {
        CHECK(p.raw_data().empty());
        CHECK(p.string_data_size() == t.numel());
      } else {
        CHECK(p.raw_data().size() == *wire_bytes(info.type, static_cast<uint64_t>(t.numel())));
        CHECK(*expected_wire_bytes(p) == p.raw_data().size());
      }
      onnx::TensorProto parsed;
      REQUIRE(parsed.ParseFromString(p.SerializeAsString()));
      const Tensor back = tensor_from_proto(parsed);
      CHECK(same(t, back));
    }
  }
}

TEST_CASE("tensor_proto: every typed field decodes like raw_data") {
  for (const auto& info : all_type_infos()) {
    for (const Shape& shape : kShapes) {
      CAPTURE(info.name);
      CAPTURE(shape_to_string(shape));
      const Tensor t = sample(info.type, shape);
      const Tensor from_typed = tensor_from_proto(typed_proto(t));
      CHECK(same(t, from_typed));
      if (info.type == DataType::string) continue;
      onnx::TensorProto raw;
      tensor_to_proto(t, raw);
      CHECK(same(tensor_from_proto(raw), from_typed));
    }
  }
}

TEST_CASE("tensor_proto: typed fields with hand-checked values") {
  SUBCASE("float16 and bfloat16 bit patterns in int32_data, either sign convention") {
    onnx::TensorProto p = proto_of(DataType::float16, {4});
    for (int32_t v : {0x3C00, 0xC000, 0x8000, -32768}) p.add_int32_data(v);
    const Tensor t = tensor_from_proto(p);
    CHECK(to_float(t.data<Float16>()[0]) == 1.0f);
    CHECK(to_float(t.data<Float16>()[1]) == -2.0f);
    CHECK(t.data<Float16>()[2].bits == 0x8000);
    CHECK(t.data<Float16>()[3].bits == 0x8000);
    onnx::TensorProto b = proto_of(DataType::bfloat16, {1});
    b.add_int32_data(0x3F80);
    CHECK(to_float(tensor_from_proto(b).data<BFloat16>()[0]) == 1.0f);
  }
  SUBCASE("int4: two per entry, odd count, sign-extended") {
    onnx::TensorProto p = proto_of(DataType::int4, {5});
    for (int32_t v : {0x78, 0x0F, 0x03}) p.add_int32_data(v);  // -8 7 | -1 0 | 3 (pad)
    const Tensor t = tensor_from_proto(p);
    const std::vector<int8_t> want = {-8, 7, -1, 0, 3};
    CHECK(std::vector<int8_t>(t.data<int8_t>(), t.data<int8_t>() + 5) == want);
  }
  SUBCASE("uint2 and int2: four per entry, count not a multiple of four") {
    onnx::TensorProto p = proto_of(DataType::uint2, {5});
    p.add_int32_data(0xE4);  // 0 1 2 3
    p.add_int32_data(0x01);  // 1
    const Tensor t = tensor_from_proto(p);
    CHECK(std::vector<uint8_t>(t.data<uint8_t>(), t.data<uint8_t>() + 5) ==
          std::vector<uint8_t>{0, 1, 2, 3, 1});
    onnx::TensorProto q = proto_of(DataType::int2, {6});
    q.add_int32_data(0x4E);  // -2 -1 0 1
    q.add_int32_data(-1);    // -1 -1 (and padding): a sign-extended byte is accepted
    const Tensor s = tensor_from_proto(q);
    CHECK(std::vector<int8_t>(s.data<int8_t>(), s.data<int8_t>() + 6) ==
          std::vector<int8_t>{-2, -1, 0, 1, -1, -1});
  }
  SUBCASE("float4e2m1 as written by the ONNX backend test for Cast") {
    onnx::TensorProto p = proto_of(DataType::float4e2m1, {3, 5});
    for (int32_t v : {1, 226, 127, 7, 119, 247, 14, 8}) p.add_int32_data(v);
    const Tensor t = tensor_from_proto(p);
    const std::vector<float> want = {0.5f, 0, 1, -4, -6, 6, 6, 0, 6, 6, 6, -6, -4, 0, -0.0f};
    for (std::size_t i = 0; i < want.size(); ++i)
      CHECK(to_float(t.data<Float4E2M1>()[i]) == want[i]);
  }
  SUBCASE("bool in int32_data: non-zero is true") {
    onnx::TensorProto p = proto_of(DataType::boolean, {3});
    for (int32_t v : {0, 1, 5}) p.add_int32_data(v);
    const Tensor t = tensor_from_proto(p);
    CHECK(std::vector<uint8_t>(t.data<uint8_t>(), t.data<uint8_t>() + 3) ==
          std::vector<uint8_t>{0, 1, 1});
  }
  SUBCASE("complex in float_data and double_data: real, imaginary pairs") {
    onnx::TensorProto p = proto_of(DataType::complex64, {2});
    for (float v : {1.0f, 2.0f, 3.0f, 4.0f}) p.add_float_data(v);
    const Tensor t = tensor_from_proto(p);
    CHECK(t.data<std::complex<float>>()[1] == std::complex<float>(3, 4));
    onnx::TensorProto q = proto_of(DataType::complex128, {1});
    q.add_double_data(-1.5);
    q.add_double_data(0.25);
    CHECK(tensor_from_proto(q).data<std::complex<double>>()[0] == std::complex<double>(-1.5, 0.25));
  }
  SUBCASE("uint32 and uint64 in uint64_data") {
    onnx::TensorProto p = proto_of(DataType::uint32, {1});
    p.add_uint64_data(4294967295u);
    CHECK(tensor_from_proto(p).data<uint32_t>()[0] == 4294967295u);
    onnx::TensorProto q = proto_of(DataType::uint64, {1});
    q.add_uint64_data(~uint64_t{0});
    CHECK(tensor_from_proto(q).data<uint64_t>()[0] == ~uint64_t{0});
  }
}

TEST_CASE("tensor_proto: no data is fine without elements") {
  CHECK(tensor_from_proto(proto_of(DataType::float32, {0, 4})).numel() == 0);
  CHECK(tensor_from_proto(proto_of(DataType::string, {0})).strings().empty());
  onnx::TensorProto p = proto_of(DataType::int4, {0});
  p.set_raw_data("");
  CHECK(tensor_from_proto(p).numel() == 0);
}

// ---- zero copy -------------------------------------------------------------------------------

TEST_CASE("tensor_proto: raw_data is aliased when an owner keeps the proto alive") {
  auto proto = std::make_shared<onnx::TensorProto>();
  tensor_to_proto(Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4}), *proto);
  const auto* raw = reinterpret_cast<const std::byte*>(proto->raw_data().data());

  const Tensor copied = tensor_from_proto(*proto);
  CHECK_FALSE(copied.is_view());
  CHECK(copied.raw() != raw);

  Tensor viewed = tensor_from_proto(*proto, owned_by(proto));
  CHECK(viewed.is_view());
  CHECK(viewed.raw() == raw);
  proto.reset();  // the tensor holds the proto now
  CHECK(viewed.data<float>()[3] == 4.0f);
  viewed.mutable_data<float>()[0] = 9.0f;  // writing detaches
  CHECK_FALSE(viewed.is_view());
  CHECK(viewed.data<float>()[0] == 9.0f);
  CHECK(viewed.data<float>()[3] == 4.0f);
}

TEST_CASE("tensor_proto: bool raw_data is aliased only when every byte is 0 or 1") {
  auto proto = std::make_shared<onnx::TensorProto>(proto_of(DataType::boolean, {4}));
  proto->set_raw_data(std::string("\x00\x01\x01\x00", 4));
  const Tensor ok = tensor_from_proto(*proto, owned_by(proto));
  CHECK(ok.is_view());
  proto->set_raw_data(std::string("\x00\x02\xff\x01", 4));
  const Tensor normalised = tensor_from_proto(*proto, owned_by(proto));
  CHECK_FALSE(normalised.is_view());
  CHECK(std::vector<uint8_t>(normalised.data<uint8_t>(), normalised.data<uint8_t>() + 4) ==
        std::vector<uint8_t>{0, 1, 1, 1});
}

TEST_CASE("tensor_proto: sub-byte raw_data is unpacked, never aliased") {
  auto proto = std::make_shared<onnx::TensorProto>(proto_of(DataType::uint4, {3}));
  proto->set_raw_data(std::string("\x21\x03", 2));
  const Tensor t = tensor_from_proto(*proto, owned_by(proto));
  CHECK_FALSE(t.is_view());
  CHECK(std::vector<uint8_t>(t.data<uint8_t>(), t.data<uint8_t>() + 3) ==
        std::vector<uint8_t>{1, 2, 3});
}

TEST_CASE("tensor_proto: external data") {
  onnx::TensorProto p = proto_of(DataType::int32, {3});
  p.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* entry = p.add_external_data();
  entry->set_key("location");
  entry->set_value("weights.bin");
  auto buffer = std::make_shared<std::vector<int32_t>>(std::vector<int32_t>{7, -8, 9, 10});
  auto bytes_at = [&](std::size_t byte_offset, std::size_t size) {
    return [=](const onnx::TensorProto&) {
      return Storage::view(reinterpret_cast<const std::byte*>(buffer->data()) + byte_offset, size,
                           buffer);
    };
  };
  SUBCASE("aligned: aliased") {
    const Tensor t = tensor_from_proto(p, reading(bytes_at(0, 12)));
    CHECK(t.is_view());
    CHECK(t.raw() == reinterpret_cast<const std::byte*>(buffer->data()));
    CHECK(t.data<int32_t>()[1] == -8);
  }
  SUBCASE("misaligned: copied") {
    p.set_data_type(static_cast<int32_t>(DataType::int16));
    const Tensor t = tensor_from_proto(p, reading(bytes_at(1, 6)));
    CHECK_FALSE(t.is_view());
    int16_t want = 0;
    std::memcpy(&want, reinterpret_cast<const std::byte*>(buffer->data()) + 1, 2);
    CHECK(t.data<int16_t>()[0] == want);
  }
  SUBCASE("wrong size") {
    const Failure f = failure_of(p, reading(bytes_at(0, 16)));
    CHECK(f.rule == "tensor.size-mismatch");
    CHECK(f.message == "external data has 16 bytes, expected 12 for 3 elements of int32");
  }
  SUBCASE("no reader") {
    CHECK(rule_of(p) == "tensor.external-data-unavailable");
  }
  SUBCASE("external and inline at once") {
    p.add_int32_data(1);
    CHECK(rule_of(p, reading(bytes_at(0, 12))) == "tensor.multiple-storage");
  }
  SUBCASE("strings cannot be external") {
    p.set_data_type(static_cast<int32_t>(DataType::string));
    CHECK(rule_of(p, reading(bytes_at(0, 12))) == "tensor.wrong-field-for-type");
  }
}

// ---- errors ----------------------------------------------------------------------------------

TEST_CASE("tensor_proto: unknown data types") {
  onnx::TensorProto p;
  p.add_dims(1);
  p.add_float_data(1);
  CHECK(rule_of(p) == "tensor.unknown-type");
  p.set_data_type(0);
  CHECK(rule_of(p) == "tensor.unknown-type");
  p.set_data_type(99);
  const Failure f = failure_of(p);
  CHECK(f.rule == "tensor.unknown-type");
  CHECK(f.message == "data_type 99 is not a known type; expected one of 1..26");
  p.set_data_type(-3);
  CHECK(rule_of(p) == "tensor.unknown-type");
}

TEST_CASE("tensor_proto: bad dims") {
  onnx::TensorProto p = proto_of(DataType::float32, {2, -1});
  const Failure f = failure_of(p);
  CHECK(f.rule == "tensor.bad-dims");
  CHECK(f.message == "dims [2,-1] has a negative dim at 1; expected dims >= 0");
  CHECK(rule_of(proto_of(DataType::float32, {int64_t{1} << 32, int64_t{1} << 32})) ==
        "tensor.bad-dims");
}

TEST_CASE("tensor_proto: huge dims without data are rejected without allocating") {
  // 2^40 floats would be 4 TiB; under AddressSanitizer an attempt would abort the test.
  const onnx::TensorProto p = proto_of(DataType::float32, {int64_t{1} << 20, int64_t{1} << 20});
  const Failure f = failure_of(p);
  CHECK(f.rule == "tensor.missing-data");
  CHECK(f.message ==
        "no data for 1099511627776 elements of float; expected float_data or raw_data (or "
        "external data)");
  onnx::TensorProto q = p;
  q.set_raw_data("abcd");
  CHECK(rule_of(q) == "tensor.size-mismatch");
  q.clear_raw_data();
  q.add_float_data(1);
  CHECK(rule_of(q) == "tensor.size-mismatch");
  onnx::TensorProto packed = proto_of(DataType::uint2, {int64_t{1} << 40});
  packed.add_int32_data(0);
  CHECK(failure_of(packed).message ==
        "int32_data has 1 values, expected 274877906944 for 1099511627776 elements of uint2 "
        "(four per value)");
}

TEST_CASE("tensor_proto: size mismatches say what was expected") {
  onnx::TensorProto p = proto_of(DataType::float32, {3});
  p.set_raw_data(std::string(10, '\0'));
  Failure f = failure_of(p);
  CHECK(f.rule == "tensor.size-mismatch");
  CHECK(f.message == "raw_data has 10 bytes, expected 12 for 3 elements of float");

  onnx::TensorProto c = proto_of(DataType::complex64, {2});
  for (int i = 0; i < 3; ++i) c.add_float_data(0);
  f = failure_of(c);
  CHECK(f.rule == "tensor.size-mismatch");
  CHECK(f.message ==
        "float_data has 3 values, expected 4 for 2 elements of complex64 (real and imaginary "
        "parts)");

  onnx::TensorProto q = proto_of(DataType::int4, {5});
  q.add_int32_data(0);
  q.add_int32_data(0);
  f = failure_of(q);
  CHECK(f.message == "int32_data has 2 values, expected 3 for 5 elements of int4 (two per value)");

  onnx::TensorProto s = proto_of(DataType::string, {2});
  s.add_string_data()->assign(1, 'a');  // (a literal trips a GCC 12 -Wrestrict false positive)
  CHECK(failure_of(s).message == "string_data has 1 values, expected 2 for 2 elements of string");

  onnx::TensorProto z = proto_of(DataType::float32, {0});
  z.set_raw_data("abcd");
  CHECK(rule_of(z) == "tensor.size-mismatch");

  onnx::TensorProto packed = proto_of(DataType::int4, {3});
  packed.set_raw_data("abc");
  CHECK(failure_of(packed).message == "raw_data has 3 bytes, expected 2 for 3 elements of int4");
}

TEST_CASE("tensor_proto: more than one storage field") {
  onnx::TensorProto p = proto_of(DataType::float32, {1});
  p.add_float_data(1);
  p.set_raw_data(std::string(4, '\0'));
  Failure f = failure_of(p);
  CHECK(f.rule == "tensor.multiple-storage");
  CHECK(f.message ==
        "raw_data and float_data are both set; expected the elements in exactly one of them");
  p.add_int32_data(1);
  CHECK(failure_of(p).message ==
        "raw_data, float_data and int32_data are all set; expected the elements in exactly one "
        "of them");
  // An empty raw_data is not a second form.
  onnx::TensorProto q = proto_of(DataType::float32, {1});
  q.add_float_data(1);
  q.set_raw_data("");
  CHECK(tensor_from_proto(q).data<float>()[0] == 1.0f);
}

TEST_CASE("tensor_proto: a field that the type may not use") {
  auto with = [](DataType t, auto fill) {
    onnx::TensorProto p = proto_of(t, {1});
    fill(p);
    return failure_of(p);
  };
  Failure f = with(DataType::int8, [](auto& p) { p.add_float_data(1); });
  CHECK(f.rule == "tensor.wrong-field-for-type");
  CHECK(f.message ==
        "float_data cannot hold elements of int8; expected int32_data or raw_data (or external "
        "data)");
  f = with(DataType::string, [](auto& p) { p.set_raw_data("x"); });
  CHECK(f.rule == "tensor.wrong-field-for-type");
  CHECK(f.message == "raw_data cannot hold elements of string; expected string_data");
  CHECK(with(DataType::int32, [](auto& p) { p.add_int64_data(1); }).rule ==
        "tensor.wrong-field-for-type");
  CHECK(with(DataType::int64, [](auto& p) { p.add_int32_data(1); }).rule ==
        "tensor.wrong-field-for-type");
  CHECK(with(DataType::int64, [](auto& p) { p.add_uint64_data(1); }).rule ==
        "tensor.wrong-field-for-type");
  CHECK(with(DataType::float32, [](auto& p) { p.add_double_data(1); }).rule ==
        "tensor.wrong-field-for-type");
  CHECK(with(DataType::float32, [](auto& p) { p.add_string_data("1"); }).rule ==
        "tensor.wrong-field-for-type");
  CHECK(with(DataType::uint32, [](auto& p) { p.add_int32_data(1); }).rule ==
        "tensor.wrong-field-for-type");
  CHECK(with(DataType::float64, [](auto& p) { p.add_float_data(1); }).rule ==
        "tensor.wrong-field-for-type");
}

TEST_CASE("tensor_proto: missing data") {
  onnx::TensorProto p = proto_of(DataType::int8, {2, 3});
  Failure f = failure_of(p);
  CHECK(f.rule == "tensor.missing-data");
  CHECK(f.message ==
        "no data for 6 elements of int8; expected int32_data or raw_data (or "
        "external data)");
  auto* e = p.add_external_data();
  e->set_key("location");
  e->set_value("x.bin");
  CHECK(failure_of(p).message ==
        "no data for 6 elements of int8; expected int32_data or raw_data (or external data) "
        "(external_data is set but data_location is not EXTERNAL)");
  CHECK(failure_of(proto_of(DataType::string, {1})).message ==
        "no data for 1 element of string; expected string_data");
}

TEST_CASE("tensor_proto: values outside the element type") {
  auto int32_failure = [](DataType t, int32_t v) {
    onnx::TensorProto p = proto_of(t, {1});
    p.add_int32_data(v);
    return failure_of(p);
  };
  Failure f = int32_failure(DataType::int8, 300);
  CHECK(f.rule == "tensor.value-out-of-range");
  CHECK(f.message == "int32_data[0] is 300, outside the range of int8 (-128..127)");
  CHECK(int32_failure(DataType::uint8, -1).rule == "tensor.value-out-of-range");
  CHECK(int32_failure(DataType::uint16, 70000).rule == "tensor.value-out-of-range");
  CHECK(int32_failure(DataType::int16, 40000).rule == "tensor.value-out-of-range");
  CHECK(int32_failure(DataType::float16, -40000).rule == "tensor.value-out-of-range");
  CHECK(int32_failure(DataType::float8e4m3fn, 256).rule == "tensor.value-out-of-range");
  CHECK(int32_failure(DataType::uint4, 0x100).rule == "tensor.value-out-of-range");
  onnx::TensorProto p = proto_of(DataType::uint32, {1});
  p.add_uint64_data(uint64_t{1} << 32);
  f = failure_of(p);
  CHECK(f.rule == "tensor.value-out-of-range");
  CHECK(f.message == "uint64_data[0] is 4294967296, outside the range of uint32 (0..4294967295)");
}

TEST_CASE("tensor_proto: segments are not supported") {
  onnx::TensorProto p = proto_of(DataType::float32, {1});
  p.add_float_data(1);
  p.mutable_segment()->set_begin(0);
  p.mutable_segment()->set_end(1);
  const Failure f = failure_of(p);
  CHECK(f.rule == "tensor.segment-unsupported");
  CHECK(f.message == "segment is set: tensors split into segments are not supported");
}

TEST_CASE("tensor_proto: errors carry the source's file and location") {
  const Failure f = failure_of(proto_of(DataType::float32, {1}),
                               named("model.onnx", "graph.initializer[3] \"w\""));
  CHECK(f.file == "model.onnx");
  CHECK(f.location == "graph.initializer[3] \"w\"");
}

// ---- encoding and helpers ----------------------------------------------------------------------

TEST_CASE("tensor_to_proto: replaces every storage field, keeps name and doc_string") {
  onnx::TensorProto p = proto_of(DataType::float64, {9});
  p.set_name("w");
  p.set_doc_string("weights");
  p.add_double_data(1);
  p.add_float_data(2);
  p.add_int32_data(3);
  p.add_int64_data(4);
  p.add_uint64_data(5);
  p.add_string_data()->assign(1, '6');
  p.set_raw_data("7");
  p.mutable_segment()->set_begin(0);
  p.set_data_location(onnx::TensorProto::EXTERNAL);
  p.add_external_data()->set_key("location");
  tensor_to_proto(Tensor::from_vector<int16_t>({2}, {-1, 2}), p);
  CHECK(p.name() == "w");
  CHECK(p.doc_string() == "weights");
  CHECK(p.data_type() == static_cast<int32_t>(DataType::int16));
  CHECK(p.dims_size() == 1);
  CHECK(p.dims(0) == 2);
  CHECK(p.raw_data() == std::string("\xff\xff\x02\x00", 4));
  CHECK(p.double_data_size() + p.float_data_size() + p.int32_data_size() + p.int64_data_size() +
            p.uint64_data_size() + p.string_data_size() + p.external_data_size() ==
        0);
  CHECK_FALSE(p.has_segment());
  CHECK_FALSE(p.has_data_location());
}

TEST_CASE("tensor_to_proto: packs sub-byte types as onnx.proto describes") {
  onnx::TensorProto p;
  tensor_to_proto(Tensor::from_vector<Int4>({5}, {{-8}, {7}, {-1}, {0}, {3}}), p);
  CHECK(p.raw_data() == std::string("\x78\x0f\x03", 3));
  tensor_to_proto(Tensor::from_vector<Int2>({5}, {{-2}, {-1}, {0}, {1}, {-1}}), p);
  CHECK(p.raw_data() == std::string("\x4e\x03", 2));
  tensor_to_proto(Tensor::from_vector<Float4E2M1>({2}, {{0x1}, {0xF}}), p);
  CHECK(p.raw_data() == std::string("\xf1", 1));
}

TEST_CASE("pack_subbyte and unpack_subbyte") {
  const uint8_t in4[] = {0x08, 0x07, 0xFF, 0x00, 0x03};  // int4 -8 7 -1 0 3 in memory
  uint8_t packed[3] = {0xAA, 0xAA, 0xAA};
  pack_subbyte(DataType::int4, in4, 5, packed);
  CHECK(packed[0] == 0x78);
  CHECK(packed[1] == 0x0F);
  CHECK(packed[2] == 0x03);  // the padding nibble is zero
  uint8_t out[5] = {};
  unpack_subbyte(DataType::int4, packed, 5, out);
  CHECK(out[0] == 0xF8);  // -8, sign-extended
  CHECK(out[1] == 0x07);
  CHECK(out[2] == 0xFF);
  unpack_subbyte(DataType::uint4, packed, 5, out);
  CHECK(out[0] == 0x08);
  CHECK(out[2] == 0x0F);

  const uint8_t in2[] = {0, 1, 2, 3, 2};
  uint8_t packed2[2] = {0xFF, 0xFF};
  pack_subbyte(DataType::uint2, in2, 5, packed2);
  CHECK(packed2[0] == 0xE4);
  CHECK(packed2[1] == 0x02);
  unpack_subbyte(DataType::int2, packed2, 5, out);
  CHECK(std::vector<uint8_t>(out, out + 5) == std::vector<uint8_t>{0, 1, 0xFE, 0xFF, 0xFE});

  CHECK_THROWS_AS(pack_subbyte(DataType::int8, in2, 1, packed2), Error);
}

TEST_CASE("expected_wire_bytes") {
  CHECK(expected_wire_bytes(proto_of(DataType::float32, {2, 3})) == 24u);
  CHECK(expected_wire_bytes(proto_of(DataType::complex128, {2})) == 32u);
  CHECK(expected_wire_bytes(proto_of(DataType::int4, {5})) == 3u);
  CHECK(expected_wire_bytes(proto_of(DataType::int2, {5})) == 2u);
  CHECK(expected_wire_bytes(proto_of(DataType::boolean, {})) == 1u);
  CHECK(expected_wire_bytes(proto_of(DataType::uint8, {0})) == 0u);
  CHECK_FALSE(expected_wire_bytes(proto_of(DataType::string, {1})));
  CHECK_FALSE(expected_wire_bytes(proto_of(DataType::float32, {-1})));
  CHECK_FALSE(expected_wire_bytes(proto_of(DataType::undefined, {1})));
  onnx::TensorProto p = proto_of(DataType::float32, {1});
  p.set_data_type(77);
  CHECK_FALSE(expected_wire_bytes(p));
}
