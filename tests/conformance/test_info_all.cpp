// SPDX-License-Identifier: Apache-2.0
// `onnxtool info --json` on every model of the ONNX backend test data: it succeeds, and the
// counts it reports match the protobuf read independently.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> all_models(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".onnx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

int64_t count_nodes_with_subgraphs(const onnx::GraphProto& g) {
  int64_t n = g.node_size();
  for (const auto& node : g.node())
    for (const auto& a : node.attribute()) {
      if (a.has_g()) n += count_nodes_with_subgraphs(a.g());
      for (const auto& sub : a.graphs()) n += count_nodes_with_subgraphs(sub);
    }
  return n;
}

}  // namespace

TEST_CASE("info --json agrees with the protobuf on every backend test model") {
  const fs::path root =
      test::require_shared_dir("info on every backend test model") / "onnx-backend-tests";
  const auto models = all_models(root);
  REQUIRE(models.size() > 1500);
  int checked = 0;
  for (const auto& path : models) {
    CAPTURE(path.string());
    std::ostringstream out, err;
    app::Io io{out, err, false};
    std::string p = path.string();
    const char* argv[] = {"onnxtool", "info", "--json", p.c_str()};
    const int code = app::run_cli(4, argv, io);
    REQUIRE_MESSAGE(code == 0, err.str());
    auto j = nlohmann::json::parse(out.str());

    onnx::ModelProto proto;
    REQUIRE(proto.ParseFromString(test::read_file(path)));
    const auto& g = proto.graph();
    CHECK(j["ir_version"] == proto.ir_version());
    CHECK(j["opset_import"].size() == static_cast<std::size_t>(proto.opset_import_size()));
    CHECK(j["inputs"].size() == static_cast<std::size_t>(g.input_size()));
    CHECK(j["outputs"].size() == static_cast<std::size_t>(g.output_size()));
    CHECK(j["initializers"]["count"] == g.initializer_size());
    CHECK(j["nodes"]["top_level"] == g.node_size());
    CHECK(j["nodes"]["total"] == count_nodes_with_subgraphs(g));
    CHECK(j["functions"].size() == static_cast<std::size_t>(proto.functions_size()));
    for (int i = 0; i < g.input_size(); ++i) CHECK(j["inputs"][i]["name"] == g.input(i).name());
    for (int i = 0; i < g.output_size(); ++i) CHECK(j["outputs"][i]["name"] == g.output(i).name());
    int64_t hist = 0;
    for (const auto& row : j["nodes"]["op_histogram"]) hist += row["count"].get<int64_t>();
    CHECK(hist == j["nodes"]["total"].get<int64_t>());
    ++checked;
  }
  std::cout << "info --json agreed with the protobuf on " << checked << " models\n";
}
