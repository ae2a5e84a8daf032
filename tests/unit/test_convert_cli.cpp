// SPDX-License-Identifier: Apache-2.0
// `onnxtool convert --opset` end to end (the binary): what is written, what --dry-run says, what
// a refusal looks like, and that nothing is written when the conversion cannot be made or the
// input is bad.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/support.h"

using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

const char* kSqueeze11 = R"(
<ir_version: 6, opset_import: ["" : 11]>
g (float[1,3] x) => (float[3] y) {
  [sq] y = Squeeze <axes = [0]> (x)
}
)";

const char* kRuntimeAxes = R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[1,3] x, int64[1] axes) => (float[3] y) {
  [sq] y = Squeeze (x, axes)
}
)";

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("convert --opset writes the converted model, which checks clean") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kSqueeze11);
  auto r = run_onnxtool({"convert", "m.onnxtxt", "m13.onnx", "--opset", "13"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out == "wrote m13.onnx (onnx): ai.onnx 11 -> 13; 0 nodes kept, 1 adapted, 0 expanded\n");
  REQUIRE(fs::exists(dir / "m13.onnx"));
  r = run_onnxtool({"check", "m13.onnx"}, "", dir.path());
  CHECK(r.exit_code == 0);
  // Text output in the same call, and the way back down.
  r = run_onnxtool({"convert", "m13.onnx", "m11.onnxtxt", "--opset", "11"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(contains(read_file(dir / "m11.onnxtxt"), "Squeeze <axes = [0]> (x)"));
  CHECK(contains(read_file(dir / "m11.onnxtxt"), "\"\" : 11"));
}

TEST_CASE("convert --dry-run says what happens to each node and writes nothing") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kSqueeze11);
  auto r = run_onnxtool({"convert", "m.onnxtxt", "out.onnx", "--opset", "13", "--dry-run"}, "",
                        dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out ==
        "graph.node[0] \"sq\" (Squeeze): adapted Squeeze-11 -> Squeeze-13\n"
        "  12 -> 13: axes [0]: attribute -> input\n"
        "ai.onnx 11 -> 13; 0 nodes kept, 1 adapted, 0 expanded\n");
  CHECK_FALSE(fs::exists(dir / "out.onnx"));

  r = run_onnxtool({"--json", "convert", "m.onnxtxt", "out.onnx", "--opset", "13", "--dry-run"}, "",
                   dir.path());
  CHECK(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["conversion"]["nodes"].size() == 1);
  CHECK(j["conversion"]["nodes"][0]["action"] == "adapted");
  CHECK(j["conversion"]["nodes"][0]["to"] == "Squeeze-13");
  CHECK(j["conversion"]["adapted"] == 1);
  CHECK(j["conversion"]["domains"][0]["from"] == 11);
}

TEST_CASE("a node that cannot be converted is refused, naming it, and nothing is written") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kRuntimeAxes);
  auto r = run_onnxtool({"convert", "m.onnxtxt", "out.onnx", "--opset", "11"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err,
                 "onnxtool: error: m.onnxtxt: graph.node[0] \"sq\" (Squeeze): no equivalent at "
                 "opset 12 (Squeeze-13 -> Squeeze-11): axes (input 1) is computed when the model "
                 "runs, and Squeeze-11 takes it as an attribute [convert.no-equivalent]"));
  CHECK(contains(r.err, "not converted: 1 node refused; nothing written"));
  CHECK_FALSE(fs::exists(dir / "out.onnx"));
}

