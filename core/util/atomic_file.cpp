// SPDX-License-Identifier: Apache-2.0
#include "core/util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/diag/error.h"

namespace onnxtool {

namespace fs = std::filesystem;

AtomicFile::AtomicFile(fs::path target) : target_(std::move(target)) {
  const fs::path dir = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_directory(target_, ec))
    throw_io("io.is-directory", target_.string(), "is a directory, cannot write a file there");
  // Every file onnxtool writes (models, side files, .npy, .npz, reports) gets its folder made,
  // as `mkdir -p` would: one rule for every option that names an output.
  if (!fs::is_directory(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec))
      throw_io("io.create", target_.string(),
               "cannot create the folder " + dir.string() + ": " +
                   (ec ? ec.message() : std::string("a file of that name is in the way")));
  }
  // (Built step by step: GCC 12 warns falsely on `"." + std::string`.)
  std::string leaf = ".";
  leaf += target_.filename().string();
  leaf += ".tmp-XXXXXX";
  std::string tmpl = (dir / leaf).string();
  fd_ = mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd_ < 0)
    throw_io("io.create", target_.string(),
             std::string("cannot create a file in ") + dir.string() + ": " + std::strerror(errno));
  temp_ = tmpl;
  // mkostemp creates 0600; give the file the permissions a plain create would.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::write(const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      throw_io("io.write", target_.string(), std::string("write failed: ") + std::strerror(errno));
    p += w;
    n -= static_cast<std::size_t>(w);
    offset_ += static_cast<uint64_t>(w);
  }
}

uint64_t AtomicFile::pad_to(uint64_t alignment) {
  static const char zeros[4096] = {};
  while (offset_ % alignment != 0) {
    const uint64_t gap = alignment - offset_ % alignment;
    write(zeros, static_cast<std::size_t>(gap < sizeof zeros ? gap : sizeof zeros));
  }
  return offset_;
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0 && errno != EINVAL)
    throw_io("io.write", target_.string(), std::string("fsync failed: ") + std::strerror(errno));
  ::close(fd_);
  fd_ = -1;
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    throw_io("io.rename", target_.string(),
             std::string("cannot replace the file: ") + std::strerror(errno));
  committed_ = true;
  // Make the rename itself durable.
  const fs::path dir = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_file_atomically(const fs::path& target, std::string_view bytes) {
  if (target == "-") {
    const char* p = bytes.data();
    std::size_t n = bytes.size();
    while (n > 0) {
      ssize_t w = ::write(STDOUT_FILENO, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0)
        throw_io("io.write", "<stdout>", std::string("write failed: ") + std::strerror(errno));
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return;
  }
  AtomicFile f(target);
  f.write(bytes);
  f.commit();
}

}  // namespace onnxtool
