// SPDX-License-Identifier: Apache-2.0
// Writing a file so that readers see the old content or the complete new content, never a
// half-written file: write to a temporary file in the same directory, then rename over.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace onnxtool {

class AtomicFile {
 public:
  // Creates the target's folder when it is missing (as mkdir -p), then the temporary file beside
  // `target`. Throws Error(io) naming the target on failure.
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();  // removes the temporary file unless commit() succeeded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  // Pads with zero bytes up to the next multiple of `alignment`; returns the new offset.
  uint64_t pad_to(uint64_t alignment);
  uint64_t offset() const { return offset_; }
  int fd() const { return fd_; }
  // Flushes to disk and renames over the target.
  void commit();

  const std::filesystem::path& target() const { return target_; }

 private:
  std::filesystem::path target_, temp_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  bool committed_ = false;
};

// Convenience: the whole content at once. target "-" writes to stdout.
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes);

}  // namespace onnxtool