TEST_CASE("bad targets and bad inputs: clear errors, nothing written") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kSqueeze11);
  auto r = run_onnxtool({"convert", "m.onnxtxt", "o.onnx", "--opset", "29"}, "", dir.path());
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "ai.onnx has versions 1 to 28, not 29"));
  r = run_onnxtool({"convert", "m.onnxtxt", "o.onnx", "--opset", "ai.onnx.ml=9"}, "", dir.path());
  CHECK(r.exit_code == 2);
  r = run_onnxtool({"convert", "m.onnxtxt", "o.onnx", "--opset", "com.example=1"}, "", dir.path());
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "com.example is not a standard domain"));
  r = run_onnxtool({"convert", "m.onnxtxt", "o.onnx", "--opset", "thirteen"}, "", dir.path());
  CHECK(r.exit_code == 2);
  r = run_onnxtool({"convert", "m.onnxtxt", "o.onnx", "--opset", "13", "--opset", "ai.onnx=12"}, "",
                   dir.path());
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "ai.onnx is given twice"));

  // An invalid model (a cycle) is not converted.
  write_file(dir / "cyclic.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  a = Relu (b)
  b = Relu (a)
  y = Add (x, a)
}
)");
  r = run_onnxtool({"convert", "cyclic.onnxtxt", "o.onnx", "--opset", "14"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "[convert.invalid-input]"));
  // Truncated bytes.
  write_file(dir / "cut.onnx", std::string("\x08\x07\x12\x05hello", 8));
  r = run_onnxtool({"convert", "cut.onnx", "o.onnx", "--opset", "14"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK_FALSE(fs::exists(dir / "o.onnx"));
  // Subgraphs nested deeper than protobuf reads: If inside If, 120 levels.
  std::string deep = "e () => (float[1] v) { v = Identity (x) }";
  for (int d = 0; d < 120; ++d)
    deep = "g () => (float[1] v) { v = If <then_branch = " + deep +
           ", else_branch = f () => (float[1] w) { w = Identity (x) }> (c) }";
  write_file(dir / "deep.onnxtxt",
             "<ir_version: 8, opset_import: [\"\" : 13]>\n"
             "main (bool c, float[1] x) => (float[1] y) {\n"
             "  y = If <then_branch = " +
                 deep +
                 ", else_branch = z () => (float[1] u) { u = Identity (x) "
                 "}> (c)\n}\n");
  r = run_onnxtool({"convert", "deep.onnxtxt", "o.onnx", "--opset", "11"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "deep.onnxtxt"));
  CHECK(contains(r.err, "nested too deeply"));
  CHECK_FALSE(fs::exists(dir / "o.onnx"));
}

TEST_CASE("nodes of a domain that is not converted are kept as they are") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 11, "com.example" : 1]>
g (float[1,3] x) => (float[3] y) {
  t = com.example.Foo <alpha = 2.0> (x)
  y = Squeeze <axes = [0]> (t)
}
)");
  auto r = run_onnxtool({"convert", "m.onnxtxt", "m13.onnxtxt", "--opset", "13"}, "", dir.path());
  REQUIRE(r.exit_code == 0);
  const std::string text = read_file(dir / "m13.onnxtxt");
  CHECK(contains(text, "t = com.example.Foo <alpha = 2.0> (x)"));
  CHECK(contains(text, "\"com.example\" : 1"));
  CHECK(contains(text, "\"\" : 13"));
}

TEST_CASE("--ir-version restamps, refusing what the version lacks") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kSqueeze11);
  // Down to opset 9: the IR goes down to what opset 9 needs (4).
  auto r = run_onnxtool({"convert", "m.onnxtxt", "m9.onnxtxt", "--opset", "9"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(contains(read_file(dir / "m9.onnxtxt"), "ir_version: 4"));
  // Opset 11 needs IR 6.
  r = run_onnxtool({"convert", "m.onnxtxt", "o.onnx", "--ir-version", "5"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "the opsets need ir_version >= 6, not 5 [convert.ir-version]"));
  CHECK_FALSE(fs::exists(dir / "o.onnx"));
  // Model-local functions need IR 8, whatever the opsets say.
  write_file(dir / "fn.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 13, "local" : 1]>
g (float[2] x) => (float[2] y) { y = local.Twice (x) }
<domain: "local", opset_import: ["" : 13]>
Twice (a) => (b) { b = Add (a, a) }
)");
  r = run_onnxtool({"convert", "fn.onnxtxt", "o.onnx", "--ir-version", "7"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "[model.ir-version-too-old]"));
  CHECK_FALSE(fs::exists(dir / "o.onnx"));
  r = run_onnxtool({"convert", "fn.onnxtxt", "o.onnx", "--ir-version", "8"}, "", dir.path());
  CHECK(r.exit_code == 0);
}

TEST_CASE("value_info the conversion makes stale is refreshed by shape inference") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[1,3] x) => (float[3] y)
  <int64[1] ax, float[N] y0>
{
  ax = Constant <value = int64[1] {0}> ()
  y0 = Squeeze (x, ax)
  y = Relu (y0)
}
)");
  auto r =
      run_onnxtool({"-v", "convert", "m.onnxtxt", "m11.onnxtxt", "--opset", "11"}, "", dir.path());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.err, "value_info after conversion: 1 updated, 1 dropped"));
  const std::string text = read_file(dir / "m11.onnxtxt");
  CHECK_FALSE(contains(text, "int64[1] ax"));  // the constant and its entry are gone
  CHECK(contains(text, "float[3] y0"));        // what inference knows now
}

