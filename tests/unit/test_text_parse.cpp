// SPDX-License-Identifier: Apache-2.0
// The textual syntax: the official grammar parses as Syntax.md specifies, and the hand-written
// fixtures in testdata/text (every construct, official and extension) are fixed points of
// text -> binary -> text.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/diag/error.h"
#include "core/ir/type_text.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "onnx.pb.h"
#include "tests/support/support.h"
#include "tests/unit/test_text_support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

onnx::ModelProto parse(const std::string& text) {
  onnx::ModelProto m;
  text::parse_model_text(text, m, {"test.onnxtxt", {}});
  return m;
}

std::string print(const onnx::ModelProto& m) {
  return text::print_model_text(m).text;
}

// The fixture without its leading comment lines (comments are not kept).
std::string without_leading_comments(const std::string& text) {
  std::size_t pos = 0;
  while (pos < text.size() && text[pos] == '#') pos = text.find('\n', pos) + 1;
  return text.substr(pos);
}

std::vector<fs::path> fixtures() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(testdata_dir() / "text"))
    if (e.path().extension() == ".onnxtxt") out.push_back(e.path());
  for (const auto& e : fs::directory_iterator(testdata_dir() / "models"))
    if (e.path().extension() == ".onnxtxt") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every fixture is a fixed point of text -> binary -> text") {
  const auto files = fixtures();
  REQUIRE(files.size() >= 8);
  for (const auto& f : files) {
    CAPTURE(f.filename().string());
    const std::string text = without_leading_comments(read_file(f));
    const onnx::ModelProto m = parse(text);
    onnx::ModelProto from_binary;
    REQUIRE(from_binary.ParseFromString(m.SerializeAsString()));
    CHECK(print(from_binary) == text);
    CHECK(exactly_equal(m, parse(print(from_binary))));
  }
}

TEST_CASE("the example of Syntax.md parses as specified") {
  const auto m = parse(R"(
<
  ir_version: 7,
  opset_import: [ "" : 10 ]
>
agraph (float[N, 128] X, float[128, 10] W, float[10] B) => (float[N, 10] C)
{
    T = MatMul(X, W)
    S = Add(T, B)
    C = Softmax(S)
}
)");
  CHECK(m.ir_version() == 7);
  REQUIRE(m.opset_import_size() == 1);
  CHECK(m.opset_import(0).domain() == "");
  CHECK(m.opset_import(0).version() == 10);
  const auto& g = m.graph();
  CHECK(g.name() == "agraph");
  REQUIRE(g.input_size() == 3);
  CHECK(type_to_string(g.input(0).type()) == "float[N,128]");
  CHECK(g.input(0).type().tensor_type().shape().dim(0).dim_param() == "N");
  CHECK(g.input(0).type().tensor_type().shape().dim(1).dim_value() == 128);
  REQUIRE(g.node_size() == 3);
  CHECK(g.node(0).op_type() == "MatMul");
  CHECK(g.node(0).input(1) == "W");
  CHECK(g.node(2).output(0) == "C");
  CHECK(!g.node(0).has_domain());
}

TEST_CASE("types: a bare element type is a scalar, [] is unknown rank") {
  const auto g = parse("g (float a, float[] b, int64[?, N, \"n m\", 3] c) => () {}").graph();
  CHECK(g.input(0).type().tensor_type().has_shape());
  CHECK(g.input(0).type().tensor_type().shape().dim_size() == 0);
  CHECK(!g.input(1).type().tensor_type().has_shape());
  const auto& dims = g.input(2).type().tensor_type().shape().dim();
  CHECK(!dims[0].has_dim_value());
  CHECK(!dims[0].has_dim_param());
  CHECK(dims[1].dim_param() == "N");
  CHECK(dims[2].dim_param() == "n m");
  CHECK(dims[3].dim_value() == 3);
  CHECK(type_to_string(g.input(0).type()) == "float");
  CHECK(type_to_string(g.input(1).type()) == "float[]");
  CHECK(type_to_string(g.input(2).type()) == "int64[?,N,\"n m\",3]");
}

TEST_CASE("initializers: in the input list, in the <...> list, and value_info beside them") {
  const auto g = parse(R"(g (float[2] x = {1.0, 2.0}, float y) => (float z)
      <float[3] w = {1, 2, 3}, int64[2] k = {5, 6}, float t, string[1] s = {"a"}> { z = Add(x, y) })")
                     .graph();
  REQUIRE(g.initializer_size() == 4);
  CHECK(g.initializer(0).name() == "x");
  CHECK(g.initializer(0).float_data_size() == 2);
  CHECK(g.initializer(1).name() == "w");
  CHECK(g.initializer(1).float_data(2) == 3.0f);  // an integer literal in a float tensor
  CHECK(g.initializer(2).int64_data(1) == 6);
  CHECK(g.initializer(3).string_data(0) == "a");
  REQUIRE(g.value_info_size() == 1);
  CHECK(g.value_info(0).name() == "t");
  CHECK(g.input_size() == 2);
}

