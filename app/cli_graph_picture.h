// SPDX-License-Identifier: Apache-2.0
// convert M out.dot|out.svg|out.png: the model as a picture. DOT is written by onnxtool
// (core/text/dot.h); SVG and PNG go through Graphviz's `dot` program when it is installed, an
// optional tool at run time, never a build dependency.
#pragma once

#include <optional>
#include <string>

namespace onnxtool {
struct Model;
}

namespace onnxtool::app {

// "dot", "svg" or "png" when --to or the output's extension asks for a picture.
std::optional<std::string> picture_format(const std::string& to, const std::string& output);

// Infers types for the edge labels, writes the picture atomically; throws Error(io) when
// Graphviz is needed and missing, or fails.
void write_picture(const Model& model, const std::string& output, const std::string& format);

}  // namespace onnxtool::app
