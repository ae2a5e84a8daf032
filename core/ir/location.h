// SPDX-License-Identifier: Apache-2.0
// Location paths for diagnostics: where in a model something is, nesting into subgraphs and
// functions, e.g.  graph.node[3] "loop" (Loop) attribute body: node[0] "add" (Add)
#pragma once

#include <string>

namespace onnx {
class NodeProto;
class FunctionProto;
}  // namespace onnx

namespace onnxtool {

// The prefix of everything inside the main graph.
inline constexpr const char* kMainGraphPrefix = "graph.";

// `prefix` ends with "." or ": " (see subgraph_prefix). Gives  prefix + node[i] "name" (Op),
// with the op domain-qualified when the node has a domain.
std::string node_location(const std::string& prefix, int index, const onnx::NodeProto& node);
// Prefix for the contents of a graph-valued attribute of the node at node_loc:
//   node_loc + " attribute body: "  or, for a GRAPHS list, node_loc + " attribute branches[1]: "
std::string subgraph_prefix(const std::string& node_loc, const std::string& attr_name,
                            int list_index = -1);
// functions[i] "domain.name" (with ":overload" when there is one)
std::string function_location(int index, const onnx::FunctionProto& fn);
// `prefix` + kind[i] "name", e.g. graph.initializer[2] "w"
std::string item_location(const std::string& prefix, const char* kind, int index,
                          const std::string& name);

// Quotes a name for a message: "name", with control characters and quotes escaped.
std::string quoted_name(const std::string& name);

}  // namespace onnxtool
