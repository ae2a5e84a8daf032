// SPDX-License-Identifier: Apache-2.0
// Conversions between the tensor file formats keep every bit: .npy -> TensorProto -> .npz ->
// .npy for every type both sides can hold.
#include <doctest/doctest.h>

#include <cstring>

#include "core/types/npy.h"
#include "core/types/npz.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

using namespace onnxtool;

namespace {

bool same_bits(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == DataType::string) return a.strings() == b.strings();
  return std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0;
}

// Values legal for the type (sub-byte and bool types hold only their range), with every byte
// pattern a float type can carry, NaN payloads included.
Tensor pattern(DataType t) {
  Tensor x(t, {3, 5});
  if (t == DataType::string) {
    auto& v = x.mutable_strings();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = "v" + std::to_string(i * 7);
    return x;
  }
  auto* bytes = reinterpret_cast<uint8_t*>(x.mutable_raw());
  for (std::size_t i = 0; i < x.nbytes(); ++i) {
    uint8_t b = static_cast<uint8_t>(i * 37 + 11);
    switch (t) {
      case DataType::boolean:
        b &= 1;
        break;
      case DataType::uint4:
      case DataType::float4e2m1:
        b &= 15;
        break;
      case DataType::int4:
        b = static_cast<uint8_t>(static_cast<int8_t>(b << 4) >> 4);
        break;
      case DataType::uint2:
        b &= 3;
        break;
      case DataType::int2:
        b = static_cast<uint8_t>(static_cast<int8_t>(b << 6) >> 6);
        break;
      default:
        break;
    }
    bytes[i] = b;
  }
  return x;
}

}  // namespace

TEST_CASE("npy -> TensorProto -> npz -> npy keeps every bit for every type") {
  for (const auto& info : all_type_infos()) {
    CAPTURE(info.name);
    const Tensor original = pattern(info.type);
    Tensor from_npy = parse_npy(serialize_npy(original), "a.npy");
    onnx::TensorProto proto;
    tensor_to_proto(from_npy, proto);
    Tensor from_proto = tensor_from_proto(proto);
    auto npz = parse_npz(serialize_npz({{"x", from_proto}}, true), "a.npz");
    REQUIRE(npz.size() == 1);
    Tensor back = parse_npy(serialize_npy(npz[0].tensor), "b.npy");
    CHECK(same_bits(original, back));
  }
}
