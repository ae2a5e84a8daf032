// SPDX-License-Identifier: Apache-2.0
#include "core/types/tensor_proto.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

// The places a TensorProto can keep its elements.
enum class Field {
  raw_data,
  float_data,
  int32_data,
  string_data,
  int64_data,
  double_data,
  uint64_data,
  external
};

const char* field_name(Field f) {
  switch (f) {
    case Field::raw_data:
      return "raw_data";
    case Field::float_data:
      return "float_data";
    case Field::int32_data:
      return "int32_data";
    case Field::string_data:
      return "string_data";
    case Field::int64_data:
      return "int64_data";
    case Field::double_data:
      return "double_data";
    case Field::uint64_data:
      return "uint64_data";
    case Field::external:
      return "external data";
  }
  return "?";
}

// The typed field that onnx.proto assigns to each element type.
Field typed_field(DataType t) {
  switch (t) {
    case DataType::float32:
    case DataType::complex64:
      return Field::float_data;
    case DataType::string:
      return Field::string_data;
    case DataType::int64:
      return Field::int64_data;
    case DataType::float64:
    case DataType::complex128:
      return Field::double_data;
    case DataType::uint32:
    case DataType::uint64:
      return Field::uint64_data;
    default:
      return Field::int32_data;  // every type of 16 bits or fewer, and int32
  }
}

bool is_complex(DataType t) {
  return t == DataType::complex64 || t == DataType::complex128;
}

std::string elements_of(int64_t n, DataType t) {
  return std::to_string(n) + (n == 1 ? " element of " : " elements of ") +
         std::string(type_name(t));
}

// Raises errors with the source's file and location.
struct Reporter {
  const TensorSource& source;
  [[noreturn]] void fail(const char* rule, const std::string& message) const {
    throw_invalid(rule, source.file, source.location, message);
  }
};

DataType checked_type(const onnx::TensorProto& p, const Reporter& r) {
  if (p.data_type() == 0)
    r.fail("tensor.unknown-type", "data_type is not set (0, undefined); expected one of 1.." +
                                      std::to_string(kMaxDataType));
  const auto t = data_type_from_int(p.data_type());
  if (!t)
    r.fail("tensor.unknown-type", "data_type " + std::to_string(p.data_type()) +
                                      " is not a known type; expected one of 1.." +
                                      std::to_string(kMaxDataType));
  return *t;
}

// Checks dims and returns the element count.
int64_t checked_count(const Shape& shape, const Reporter& r) {
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] < 0)
      r.fail("tensor.bad-dims", "dims " + shape_to_string(shape) + " has a negative dim at " +
                                    std::to_string(i) + "; expected dims >= 0");
  const auto n = element_count(shape);
  if (!n)
    r.fail("tensor.bad-dims", "dims " + shape_to_string(shape) + " hold more than 2^63-1 elements");
  return *n;
}

bool is_external(const onnx::TensorProto& p) {
  return p.data_location() == onnx::TensorProto::EXTERNAL;
}

// The storage forms in use. Like ONNX's checker, a field counts when it is non-empty, so an
// explicitly empty raw_data next to float_data is not a conflict.
std::vector<Field> fields_in_use(const onnx::TensorProto& p) {
  std::vector<Field> used;
  if (!p.raw_data().empty()) used.push_back(Field::raw_data);
  if (p.float_data_size()) used.push_back(Field::float_data);
  if (p.int32_data_size()) used.push_back(Field::int32_data);
  if (p.string_data_size()) used.push_back(Field::string_data);
  if (p.int64_data_size()) used.push_back(Field::int64_data);
  if (p.double_data_size()) used.push_back(Field::double_data);
  if (p.uint64_data_size()) used.push_back(Field::uint64_data);
  if (is_external(p)) used.push_back(Field::external);
  return used;
}

std::string allowed_fields(DataType t) {
  if (t == DataType::string) return "string_data";
  return std::string(field_name(typed_field(t))) + " or raw_data (or external data)";
}

