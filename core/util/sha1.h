// SPDX-License-Identifier: Apache-2.0
// SHA-1 (FIPS 180-4), for the optional checksums of external data files. Not for security.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace onnxtool {

class Sha1 {
 public:
  Sha1();
  void update(const void* data, std::size_t n);
  std::array<uint8_t, 20> digest();  // finishes the hash; call once
  std::string hex_digest();          // 40 lowercase hex digits

 private:
  void block(const uint8_t* p);
  std::array<uint32_t, 5> h_;
  std::array<uint8_t, 64> buf_{};
  std::size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::string sha1_hex(const void* data, std::size_t n);

}  // namespace onnxtool
