// SPDX-License-Identifier: Apache-2.0
// Converting between TensorProto (every storage form) and Tensor.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/types/tensor.h"

namespace onnx {
class TensorProto;
}

namespace onnxtool {

// Where a TensorProto came from, for zero-copy views and for error messages.
struct TensorSource {
  // Keeps the proto alive: when set, raw_data is wrapped in place instead of copied (the
  // resulting Tensor holds this pointer).
  std::shared_ptr<const void> owner;
  // Supplies the bytes of a tensor whose data_location is EXTERNAL (already validated, exactly
  // the tensor's wire size). Unset: external tensors are an error.
  std::function<std::shared_ptr<Storage>(const onnx::TensorProto&)> external_bytes;
  std::string file;      // for messages
  std::string location;  // e.g. graph.initializer[3] "conv1.weight"
};

// Decodes the elements. Checks: data_type known, dims non-negative and product within int64,
// exactly one storage form used, element count of the chosen form matches dims (for every form:
// float_data, int32_data incl. float16/bfloat16/float8 bit patterns and packed 4/2-bit values,
// int64_data, uint64_data, double_data, string_data, raw_data little-endian, external data).
// Throws Error(invalid) with rule "tensor.<what>", the source's file and location, and a message
// that says what was expected.
// Rules: tensor.unknown-type, tensor.segment-unsupported, tensor.bad-dims,
// tensor.multiple-storage, tensor.missing-data, tensor.wrong-field-for-type, tensor.size-mismatch,
// tensor.value-out-of-range (an int32_data/uint64_data entry outside the element type),
// tensor.external-data-unavailable (EXTERNAL without source.external_bytes).
// Bool bytes other than 0/1 (forbidden by onnx.proto) are read as true, never aliased.
Tensor tensor_from_proto(const onnx::TensorProto& proto, const TensorSource& source = {});

// Encodes into proto: dims, data_type, and raw_data (string_data for strings); sub-byte types are
// packed. Leaves name and doc_string alone; clears every other storage field.
void tensor_to_proto(const Tensor& tensor, onnx::TensorProto& proto);

// The byte size the elements take in raw_data (or external data) for the proto's dims and type;
// nullopt when dims or type are invalid or the size overflows.
std::optional<uint64_t> expected_wire_bytes(const onnx::TensorProto& proto);

// Sub-byte packing as ONNX stores it: 4-bit values two per byte (first element in the low
// nibble), 2-bit values four per byte (first element in bits 0-1). `in` holds one element per
// byte (low bits significant). Unpacking sign-extends signed types (int4, int2).
void pack_subbyte(DataType type, const uint8_t* in, int64_t n, uint8_t* out);
void unpack_subbyte(DataType type, const uint8_t* in, int64_t n, uint8_t* out);

}  // namespace onnxtool
