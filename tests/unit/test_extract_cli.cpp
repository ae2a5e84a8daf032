// SPDX-License-Identifier: Apache-2.0
// `onnxtool extract`: what the piece holds (nodes, initializers, functions, subgraph captures,
// value_info, types of the new interface), what it computes, where its weights go, and the
// refusals that name the value at fault.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/model/model.h"
#include "onnx.pb.h"
#include "tests/support/cli_run.h"
#include "tests/support/support.h"
#include "tests/unit/test_models.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

const char* const kChain = kChainModel;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

onnx::ModelProto read_model(const fs::path& p) {
  DiagSink sink;
  Model m = load_model(p.string(), {}, sink);
  REQUIRE(sink.ok());
  return *m.proto;
}

std::vector<std::string> node_names(const onnx::GraphProto& g) {
  std::vector<std::string> out;
  for (const auto& n : g.node()) out.push_back(n.name());
  return out;
}

std::vector<std::string> value_names(
    const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& vs) {
  std::vector<std::string> out;
  for (const auto& v : vs) out.push_back(v.name());
  return out;
}

struct Fixture {
  TempDir dir;
  std::string model = (dir / "m.onnxtxt").string();
  Fixture(const char* text = kChain) { write_file(model, text); }
  std::string at(const std::string& name) const { return (dir / name).string(); }
};

}  // namespace

TEST_CASE("extract: the nodes between the given inputs and outputs, typed by inference") {
  Fixture f;
  const auto r = run_cli({"extract", f.model, f.at("p.onnx"), "--inputs", "a,y", "--outputs", "c"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "2 of 5 nodes, 0 of 2 initializers"));
  CHECK(contains(r.out, "inputs:  \"a\", \"y\""));
  const onnx::ModelProto p = read_model(f.at("p.onnx"));
  CHECK(node_names(p.graph()) == std::vector<std::string>{"relu", "mul"});
  CHECK(value_names(p.graph().input()) == std::vector<std::string>{"a", "y"});
  CHECK(value_names(p.graph().output()) == std::vector<std::string>{"c"});
  CHECK(p.graph().initializer_size() == 0);
  // `a` is an intermediate value: its type comes from shape inference.
  const auto& a = p.graph().input(0).type().tensor_type();
  CHECK(a.elem_type() == onnx::TensorProto::FLOAT);
  REQUIRE(a.shape().dim_size() == 2);
  CHECK(a.shape().dim(1).dim_value() == 3);
  CHECK(p.opset_import(0).version() == 17);
  CHECK(run_cli({"check", f.at("p.onnx")}).code == 0);
}