std::string join_fields(const std::vector<Field>& fields) {
  std::string s;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) s += i + 1 == fields.size() ? " and " : ", ";
    s += field_name(fields[i]);
  }
  return s;
}

// Picks the one storage form, or nullopt when there is none (allowed only without elements).
std::optional<Field> storage_field(const onnx::TensorProto& p, DataType t, int64_t n,
                                   const Reporter& r) {
  const auto used = fields_in_use(p);
  if (used.size() > 1)
    r.fail("tensor.multiple-storage", join_fields(used) +
                                          (used.size() == 2 ? " are both set" : " are all set") +
                                          "; expected the elements in exactly one of them");
  if (used.empty()) {
    if (n == 0) return std::nullopt;
    std::string msg = "no data for " + elements_of(n, t) + "; expected " + allowed_fields(t);
    if (p.external_data_size()) msg += " (external_data is set but data_location is not EXTERNAL)";
    r.fail("tensor.missing-data", msg);
  }
  const Field f = used.front();
  const bool wire = f == Field::raw_data || f == Field::external;
  if (t == DataType::string ? f != Field::string_data : !wire && f != typed_field(t))
    r.fail("tensor.wrong-field-for-type", std::string(field_name(f)) + " cannot hold elements of " +
                                              std::string(type_name(t)) + "; expected " +
                                              allowed_fields(t));
  return f;
}

// How many entries of the typed field n elements take.
uint64_t entries_for(Field f, DataType t, int64_t n) {
  const auto un = static_cast<uint64_t>(n);
  if (f == Field::int32_data) {
    const int bits = type_info(t).bits;
    if (bits < 8) {
      const uint64_t per_entry = 8 / static_cast<uint64_t>(bits);
      return un / per_entry + (un % per_entry ? 1 : 0);
    }
  }
  return is_complex(t) ? 2 * un : un;
}

std::string per_entry_note(Field f, DataType t) {
  if (f != Field::int32_data) return is_complex(t) ? " (real and imaginary parts)" : "";
  const int bits = type_info(t).bits;
  if (bits == 4) return " (two per value)";
  if (bits == 2) return " (four per value)";
  return "";
}

void check_entry_count(Field f, int size, DataType t, int64_t n, const Reporter& r) {
  const uint64_t want = entries_for(f, t, n);
  if (static_cast<uint64_t>(size) == want) return;
  r.fail("tensor.size-mismatch", std::string(field_name(f)) + " has " + std::to_string(size) +
                                     " values, expected " + std::to_string(want) + " for " +
                                     elements_of(n, t) + per_entry_note(f, t));
}

void check_wire_size(Field f, uint64_t size, DataType t, int64_t n, const Reporter& r) {
  const auto want = wire_bytes(t, static_cast<uint64_t>(n));
  if (want && size == *want) return;
  r.fail("tensor.size-mismatch",
         std::string(field_name(f)) + " has " + std::to_string(size) + " bytes, expected " +
             (want ? std::to_string(*want) : std::string("more than 2^64")) + " for " +
             elements_of(n, t));
}

// ---- typed fields ----------------------------------------------------------------------------

template <class Repeated>
Tensor copy_field(const Repeated& values, DataType t, Shape shape) {
  Tensor out(t, std::move(shape));
  if (out.nbytes()) std::memcpy(out.mutable_raw(), values.data(), out.nbytes());
  return out;
}

// The values an int32_data entry may take for a type. Bit-pattern types (float16, float8, the
// packed bytes of 4- and 2-bit types) accept both the unsigned pattern and its sign-extended
// form, since writers differ; integers must be in their own range.
struct EntryRange {
  int64_t lo, hi;
};

