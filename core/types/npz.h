// SPDX-License-Identifier: Apache-2.0
// NumPy's .npz format: a zip archive with one NAME.npy member per tensor (numpy.savez writes
// them stored, numpy.savez_compressed deflated). See npy.h for the element types and zip.h for
// what is checked in the archive.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/types/tensor.h"

namespace onnxtool {

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

// The tensors in archive order, named after their members with the ".npy" suffix stripped.
// Stored members are viewed in place in the mapped file where the layout allows (see read_npy).
// Throws Error(invalid) with rule "npz.<what>" or "npy.<what>" on malformed content; every
// member must be a .npy file.
std::vector<NamedTensor> read_npz(const std::filesystem::path& path);
// The same from bytes in memory; the tensors do not refer to `bytes`.
std::vector<NamedTensor> parse_npz(std::string_view bytes, const std::string& name_for_errors);

// Writes atomically, one member NAME.npy per tensor: deflated when compress, else stored with
// the elements 64-byte aligned in the file so read_npz can map them. Names must be unique and
// safe as archive paths (rule "npz.duplicate-name" / "npz.unsafe-name").
void write_npz(const std::filesystem::path& path, const std::vector<NamedTensor>& tensors,
               bool compress);
std::string serialize_npz(const std::vector<NamedTensor>& tensors, bool compress);

}  // namespace onnxtool
