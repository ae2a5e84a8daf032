// SPDX-License-Identifier: Apache-2.0
// NumPy's .npy format (versions 1.0, 2.0 and 3.0) for Tensors.
//
// Every ONNX type numpy has maps to its numpy dtype; strings are written as '<U{n}'. The ONNX
// types numpy lacks (bfloat16, the float8 kinds, float4e2m1, int4/uint4, int2/uint2) are written
// as a one-field structured dtype named after the ONNX type, holding the bit pattern or value one
// element per byte (two for bfloat16), e.g. [('bfloat16', '<u2')] or [('int4', '|i1')]; numpy
// loads such files, and onnxtool reads them back as the exact ONNX type.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/types/tensor.h"

namespace onnxtool {

// Decodes a whole .npy file held in memory; the Tensor owns a copy of the elements.
// Throws Error(invalid) with a rule "npy.<what>" on malformed content.
Tensor parse_npy(std::string_view bytes, const std::string& name_for_errors);

// Maps the file; elements are viewed in place (no copy) when the file stores them the way a
// Tensor does: little-endian, aligned for the element type, and with valid values.
Tensor read_npy(const std::filesystem::path& path);

// The bytes numpy.save would write for the same array.
std::string serialize_npy(const Tensor& t);

// Writes atomically (temporary file + rename), streaming the elements without a copy.
void write_npy(const std::filesystem::path& path, const Tensor& t);

// ---- lower level, shared with .npz -----------------------------------------------------------

// Decodes .npy bytes. When `owner` is set it keeps `bytes` alive, and elements are viewed in
// place where the layout allows (see read_npy); otherwise they are copied. file and location
// go into error messages.
Tensor decode_npy(std::string_view bytes, std::shared_ptr<const void> owner,
                  const std::string& file, const std::string& location);

// A .npy file in two pieces, so large tensors are written straight from their storage.
struct NpyParts {
  std::string header;         // magic, version, header length, the dict and its padding
  std::string converted;      // the elements re-encoded (string tensors: UTF-32)
  std::string_view borrowed;  // or the tensor's own bytes (every other type)
  bool uses_converted = false;
  std::string_view payload() const {
    return uses_converted ? std::string_view(converted) : borrowed;
  }
};
// The parts borrow from t: keep t alive while using them. file and location go into errors
// (a string that is not valid UTF-8: rule "npy.bad-utf8").
NpyParts encode_npy(const Tensor& t, const std::string& file = "",
                    const std::string& location = "");

}  // namespace onnxtool
