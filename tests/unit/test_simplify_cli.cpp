// SPDX-License-Identifier: Apache-2.0
// `onnxtool simplify`: each rewrite on a model made for it (folding, known shapes, bypassed
// no-ops, dead nodes, unused and duplicate initializers, common subexpressions), what it must
// leave alone (graph outputs' names, Dropout in training, growth past --max-folded-bytes), and
// --check holding the result to the original's outputs.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/model/model.h"
#include "onnx.pb.h"
#include "tests/support/cli_run.h"
#include "tests/support/support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

struct Simplified {
  nlohmann::json report;
  onnx::ModelProto model;
  std::string err;
};

Simplified simplify(const std::string& text, const std::vector<std::string>& extra = {}) {
  TempDir dir;
  write_file(dir / "m.onnxtxt", text);
  std::vector<std::string> args = {
      "--json",  "simplify", (dir / "m.onnxtxt").string(), (dir / "s.onnx").string(),
      "--check", "3"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliRun r = run_cli(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  DiagSink sink;
  Model m = load_model((dir / "s.onnx").string(), {}, sink);
  REQUIRE(run_cli({"check", (dir / "s.onnx").string()}).code == 0);
  return {nlohmann::json::parse(r.out), *m.proto, r.err};
}

std::vector<std::string> ops(const onnx::ModelProto& m) {
  std::vector<std::string> out;
  for (const auto& n : m.graph().node()) out.push_back(n.op_type());
  return out;
}

}  // namespace

TEST_CASE("simplify: folds constants, bypasses no-ops, drops the dead, merges repeats") {
  const auto s = simplify(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x) => (float[2,3] y)
<float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}, float[3] unused = {9, 9, 9}>
{
  two = Add (a, b)
  t = Identity (x)
  c = Cast <to = 1> (t)
  d = Dropout (c)
  p = Mul (d, two)
  q = Mul (d, two)
  dead = Neg (p)
  y = Add (p, q)
}
)");
  const auto& j = s.report;
  CHECK(j["folded"] == 1);                  // a + b
  CHECK(j["passed_through"] == 3);          // Identity, Cast to float, Dropout (inference)
  CHECK(j["common_subexpressions"] == 1);   // q is p
  CHECK(j["dead"] == 1);                    // Neg
  CHECK(j["duplicate_initializers"] == 1);  // b is a
  CHECK(j["unused_initializers"].get<int>() >= 1);
  CHECK(j["check"]["ok"] == true);
  CHECK(ops(s.model) == std::vector<std::string>{"Mul", "Add"});
  CHECK(s.model.graph().initializer_size() == 1);
  CHECK(s.model.graph().output(0).name() == "y");
}

TEST_CASE("simplify: a bound input shape turns shape arithmetic into constants") {
  const auto s = simplify(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[N,3,4] x) => (float[N,12] y)
<int64 zero = {0}, int64[1] zero_axes = {0}, int64[1] minus_one = {-1}>
{
  shape = Shape (x)
  n = Gather <axis = 0> (shape, zero)
  n1 = Unsqueeze (n, zero_axes)
  target = Concat <axis = 0> (n1, minus_one)
  y = Reshape (x, target)
}
)",
                          {"--input-shape", "x=2,3,4"});
  CHECK(s.report["from_shapes"].get<int>() >= 1);
  CHECK(ops(s.model) == std::vector<std::string>{"Reshape"});
}

TEST_CASE("simplify: what it must leave alone") {
  // An Identity that gives a graph output its name; Dropout in training mode; a Cast that
  // changes the type; a constant that would grow past --max-folded-bytes; the dequantization
  // of a quantized weight (the QDQ form int8 runtimes read).
  const auto s = simplify(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[4] x, bool train) => (float[4] y, float[4] z, int32[4] w, float[256,256] big,
                               float[2] dq)
<float ratio = {0.5}, int64[2] dims = {256, 256}, int8[2] q = {1, 2}, float scale = {0.5}>
{
  y = Identity (x)
  z = Dropout (x, ratio, train)
  w = Cast <to = 6> (x)
  big = ConstantOfShape <value = float[1] {1}> (dims)
  dq = DequantizeLinear (q, scale)
}
)",
                          {"--max-folded-bytes", "1000"});
  CHECK(ops(s.model) == std::vector<std::string>{"Identity", "Dropout", "Cast", "ConstantOfShape",
                                                 "DequantizeLinear"});
  CHECK(s.report["too_large_to_fold"] == 1);
}

TEST_CASE("simplify: before IR 4 the weights are inputs: folded through, and listed as inputs") {
  const auto s = simplify(R"(
<ir_version: 3, opset_import: ["" : 9]>
g (float[2] x, int64[1] s) => (float[2] y)
<int64[1] s = {2}>
{
  w = ConstantOfShape <value = float[1] {3}> (s)
  y = Add (x, w)
}
)");
  CHECK(ops(s.model) == std::vector<std::string>{"Add"});
  REQUIRE(s.model.graph().input_size() == 2);
  CHECK(s.model.graph().input(1).name() == "w");
  CHECK(s.model.graph().initializer(0).name() == "w");
}

TEST_CASE("simplify: text output summarises; bad input exits as load") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) { t = Identity (x)  y = Neg (t) }
)");
  auto r = run_cli({"simplify", (dir / "m.onnxtxt").string(), (dir / "s.onnxtxt").string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find(": 2 -> 1 node, ") != std::string::npos);
  CHECK(r.out.find("1 bypassed") != std::string::npos);
  r = run_cli({"simplify", (dir / "missing.onnx").string(), (dir / "s.onnx").string()});
  CHECK(r.code == 3);
}