namespace {

const char* kLoopModel = R"(
<ir_version: 8, opset_import: ["" : 13]>
g (int64 n, float[2] "x \"quoted\\") => (float[2] acc_out) {
  acc_out = Loop (n, , "x \"quoted\\") <body = b (int64 i, bool c, float[2] a) => (bool c2, float[2] a2) {
    c2 = Identity (c)
    a2 = Neg (a)
  }>
}
)";

bool have_graphviz() {
  return std::system("command -v dot >/dev/null 2>&1") == 0;
}

}  // namespace

TEST_CASE("convert to .dot: a Graphviz picture with types on the edges and subgraph clusters") {
  TempDir dir;
  const std::string sample = (testdata_dir() / "models" / "sample.onnxtxt").string();
  auto r = run_onnxtool({"convert", sample, (dir / "s.dot").string()});
  REQUIRE(r.exit_code == 0);
  const std::string dot = read_file(dir / "s.dot");
  CHECK(dot.rfind("digraph \"tiny_cnn\" {", 0) == 0);
  CHECK(contains(dot, "label=\"Conv\\nconv\\nconv.weight [4,1,3,3]\\nconv.bias [4]\""));
  CHECK(contains(dot, "[label=\"c\\nfloat[N,4,8,8]\"]"));
  CHECK(!contains(dot, "g0_in1"));  // initializers are summarised, not drawn

  write_file(dir / "loop.onnxtxt", kLoopModel);
  r = run_onnxtool({"convert", (dir / "loop.onnxtxt").string(), (dir / "loop.gv").string()});
  REQUIRE(r.exit_code == 0);
  const std::string loop = read_file(dir / "loop.gv");
  CHECK(contains(loop, "subgraph cluster_g1 {"));
  CHECK(contains(loop, "label=\"x \\\"quoted\\\\\\nfloat[2]\""));  // quote and backslash escaped
  CHECK(contains(loop, "style=dotted, label=\"body\""));
  if (have_graphviz()) {
    // Graphviz itself reads both back.
    for (const char* f : {"s.dot", "loop.gv"})
      CHECK(std::system(("dot -Tsvg -o /dev/null " + (dir / f).string()).c_str()) == 0);
  }
}

TEST_CASE("convert to .svg goes through Graphviz, and says how to install it when it is missing") {
  TempDir dir;
  const std::string sample = (testdata_dir() / "models" / "sample.onnxtxt").string();
  if (have_graphviz()) {
    auto r = run_onnxtool({"convert", sample, (dir / "s.svg").string()});
    CHECK(r.exit_code == 0);
    CHECK(contains(read_file(dir / "s.svg"), "<svg"));
  }
  // An empty PATH: no dot to find.
  fs::create_directory(dir / "empty");
  auto r = run_onnxtool({"convert", sample, (dir / "n.png").string()}, "", {},
                        {{"PATH", (dir / "empty").string()}});
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "needs Graphviz's dot program, which is not installed"));
  CHECK(contains(r.err, "apt-get install graphviz"));
  CHECK(!fs::exists(dir / "n.png"));
  int leftovers = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++leftovers;
  CHECK(leftovers == (have_graphviz() ? 2 : 1));  // s.svg and empty/, no temporary files
}

TEST_CASE("convert says when it replaces a side file that was there") {
  TempDir dir;
  const std::string sample = (testdata_dir() / "models" / "sample.onnxtxt").string();
  const std::string out = (dir / "s.onnxtxt").string();
  auto r = run_onnxtool({"convert", sample, out, "--inline-limit", "1"});
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "s.npz\n"));
  r = run_onnxtool({"convert", sample, out, "--inline-limit", "1"});
  CHECK(contains(r.out, "s.npz (replacing the file that was there)"));
}
