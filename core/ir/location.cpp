// SPDX-License-Identifier: Apache-2.0
#include "core/ir/location.h"

#include <cstdio>

#include "onnx.pb.h"

namespace onnxtool {

std::string quoted_name(const std::string& name) {
  std::string out = "\"";
  for (unsigned char c : name) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string node_location(const std::string& prefix, int index, const onnx::NodeProto& node) {
  std::string s = prefix + "node[" + std::to_string(index) + "]";
  if (!node.name().empty()) s += " " + quoted_name(node.name());
  s += " (";
  if (!node.domain().empty() && node.domain() != "ai.onnx") s += node.domain() + ".";
  s += node.op_type() + ")";
  return s;
}

std::string subgraph_prefix(const std::string& node_loc, const std::string& attr_name,
                            int list_index) {
  std::string s = node_loc + " attribute " + attr_name;
  if (list_index >= 0) s += "[" + std::to_string(list_index) + "]";
  return s + ": ";
}

std::string function_location(int index, const onnx::FunctionProto& fn) {
  std::string id = fn.domain().empty() ? fn.name() : fn.domain() + "." + fn.name();
  if (!fn.overload().empty()) id += ":" + fn.overload();
  return "functions[" + std::to_string(index) + "] " + quoted_name(id);
}

std::string item_location(const std::string& prefix, const char* kind, int index,
                          const std::string& name) {
  std::string s = prefix + kind + "[" + std::to_string(index) + "]";
  if (!name.empty()) s += " " + quoted_name(name);
  return s;
}

}  // namespace onnxtool