EntryRange int32_entry_range(DataType t) {
  switch (t) {
    case DataType::int8:
      return {-128, 127};
    case DataType::uint8:
      return {0, 255};
    case DataType::int16:
      return {-32768, 32767};
    case DataType::uint16:
      return {0, 65535};
    case DataType::float16:
    case DataType::bfloat16:
      return {-32768, 65535};
    case DataType::int32:
    case DataType::boolean:  // any non-zero value is true, as Cast reads integers
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default:
      return {-128, 255};  // float8 patterns and packed sub-byte bytes
  }
}

void check_int32_range(const onnx::TensorProto& p, DataType t, const Reporter& r) {
  const EntryRange range = int32_entry_range(t);
  for (int i = 0; i < p.int32_data_size(); ++i) {
    const int64_t v = p.int32_data(i);
    if (v >= range.lo && v <= range.hi) continue;
    r.fail("tensor.value-out-of-range",
           "int32_data[" + std::to_string(i) + "] is " + std::to_string(v) +
               ", outside the range of " + std::string(type_name(t)) + " (" +
               std::to_string(range.lo) + ".." + std::to_string(range.hi) + ")");
  }
}

template <class T>
void narrow_int32_entries(const onnx::TensorProto& p, T* out) {
  for (int i = 0; i < p.int32_data_size(); ++i)
    out[i] = static_cast<T>(static_cast<uint32_t>(p.int32_data(i)));  // keeps the low bits
}

Tensor from_int32_data(const onnx::TensorProto& p, DataType t, Shape shape, int64_t n,
                       const Reporter& r) {
  check_int32_range(p, t, r);
  Tensor out(t, std::move(shape));
  if (n == 0) return out;
  const int bytes = type_info(t).mem_bytes;
  if (is_packed(t)) {
    std::vector<uint8_t> packed(static_cast<std::size_t>(p.int32_data_size()));
    narrow_int32_entries(p, packed.data());
    unpack_subbyte(t, packed.data(), n, out.mutable_data<uint8_t>());
  } else if (t == DataType::boolean) {
    auto* dst = out.mutable_data<uint8_t>();
    for (int i = 0; i < p.int32_data_size(); ++i) dst[i] = p.int32_data(i) != 0 ? 1 : 0;
  } else if (bytes == 4) {
    std::memcpy(out.mutable_raw(), p.int32_data().data(), out.nbytes());
  } else if (bytes == 2) {
    narrow_int32_entries(p, out.mutable_data<uint16_t>());
  } else {
    narrow_int32_entries(p, out.mutable_data<uint8_t>());
  }
  return out;
}

Tensor from_uint64_data(const onnx::TensorProto& p, DataType t, Shape shape, const Reporter& r) {
  if (t == DataType::uint64) return copy_field(p.uint64_data(), t, std::move(shape));
  Tensor out(t, std::move(shape));
  auto* dst = out.mutable_data<uint32_t>();
  for (int i = 0; i < p.uint64_data_size(); ++i) {
    const uint64_t v = p.uint64_data(i);
    if (v > std::numeric_limits<uint32_t>::max())
      r.fail("tensor.value-out-of-range", "uint64_data[" + std::to_string(i) + "] is " +
                                              std::to_string(v) +
                                              ", outside the range of uint32 (0..4294967295)");
    dst[i] = static_cast<uint32_t>(v);
  }
  return out;
}

Tensor from_string_data(const onnx::TensorProto& p, Shape shape) {
  return Tensor::from_strings(
      std::move(shape), std::vector<std::string>(p.string_data().begin(), p.string_data().end()));
}

// ---- wire bytes (raw_data, external data) ---------------------------------------------------

std::size_t element_alignment(DataType t) {
  return visit_type(t, [](auto tag) { return alignof(decltype(tag)); });
}

bool has_non_binary_byte(const std::byte* data, std::size_t size) {
  return std::any_of(data, data + size, [](std::byte b) { return b > std::byte{1}; });
}

