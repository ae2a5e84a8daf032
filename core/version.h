// SPDX-License-Identifier: Apache-2.0
// What this build of onnxtool knows: its own version, the newest IR and the opset domains.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace onnxtool {

inline constexpr std::string_view kOnnxtoolVersion = ONNXTOOL_VERSION;
inline constexpr int64_t kNewestIrVersion = 14;

struct OpsetDomainRange {
  std::string_view domain;  // "" is the default ONNX domain (also written "ai.onnx")
  int64_t min_version;
  int64_t max_version;
};

std::span<const OpsetDomainRange> known_opset_domains();
// nullptr when the domain is not a standard one. Accepts "" and "ai.onnx" for the default domain.
const OpsetDomainRange* find_opset_domain(std::string_view domain);
// Newest IR version a given default-domain opset version needs (Versioning.md's table), and the
// opset versions released with an IR version.
int64_t min_ir_for_opset(std::string_view domain, int64_t version);

}  // namespace onnxtool
