// SPDX-License-Identifier: Apache-2.0
#include "core/util/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "core/diag/error.h"

namespace onnxtool {

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    throw_io(err == ENOENT ? "io.not-found" : "io.open", path.string(),
             std::string("cannot open: ") + std::strerror(err));
  }
  return from_fd(fd, path.string());
}

std::shared_ptr<const MappedFile> MappedFile::from_fd(int fd, const std::string& display_name) {
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw_io("io.stat", display_name, std::string("cannot stat: ") + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw_io("io.is-directory", display_name, "is a directory, expected a file");
  }
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->name_ = display_name;
  m->size_ = static_cast<std::size_t>(st.st_size);
  if (!S_ISREG(st.st_mode)) {
    // A pipe or device: read it rather than map it.
    std::string bytes;
    char buf[65536];
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int err = errno;
        ::close(fd);
        throw_io("io.read", display_name, std::string("read failed: ") + std::strerror(err));
      }
      if (n == 0) break;
      bytes.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return from_bytes(std::move(bytes), display_name);
  }
  if (m->size_ > 0) {
    void* p = mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      throw_io("io.mmap", display_name, std::string("cannot map: ") + std::strerror(err));
    }
    m->data_ = static_cast<const std::byte*>(p);
    m->mapped_ = true;
  }
  ::close(fd);
  return m;
}

std::shared_ptr<const MappedFile> MappedFile::from_bytes(std::string bytes,
                                                         std::string display_name) {
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->owned_ = std::move(bytes);
  m->data_ = reinterpret_cast<const std::byte*>(m->owned_.data());
  m->size_ = m->owned_.size();
  m->name_ = std::move(display_name);
  return m;
}

MappedFile::~MappedFile() {
  if (mapped_) munmap(const_cast<std::byte*>(data_), size_);
}

std::string read_stdin_bytes() {
  std::string bytes;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_io("io.read", "<stdin>", std::string("read failed: ") + std::strerror(errno));
    if (n == 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
  }
  return bytes;
}

}  // namespace onnxtool
