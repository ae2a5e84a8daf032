// SPDX-License-Identifier: Apache-2.0
// Read-only memory mapping of a whole file. Pages are read on first touch, so mapping a
// multi-GB file costs nothing until its bytes are used.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace onnxtool {

class MappedFile {
 public:
  // Maps the file at path (follows symlinks; callers that must not follow them open the file
  // themselves and use from_fd). Throws Error(io) naming the file on failure.
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);
  // Maps an open descriptor; takes ownership of fd (closes it). display_name is for messages.
  static std::shared_ptr<const MappedFile> from_fd(int fd, const std::string& display_name);
  // Holds bytes read from a stream (stdin) in the same interface.
  static std::shared_ptr<const MappedFile> from_bytes(std::string bytes, std::string display_name);

  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), size_}; }
  const std::string& name() const { return name_; }

 private:
  MappedFile() = default;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  std::string owned_;  // for from_bytes
  std::string name_;
};

// Reads all of stdin (binary). Throws Error(io) on a read error.
std::string read_stdin_bytes();

}  // namespace onnxtool
