// SPDX-License-Identifier: Apache-2.0
// Explains why bytes fail to parse as a protobuf message: protobuf itself only says "failed".
// The scan follows the message's descriptor so it can name the field where things go wrong
// (e.g. graph.initializer[2].raw_data) and the byte offset.
#pragma once

#include <string>
#include <string_view>

namespace google::protobuf {
class Descriptor;
}

namespace onnxtool {

inline constexpr int kMaxProtoNesting = 100;  // protobuf's default recursion limit

// Empty when the wire format is sound (as far as the scan can tell).
std::string diagnose_wire_format(std::string_view bytes, const google::protobuf::Descriptor* type);

}  // namespace onnxtool
