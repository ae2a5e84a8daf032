// SPDX-License-Identifier: Apache-2.0
// `diff` over every model of the backend suite: each is equal to itself and to its text and JSON
// round trips; and the same model with every main-graph value renamed (inputs, initializers,
// node outputs, so graph outputs too) and every node's name dropped differs by renames only,
// and not at all with --ignore-names. The second holds the matching to its claim that a rename
// reads as a rename, on 1,500 real graphs.
#include <doctest/doctest.h>

#include <iostream>

#include "core/diag/error.h"
#include "core/diff/model_diff.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/text/json.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "onnx.pb.h"
#include "tests/support/support.h"
#include "tests/unit/test_text_support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

Model wrap(onnx::ModelProto proto, const fs::path& path) {
  return model_from_proto(std::make_shared<onnx::ModelProto>(std::move(proto)), path.string(),
                          path.parent_path());
}

onnx::ModelProto via_json(const onnx::ModelProto& m) {
  onnx::ModelProto back;
  text::model_from_json(text::model_to_json(m), "model.json", back);
  return back;
}

onnx::ModelProto via_text(const onnx::ModelProto& m) {
  text::TextPrintOptions po;
  po.inline_limit = INT64_MAX;
  onnx::ModelProto back;
  text::TextParseOptions opt;
  opt.file = "model.onnxtxt";
  text::parse_model_text(text::print_model_text(m, po).text, back, opt);
  return back;
}

// Every value the main graph defines gets a new name; every node of it loses its name.
onnx::ModelProto renamed(const onnx::ModelProto& m, int& values) {
  ir::ModelGraph mg = ir::ModelGraph::from_proto(m);
  ir::Graph& g = *mg.graph();
  std::vector<std::string> names;
  for (const auto& v : g.inputs()) names.push_back(v.name());
  for (const auto& init : g.initializers()) names.push_back(init.name);
  for (const ir::Node& n : g.nodes())
    for (const auto& o : n.outputs())
      if (!o.empty()) names.push_back(o);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  values = 0;
  int next = 0;
  for (const auto& name : names) {
    std::string to;
    do to = "renamed_" + std::to_string(next++);
    while (g.names().contains(to));
    const ir::Status s = g.rename_value(name, to);
    REQUIRE_MESSAGE(s.ok(), s.message());
    ++values;
  }
  for (ir::Node* n : g.node_list()) n->mutable_proto().clear_name();
  return mg.to_proto();
}

std::string first_entries(const ModelDiff& d) {
  std::string s;
  for (std::size_t i = 0; i < d.entries.size() && i < 4; ++i)
    s += "\n  " + d.entries[i].change + " " + d.entries[i].section + " " + d.entries[i].a + " / " +
         d.entries[i].b + (d.entries[i].details.empty() ? "" : ": " + d.entries[i].details[0]);
  return s;
}

}  // namespace

TEST_CASE("diff: every backend model equals its round trips, and its renamed copy by renames") {
  const fs::path shared = require_shared_dir("diff of the backend models");
  const auto models = backend_models(shared);
  REQUIRE(models.size() > 1500);
  int equal = 0, renames_only = 0, renamed_values = 0;
  for (const auto& path : models) {
    INFO(fs::relative(path, shared).string());
    onnx::ModelProto m;
    REQUIRE(m.ParseFromString(read_file(path)));
    const Model original = wrap(m, path);
    bool all_equal = true;
    for (const auto& other : {m, via_text(m), via_json(m)}) {
      const ModelDiff d = diff_models(original, wrap(other, path));
      CHECK_MESSAGE(d.equal(), "differs from its round trip:" << first_entries(d));
      all_equal = all_equal && d.equal();
    }
    equal += all_equal ? 1 : 0;

    int values = 0;
    const Model copy = wrap(renamed(m, values), path);
    renamed_values += values;
    const ModelDiff d = diff_models(original, copy);
    const bool only_renames = d.count("", "renamed") == d.entries.size();
    CHECK_MESSAGE(only_renames,
                  "the renamed copy differs by more than renames:" << first_entries(d));
    DiffOptions ignoring;
    ignoring.ignore_names = true;
    const ModelDiff quiet = diff_models(original, copy, ignoring);
    CHECK_MESSAGE(quiet.equal(), "--ignore-names still finds:" << first_entries(quiet));
    renames_only += only_renames && quiet.equal() ? 1 : 0;
  }
  std::cout << "diff: " << equal << " of " << models.size()
            << " backend models equal to themselves and their text and JSON round trips; "
            << renames_only << " differ from their renamed copies (" << renamed_values
            << " values renamed) by renames only\n";
}