// Elements from little-endian wire bytes (size already checked). `view` returns storage that
// aliases `data`, or is empty when the bytes may not be aliased.
Tensor from_wire(const std::byte* data, DataType t, Shape shape, int64_t n,
                 const std::function<std::shared_ptr<Storage>()>& view) {
  if (n == 0) return Tensor(t, std::move(shape));
  if (is_packed(t)) {
    Tensor out(t, std::move(shape));
    unpack_subbyte(t, reinterpret_cast<const uint8_t*>(data), n, out.mutable_data<uint8_t>());
    return out;
  }
  const auto count = static_cast<std::size_t>(n);
  // onnx.proto says bool MUST be one byte 0 or 1. Other bytes are still read, as true (the way
  // Cast reads a non-zero integer), because the meaning is not in doubt and refusing a whole
  // model over it helps nobody; but they are never aliased, since a C++ bool holding 2 is
  // undefined behaviour in every kernel that touches it.
  if (t == DataType::boolean && has_non_binary_byte(data, count)) {
    Tensor out(t, std::move(shape));
    auto* dst = out.mutable_data<uint8_t>();
    for (std::size_t i = 0; i < count; ++i) dst[i] = data[i] != std::byte{0} ? 1 : 0;
    return out;
  }
  const bool aligned = reinterpret_cast<uintptr_t>(data) % element_alignment(t) == 0;
  if (view && aligned) return Tensor::wrap(t, std::move(shape), view());
  Tensor out(t, std::move(shape));
  std::memcpy(out.mutable_raw(), data, out.nbytes());
  return out;
}

Tensor from_raw_data(const onnx::TensorProto& p, DataType t, Shape shape, int64_t n,
                     const TensorSource& source) {
  const std::string& raw = p.raw_data();
  const auto* data = reinterpret_cast<const std::byte*>(raw.data());
  std::function<std::shared_ptr<Storage>()> view;
  if (source.owner) view = [&] { return Storage::view(raw.data(), raw.size(), source.owner); };
  return from_wire(data, t, std::move(shape), n, view);
}

Tensor from_external(const onnx::TensorProto& p, DataType t, Shape shape, int64_t n,
                     const TensorSource& source, const Reporter& r) {
  if (!source.external_bytes)
    r.fail("tensor.external-data-unavailable",
           "the elements are in external data, which cannot be read here");
  std::shared_ptr<Storage> bytes = source.external_bytes(p);
  if (!bytes) throw_internal("external data reader returned no storage");
  check_wire_size(Field::external, bytes->size(), t, n, r);
  return from_wire(bytes->data(), t, std::move(shape), n, [&] { return bytes; });
}

}  // namespace

// ---- public API ------------------------------------------------------------------------------

Tensor tensor_from_proto(const onnx::TensorProto& proto, const TensorSource& source) {
  const Reporter r{source};
  const DataType t = checked_type(proto, r);
  if (proto.has_segment())
    r.fail("tensor.segment-unsupported",
           "segment is set: tensors split into segments are not supported");
  Shape shape(proto.dims().begin(), proto.dims().end());
  const int64_t n = checked_count(shape, r);
  const auto field = storage_field(proto, t, n, r);
  if (!field) return t == DataType::string ? Tensor::from_strings(shape, {}) : Tensor(t, shape);
  switch (*field) {
    case Field::raw_data:
      check_wire_size(*field, proto.raw_data().size(), t, n, r);
      return from_raw_data(proto, t, std::move(shape), n, source);
    case Field::external:
      return from_external(proto, t, std::move(shape), n, source, r);
    case Field::float_data:
      check_entry_count(*field, proto.float_data_size(), t, n, r);
      return copy_field(proto.float_data(), t, std::move(shape));
    case Field::double_data:
      check_entry_count(*field, proto.double_data_size(), t, n, r);
      return copy_field(proto.double_data(), t, std::move(shape));
    case Field::int64_data:
      check_entry_count(*field, proto.int64_data_size(), t, n, r);
      return copy_field(proto.int64_data(), t, std::move(shape));
    case Field::uint64_data:
      check_entry_count(*field, proto.uint64_data_size(), t, n, r);
      return from_uint64_data(proto, t, std::move(shape), r);
    case Field::int32_data:
      check_entry_count(*field, proto.int32_data_size(), t, n, r);
      return from_int32_data(proto, t, std::move(shape), n, r);
    case Field::string_data:
      check_entry_count(*field, proto.string_data_size(), t, n, r);
      return from_string_data(proto, std::move(shape));
  }
  throw_internal("unhandled tensor storage field");
}

