// SPDX-License-Identifier: Apache-2.0
#include "app/cli_graph_picture.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "core/text/dot.h"
#include "core/util/atomic_file.h"

extern char** environ;

namespace onnxtool::app {

namespace fs = std::filesystem;

namespace {

std::string dot_text(const Model& model) {
  // Types for the edges; a model inference cannot finish still gets its picture.
  DiagSink quiet;
  InferResult types;
  try {
    types = infer_model(model, {}, quiet);
  } catch (const Error&) {
  }
  return text::model_to_dot(*model.proto, [&](const onnx::GraphProto& g, const std::string& v) {
    const GraphResult* graph = types.graph_of(&g);
    if (!graph) return std::string();
    const ValueRecord* r = types.find_in_scope(*graph, v).second;
    return r && r->type.kind != Type::Kind::unknown ? r->type.to_string() : std::string();
  });
}

// Runs `dot -T<format> -o <out> <in>` without a shell; returns its exit status, or -1 when
// the program is not there.
int run_graphviz(const std::string& format, const std::string& in, const std::string& out) {
  const std::string type = "-T" + format;
  std::vector<std::string> args = {"dot", type, "-o", out, in};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "dot", nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

std::optional<std::string> picture_format(const std::string& to, const std::string& output) {
  if (to == "dot" || to == "svg" || to == "png") return to;
  if (!to.empty()) return std::nullopt;
  const std::string ext = fs::path(output).extension().string();
  if (ext == ".dot" || ext == ".gv") return std::string("dot");
  if (ext == ".svg") return std::string("svg");
  if (ext == ".png") return std::string("png");
  return std::nullopt;
}

void write_picture(const Model& model, const std::string& output, const std::string& format) {
  const std::string dot = dot_text(model);
  if (format == "dot") {
    write_file_atomically(output, dot);
    return;
  }
  if (output == "-") throw_usage("an " + format + " picture needs a file name, not stdout");
  // dot writes into a temporary file beside the output, renamed once it succeeded.
  const fs::path target(output);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string stem = (dir / ("." + target.filename().string())).string();
  const std::string dot_file = stem + ".tmp.dot", picture = stem + ".tmp." + format;
  write_file_atomically(dot_file, dot);
  const int status = run_graphviz(format, dot_file, picture);
  fs::remove(dot_file, ec);
  if (status != 0) {
    fs::remove(picture, ec);
    if (status < 0)
      throw_io("convert.no-graphviz", output,
               "writing " + format +
                   " needs Graphviz's dot program, which is not installed (Debian: apt-get "
                   "install graphviz); or write the graph as .dot");
    throw_io("convert.graphviz-failed", output,
             "Graphviz's dot failed (exit " + std::to_string(status) + ") rendering the graph");
  }
  fs::rename(picture, target, ec);
  if (ec) throw_io("io.rename", output, "cannot move the picture into place: " + ec.message());
}

}  // namespace onnxtool::app
