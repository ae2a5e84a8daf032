// SPDX-License-Identifier: Apache-2.0
// External tensor data (ExternalData.md) and its security rules (ExternalDataSecurity.md).
//
// Every reference is validated without reading any byte of data: the location must be a
// relative path inside the data directory, with no "..", no symlink in any component, naming a
// regular file with a single link, and offset/length must lie inside the file and match the
// tensor's size. Files are opened only when bytes are needed, relative to an open descriptor of
// the data directory with symlinks refused at every step, so nothing outside it is ever opened.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/types/tensor.h"

namespace onnx {
class TensorProto;
}

namespace onnxtool {

class MappedFile;

struct ExternalRef {
  std::string location;    // as written in the model
  std::string normalized;  // '/'-separated, "." components removed
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  std::string checksum;  // SHA1 hex, empty when absent
  uint64_t bytes = 0;    // the tensor's data size (== length when given)
};

// What `info` reports per data file.
struct ExternalFileUse {
  std::string location;
  uint64_t file_size = 0;
  int tensors = 0;
  uint64_t bytes = 0;
};

class ExternalData {
 public:
  // base_dir: where locations are resolved (the model's directory, or --data-dir).
  // model_name: the model file as the user named it, for messages.
  ExternalData(std::filesystem::path base_dir, std::string model_name);
  ~ExternalData();

  const std::filesystem::path& base_dir() const { return base_dir_; }

  // Parses and checks one tensor's reference (keys, path, file, bounds, size); reports every
  // problem to sink at `location` and returns the reference only when it is usable.
  std::optional<ExternalRef> validate(const onnx::TensorProto& tensor, const std::string& location,
                                      DiagSink& sink);

  // The tensor's bytes, mapped (zero-copy when the offset suits the element alignment).
  // Validates first; throws Error(invalid) with the first problem.
  std::shared_ptr<Storage> bytes(const onnx::TensorProto& tensor, const std::string& location);

  // Reads a whole data file and compares its SHA1 with the reference's checksum, reporting a
  // mismatch. Returns true when it matches or no checksum is given.
  bool verify_checksum(const ExternalRef& ref, const std::string& location, DiagSink& sink);

  // validate() reports a file's problem (missing, a symlink, ...) once per sink, at the first
  // tensor that uses it; this adds one note per such file saying how many more use it.
  void report_repeats(DiagSink& sink) const;

  // Files referenced by validated tensors, in first-use order.
  std::vector<ExternalFileUse> file_uses() const;

 private:
  struct FileState;
  const FileState& inspect(const std::string& normalized);
  std::shared_ptr<const MappedFile> map(const std::string& normalized);

  std::filesystem::path base_dir_;
  std::string model_name_;
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<FileState>> files_;
  std::vector<std::string> order_;
};

// Opens `relative` beneath the directory open as dir_fd, refusing symlinks in every component
// and anything that is not a regular single-link file. Returns the fd, or -1 with errno and
// `why` set.
int open_beneath(int dir_fd, const std::string& relative, std::string& why);

}  // namespace onnxtool
