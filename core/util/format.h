// SPDX-License-Identifier: Apache-2.0
// Numbers for people: sizes and counts in messages and reports.
#pragma once

#include <cstdint>
#include <string>

namespace onnxtool {

// "748 B", "1.5 KiB", "2.3 GiB".
std::string human_bytes(uint64_t n);
// "55", "12.3 K", "25.56 M", "1.20 G".
std::string human_count(uint64_t n);
// "1 tensor", "3 tensors".
std::string plural(uint64_t n, const std::string& noun);

}  // namespace onnxtool