TEST_CASE("extract: by default the model's inputs; only the initializers the cut reads") {
  Fixture f;
  const auto r = run_cli({"--json", "extract", f.model, f.at("p.onnx"), "--outputs", "out"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["nodes"] == 4);
  CHECK(j["nodes_before"] == 5);
  CHECK(j["initializers"] == 1);
  CHECK(j["inputs"] == nlohmann::json({"x", "y"}));
  const onnx::ModelProto p = read_model(f.at("p.onnx"));
  CHECK(node_names(p.graph()) == std::vector<std::string>{"add", "relu", "mul", "neg"});
  REQUIRE(p.graph().initializer_size() == 1);
  CHECK(p.graph().initializer(0).name() == "w");
}

TEST_CASE("extract: the piece computes what the model computes there") {
  Fixture f;
  // The whole model's intermediate `b`, exposed, against the piece that ends at `b`.
  REQUIRE(run_cli({"convert", f.model, f.at("exposed.onnx"), "--expose-values", "^b$"}).code == 0);
  const std::vector<std::string> generated = {"--random-inputs", "--seed", "7", "--val-range",
                                              "-3,3"};
  auto run_json = [&](const std::string& model) {
    std::vector<std::string> args = {"--json", "run", model};
    args.insert(args.end(), generated.begin(), generated.end());
    const auto r = run_cli(args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    for (const auto& o : doc["outputs"])
      if (o["name"] == "b") return o["first"];
    FAIL("no output b in " << r.out);
    return nlohmann::json();
  };
  const nlohmann::json whole = run_json(f.at("exposed.onnx"));
  REQUIRE(run_cli({"extract", f.model, f.at("p.onnx"), "--outputs", "b"}).code == 0);
  // The same seeded random x: the same b (Relu of x + w, so half of it is not zero).
  const nlohmann::json piece = run_json(f.at("p.onnx"));
  CHECK(whole.size() >= 5);
  CHECK(whole == piece);
}

TEST_CASE("extract: a cut that needs a value not given names it, and writes nothing") {
  Fixture f;
  auto r = run_cli({"extract", f.model, f.at("p.onnx"), "--inputs", "a", "--outputs", "c"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "graph input \"y\""));
  CHECK(contains(r.err, "\"mul\" (Mul)"));
  CHECK(contains(r.err, "[extract.input-missing]"));
  CHECK_FALSE(fs::exists(f.at("p.onnx")));

  r = run_cli({"extract", f.model, f.at("p.onnx"), "--outputs", "nosuch"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "output \"nosuch\": the main graph has no value of that name"));
  r = run_cli({"extract", f.model, f.at("p.onnx"), "--inputs", "x,x"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "\"x\" is given twice"));
  CHECK_FALSE(fs::exists(f.at("p.onnx")));
}

TEST_CASE("extract: an input that the kept nodes also compute is refused") {
  Fixture f(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[4] x) => (float[2] p, float[2] q) {
  [split] a, b = Split <num_outputs = 2> (x)
  [pa] p = Neg (a)
  [qb] q = Neg (b)
}
)");
  const auto r = run_cli({"extract", f.model, f.at("p.onnx"), "--inputs", "a", "--outputs", "p,q"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "input \"a\" is also computed inside the cut, by graph.node[0] \"split\""));
}

TEST_CASE("extract: an input the outputs do not need is kept, with a warning") {
  Fixture f;
  const auto r =
      run_cli({"extract", f.model, f.at("p.onnx"), "--inputs", "b,x,y", "--outputs", "c"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "input \"x\" is not needed by the outputs"));
  CHECK(value_names(read_model(f.at("p.onnx")).graph().input()) ==
        std::vector<std::string>{"b", "x", "y"});
}

TEST_CASE("extract: functions the piece calls come along, the others stay behind") {
  Fixture f(R"(
<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[3] x) => (float[3] y, float[3] z) {
  [c1] t = local.Twice (x)
  [c2] y = local.Quad (t)
  [c3] z = local.Other (x)
}
<domain: "local", opset_import: ["" : 17]>
Twice (a) => (b) { b = Add (a, a) }
<domain: "local", opset_import: ["" : 17, "local" : 1]>
Quad (a) => (b) { t = local.Twice (a)  b = local.Twice (t) }
<domain: "local", opset_import: ["" : 17]>
Other (a) => (b) { b = Neg (a) }
)");
  const auto r =
      run_cli({"--json", "extract", f.model, f.at("p.onnx"), "--inputs", "t", "--outputs", "y"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const onnx::ModelProto p = read_model(f.at("p.onnx"));
  std::vector<std::string> functions;
  for (const auto& fn : p.functions()) functions.push_back(fn.name());
  // Quad calls Twice: both; Other is not called.
  CHECK(functions == std::vector<std::string>{"Twice", "Quad"});
}

TEST_CASE("extract: values a subgraph reads from the main graph keep their producers") {
  Fixture f(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (bool c, float[2] x) => (float[2] y) {
  [k] k = Neg (x)
  [cond] y = If (c) <
    then_branch = t () => (float[2] o) { o = Relu (k) },
    else_branch = e () => (float[2] o) { o = Identity (k) }>
}
)");
  const auto r = run_cli({"extract", f.model, f.at("p.onnx"), "--outputs", "y"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const onnx::ModelProto p = read_model(f.at("p.onnx"));
  CHECK(node_names(p.graph()) == std::vector<std::string>{"k", "cond"});
  CHECK(value_names(p.graph().input()) == std::vector<std::string>{"c", "x"});
}

TEST_CASE("extract: unsorted nodes come out in the order of their data") {
  Fixture f(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  [second] y = Neg (a)
  [first] a = Relu (x)
}
)");
  const auto r = run_cli({"extract", f.model, f.at("p.onnx")});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(node_names(read_model(f.at("p.onnx")).graph()) ==
        std::vector<std::string>{"first", "second"});
}

TEST_CASE("extract: external data is referenced in place, copied, moved or embedded") {
  Fixture f;
  REQUIRE(run_cli({"convert", f.model, f.at("m.onnx"), "--external-data", "w.data",
                   "--size-threshold", "0"})
              .code == 0);
  auto location_of = [](const onnx::TensorProto& t) {
    for (const auto& e : t.external_data())
      if (e.key() == "location") return e.value();
    return std::string();
  };
  // Beside the model: the piece reads the same file, and nothing else is written.
  auto r = run_cli({"extract", f.at("m.onnx"), f.at("p.onnx"), "--outputs", "out"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  onnx::ModelProto p = read_model(f.at("p.onnx"));
  REQUIRE(p.graph().initializer_size() == 1);
  CHECK(location_of(p.graph().initializer(0)) == "w.data");
  CHECK_FALSE(fs::exists(f.at("p.onnx.data")));
  CHECK(run_cli({"run", f.at("p.onnx"), "--random-inputs"}).code == 0);

  // Elsewhere: its own copy of what it keeps.
  fs::create_directories(f.dir / "sub");
  r = run_cli({"extract", f.at("m.onnx"), f.at("sub/p.onnx"), "--outputs", "out"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(fs::file_size(f.at("sub/p.onnx.data")) >= 24);
  CHECK(run_cli({"run", f.at("sub/p.onnx"), "--random-inputs"}).code == 0);

  // Its own file, named; or no external data at all.
  r = run_cli({"extract", f.at("m.onnx"), f.at("q.onnx"), "--outputs", "out", "--external-data",
               "q.bin", "--size-threshold", "0"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(location_of(read_model(f.at("q.onnx")).graph().initializer(0)) == "q.bin");
  r = run_cli(
      {"extract", f.at("m.onnx"), f.at("e.onnx"), "--outputs", "out", "--embed-external-data"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  p = read_model(f.at("e.onnx"));
  CHECK(p.graph().initializer(0).data_location() != onnx::TensorProto::EXTERNAL);
}

TEST_CASE("extract: an initializer the model lists as an input stays one (IR 3 requires it)") {
  Fixture f(R"(
<ir_version: 3, opset_import: ["" : 9]>
g (float[2] x, float[2] w) => (float[2] y)
<float[2] w = {1, 2}>
{
  [add] a = Add (x, w)
  [neg] y = Neg (a)
}
)");
  const auto r = run_cli({"extract", f.model, f.at("p.onnx"), "--inputs", "x", "--outputs", "a"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "inputs:  \"x\" (and 1 initializer listed as inputs)"));
  const onnx::ModelProto p = read_model(f.at("p.onnx"));
  CHECK(value_names(p.graph().input()) == std::vector<std::string>{"x", "w"});
  CHECK(p.graph().initializer_size() == 1);
  CHECK(run_cli({"check", f.at("p.onnx")}).code == 0);
}
