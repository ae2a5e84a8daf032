// SPDX-License-Identifier: Apache-2.0
// A model as a Graphviz DOT graph (convert M out.dot): inputs and outputs as ellipses, nodes as
// boxes labelled with their operator and name, values as edges labelled with name, element
// type and shape, initializers summarised inside the node that reads them (the weights would
// drown the picture), and every subgraph (If branches, Loop and Scan bodies) as a cluster that
// flows into its node. Outer-scope values a subgraph reads arrive as dashed edges.
#pragma once

#include <functional>
#include <string>

namespace onnx {
class GraphProto;
class ModelProto;
}  // namespace onnx

namespace onnxtool::text {

// The type of a value as `graph` sees it ("float[N,3,224,224]"), or "" when unknown.
using DotTypeOf = std::function<std::string(const onnx::GraphProto& graph, const std::string&)>;

std::string model_to_dot(const onnx::ModelProto& model, const DotTypeOf& type_of);

}  // namespace onnxtool::text