TEST_CASE("attributes: types inferred from values, declared, refs, lists, graphs, tensors") {
  const auto m = parse(R"(g (float x) => (float y) {
    y = Op <i = 3, f = 3.0, i_as_f: float = 3, s = "s", t = float[2] {1, 2}, t2 = float[2] name = {1, 2},
            tp = float[2], tps = [int64, seq(float)], r: int = @outer, r2 = @other, l = [1, 2],
            lf = [1.5, 2], e: floats = [], g = sub (float a) => (float b) { b = Neg(a) },
            nan_f = nan, inf_f = -Infinity> (x)
  })");
  const auto& a = m.graph().node(0).attribute();
  auto find = [&](const std::string& name) -> const onnx::AttributeProto& {
    for (const auto& x : a)
      if (x.name() == name) return x;
    FAIL("no attribute " << name);
    return a[0];
  };
  using A = onnx::AttributeProto;
  CHECK(find("i").type() == A::INT);
  CHECK(find("f").type() == A::FLOAT);
  CHECK(find("i_as_f").type() == A::FLOAT);
  CHECK(find("i_as_f").f() == 3.0f);
  CHECK(find("s").type() == A::STRING);
  CHECK(find("t").type() == A::TENSOR);
  CHECK(find("t").t().dims(0) == 2);
  CHECK(find("t2").t().name() == "name");
  CHECK(find("tp").type() == A::TYPE_PROTO);
  CHECK(find("tps").type() == A::TYPE_PROTOS);
  CHECK(find("tps").type_protos_size() == 2);
  CHECK(find("r").ref_attr_name() == "outer");
  CHECK(find("r").type() == A::INT);
  CHECK(find("r2").ref_attr_name() == "other");
  CHECK(!find("r2").has_type());
  CHECK(find("l").type() == A::INTS);
  CHECK(find("lf").type() == A::FLOATS);  // an integer after a float reads as a float
  CHECK(find("e").type() == A::FLOATS);
  CHECK(find("g").type() == A::GRAPH);
  CHECK(find("g").g().node(0).op_type() == "Neg");
  CHECK(std::isnan(find("nan_f").f()));
  CHECK(find("inf_f").f() == -INFINITY);
}

TEST_CASE("nodes: labels, domains, overloads, empty inputs and outputs, attributes after inputs") {
  const auto g = parse(R"(g (float x) => (float y) {
    [first] a, "" = com.example.Op:v2 (x, , "")
    = Log (a)
    y = If (x) <then_branch = t () => (float o) { o = Identity(x) }, else_branch = e () => (float o) { o = Identity(x) }>
  })")
                     .graph();
  const auto& n = g.node(0);
  CHECK(n.name() == "first");
  CHECK(n.domain() == "com.example");
  CHECK(n.op_type() == "Op");
  CHECK(n.overload() == "v2");
  REQUIRE(n.input_size() == 3);
  CHECK(n.input(1) == "");
  CHECK(n.input(2) == "");
  CHECK(n.output(1) == "");
  CHECK(g.node(1).output_size() == 0);
  CHECK(g.node(2).attribute_size() == 2);
}

TEST_CASE("functions: header, attributes with defaults, typed inputs add value_info") {
  const auto m = parse(R"(g (float x) => (float y) { y = local.F(x) }
    <domain: "local", opset_import: ["" : 18], overload: "o", doc_string: "d">
    F <a, b = 2> (float x, w) => (y, int64 z) { y = Identity(x) })");
  REQUIRE(m.functions_size() == 1);
  const auto& f = m.functions(0);
  CHECK(f.domain() == "local");
  CHECK(f.overload() == "o");
  CHECK(f.doc_string() == "d");
  CHECK(f.opset_import(0).version() == 18);
  CHECK(f.attribute_size() == 1);
  CHECK(f.attribute_proto(0).name() == "b");
  CHECK(f.attribute_proto(0).i() == 2);
  CHECK(f.input_size() == 2);
  REQUIRE(f.value_info_size() == 2);
  CHECK(f.value_info(0).name() == "x");
  CHECK(f.value_info(1).name() == "z");
}

TEST_CASE("comments, quoted names and escapes") {
  const auto g = parse(
                     "# a comment\n\"a b\" (float \"x.y\" # trailing\n) => () {\n"
                     "  \"q\\\"\" = Identity(\"x.y\") # comment\n}\n")
                     .graph();
  CHECK(g.name() == "a b");
  CHECK(g.input(0).name() == "x.y");
  CHECK(g.node(0).output(0) == "q\"");
  onnx::ModelProto m;
  m.mutable_graph()->set_name(std::string("t\x01\n\xff\xc3\xa9", 6));
  const std::string text = print(m);
  CHECK(text.find("\"t\\x01\\n\\xffé\"") != std::string::npos);
  CHECK(exactly_equal(m, parse(text)));
}

TEST_CASE("names that are keywords or not identifiers print quoted") {
  CHECK(text::prints_bare("x_1"));
  CHECK(!text::prints_bare("float"));
  CHECK(!text::prints_bare("seq"));
  CHECK(!text::prints_bare("NaN"));
  CHECK(!text::prints_bare("1x"));
  CHECK(!text::prints_bare(""));
  CHECK(!text::prints_bare("a.b"));
}

TEST_CASE("floats print in shortest exact form and parse back bit for bit") {
  for (float v : {0.1f, 1.0f, -0.0f, 1e-40f, 3.4028235e38f, 1e20f, 123456792.0f,
                  std::bit_cast<float>(0x7fc00001u), std::bit_cast<float>(0xffc00000u), INFINITY,
                  -INFINITY}) {
    onnx::ModelProto m;
    auto* a = m.mutable_graph()->add_node()->add_attribute();
    a->set_name("f");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
    const std::string text = print(m);
    CAPTURE(text);
    CHECK(exactly_equal(m, parse(text)));
  }
  onnx::ModelProto m;
  auto* a = m.mutable_graph()->add_node()->add_attribute();
  a->set_name("f");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(1.0f);
  CHECK(print(m).find("f = 1.0") != std::string::npos);
}