void tensor_to_proto(const Tensor& tensor, onnx::TensorProto& proto) {
  if (!tensor.defined()) throw_internal("tensor_to_proto: the tensor has no element type");
  const DataType t = tensor.dtype();
  proto.clear_dims();
  for (int64_t d : tensor.shape()) proto.add_dims(d);
  proto.set_data_type(static_cast<int32_t>(t));
  proto.clear_segment();
  proto.clear_float_data();
  proto.clear_int32_data();
  proto.clear_string_data();
  proto.clear_int64_data();
  proto.clear_raw_data();
  proto.clear_external_data();
  proto.clear_data_location();
  proto.clear_double_data();
  proto.clear_uint64_data();
  if (t == DataType::string) {
    for (const std::string& s : tensor.strings()) proto.add_string_data(s);
    return;
  }
  if (tensor.numel() == 0) return;
  if (is_packed(t)) {
    std::string packed(*wire_bytes(t, static_cast<uint64_t>(tensor.numel())), '\0');
    pack_subbyte(t, tensor.data<uint8_t>(), tensor.numel(),
                 reinterpret_cast<uint8_t*>(packed.data()));
    proto.set_raw_data(std::move(packed));
    return;
  }
  proto.set_raw_data(tensor.raw(), tensor.nbytes());
}

std::optional<uint64_t> expected_wire_bytes(const onnx::TensorProto& proto) {
  const auto t = data_type_from_int(proto.data_type());
  if (!t) return std::nullopt;
  const Shape shape(proto.dims().begin(), proto.dims().end());
  const auto n = element_count(shape);
  if (!n) return std::nullopt;
  return wire_bytes(*t, static_cast<uint64_t>(*n));
}

void pack_subbyte(DataType type, const uint8_t* in, int64_t n, uint8_t* out) {
  if (!is_packed(type) || n < 0) throw_internal("pack_subbyte: not a sub-byte type");
  const int bits = type_info(type).bits;
  const auto per_byte = static_cast<uint64_t>(8 / bits);
  const auto mask = static_cast<uint8_t>((1u << bits) - 1);
  const auto count = static_cast<uint64_t>(n);
  const uint64_t out_bytes = *wire_bytes(type, count);
  std::memset(out, 0, out_bytes);  // the unused high bits of the last byte stay zero
  for (uint64_t i = 0; i < count; ++i) {
    const auto shift = static_cast<unsigned>(i % per_byte) * static_cast<unsigned>(bits);
    out[i / per_byte] |= static_cast<uint8_t>((in[i] & mask) << shift);
  }
}

void unpack_subbyte(DataType type, const uint8_t* in, int64_t n, uint8_t* out) {
  if (!is_packed(type) || n < 0) throw_internal("unpack_subbyte: not a sub-byte type");
  const int bits = type_info(type).bits;
  const auto per_byte = static_cast<uint64_t>(8 / bits);
  const unsigned mask = (1u << bits) - 1;
  const unsigned sign = 1u << (bits - 1);
  const bool is_signed = type_info(type).cls == TypeClass::signed_int;
  for (uint64_t i = 0; i < static_cast<uint64_t>(n); ++i) {
    const auto shift = static_cast<unsigned>(i % per_byte) * static_cast<unsigned>(bits);
    unsigned v = (in[i / per_byte] >> shift) & mask;
    if (is_signed && (v & sign)) v |= ~mask;  // sign-extend into the whole byte
    out[i] = static_cast<uint8_t>(v);
  }
}

}  // namespace onnxtool
