// SPDX-License-Identifier: Apache-2.0
// The subset of the ZIP format that .npz files use: stored and deflated members, zip64 for
// large or many members, one disk, no encryption. Reading validates every offset and size
// against the archive, so a hostile archive gives an Error, never a crash; nothing is ever
// written to disk from an archive. Errors carry rules "npz.<what>".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace onnxtool {

// ---- reading ----------------------------------------------------------------------------------

struct ZipEntry {
  std::string name;
  uint16_t method = 0;  // 0 stored, 8 deflated
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t size = 0;         // uncompressed
  uint64_t data_offset = 0;  // where the (compressed) bytes start in the archive
};

// The members in central-directory order, after checking the directory, each local header,
// the methods (stored or deflated), names (unsafe_zip_name) and that no name repeats.
std::vector<ZipEntry> read_zip_directory(std::string_view archive, const std::string& file);

// A member's uncompressed bytes, with its CRC-32 verified. Stored members view `archive` and
// `owner` is archive_owner; deflated ones are inflated into a fresh buffer that owner keeps
// alive (64-byte aligned).
struct ZipContent {
  std::string_view bytes;
  std::shared_ptr<const void> owner;
};
ZipContent read_zip_entry(std::string_view archive, std::shared_ptr<const void> archive_owner,
                          const ZipEntry& entry, const std::string& file);

// Why a member name could escape a directory if it were extracted (absolute, a ".." component,
// a drive letter, a NUL byte); nullopt when it is safe.
std::optional<std::string> unsafe_zip_name(std::string_view name);

// ---- writing ----------------------------------------------------------------------------------

struct ZipWriteOptions {
  // Write zip64 fields even when the sizes do not need them (tests use this; so does numpy).
  bool force_zip64 = false;
};

// Writes an archive front to back through `sink`, one member at a time; only the central
// directory is kept in memory. Names are written as given (callers validate them).
class ZipWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  explicit ZipWriter(Sink sink, ZipWriteOptions options = {});

  // Adds a member whose content is the concatenation of `pieces`. compress: deflate it. Stored
  // content starts at a multiple of `align` bytes in the archive (padding goes into the local
  // header's extra field), so a reader can map the bytes in place.
  void add(std::string_view name, std::span<const std::string_view> pieces, bool compress,
           std::size_t align = 1);
  // Writes the central directory and the end records. Call once, after the last add().
  void finish();

 private:
  void emit(std::string_view bytes);

  Sink sink_;
  ZipWriteOptions options_;
  uint64_t offset_ = 0;
  uint64_t count_ = 0;
  std::string central_;
};

}  // namespace onnxtool
