// SPDX-License-Identifier: Apache-2.0
// Malformed text: every case gives one Error (kind invalid, a text.* rule) located line:column,
// saying what was expected; no input crashes or hangs the parser.
#include <doctest/doctest.h>

#include <random>

#include "core/diag/error.h"
#include "core/text/parser.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

struct Case {
  const char* text;
  const char* where;  // line:column
  const char* rule;
  const char* message;  // a part of the message
};

// The Error from parsing, or nullopt when the text parses.
std::optional<Error> parse_error(std::string_view text) {
  try {
    onnx::ModelProto m;
    text::parse_model_text(text, m, {"bad.onnxtxt", {}});
    return std::nullopt;
  } catch (const Error& e) {
    return e;
  }
}

const Case kCases[] = {
    // unbalanced brackets and truncated input
    {"g (float x => (float y) { y = Neg(x) }", "1:12", "text.syntax",
     "expected ')' to close the graph's input list, found '=>'"},
    {"g (float x) => (float y) { y = Neg(x }", "1:38", "text.syntax",
     "expected ')' to close the node's input list, found '}'"},
    {"g (float x) => (float y) {\n  y = Neg(x)\n", "3:1", "text.unexpected-end",
     "expected a node or '}' to close the node list begun at 1:1, found end of input"},
    {"g (float x) => (float y) { y = Neg(x) }}", "1:40", "text.syntax",
     "expected a function, %training_info or the end of input, found '}'"},
    {"g (float x) => (float y)", "1:25", "text.unexpected-end",
     "expected '{' to open the node list, found end of input"},
    {"g (float[2 x) => () {}", "1:12", "text.syntax", "expected ']' to close the dimensions"},
    {"<ir_version: 7 g () => () {}", "1:16", "text.syntax",
     "expected '>' to close the model header, found 'g'"},
    {"g () => () { y = Op <a = 1 () }", "1:28", "text.syntax",
     "expected '>' to close the attribute list, found '('"},
    {"g () => () { y = Op (x) %{doc_string: \"x\"", "1:25", "text.unterminated-annotation",
     "protobuf text block is not closed"},
    {"g () => () { y = Op <a = [1, 2> () }", "1:31", "text.syntax",
     "expected ']' to close the list value of attribute \"a\", found '>'"},
    {"", "1:1", "text.unexpected-end", "expected a graph, found end of input"},
    {"<ir_version: 7>", "1:16", "text.unexpected-end", "expected a graph, found end of input"},
    {"g (", "1:4", "text.unexpected-end", "expected a type or a name in the graph input"},
    // unknown types
    {"g (flaot[2] x) => () {}", "1:4", "text.unknown-type", "unknown type 'flaot'"},
    {"g (map(flaot, float) x) => () {}", "1:8", "text.unknown-type",
     "unknown element type 'flaot'"},
    {"g (seq(float x) => () {}", "1:14", "text.syntax", "expected ')' to close seq(...)"},
    {"g (sparse_tensor(seq(float)) x) => () {}", "1:18", "text.unknown-type",
     "unknown element type 'seq'"},
    {"g () => () { y = Op <a: integer = 3> () }", "1:25", "text.unknown-type",
     "unknown attribute type 'integer'"},
    {"g () => () <seq(float) w = {1.0}> {}", "1:13", "text.tensor-type",
     "a tensor needs a tensor type"},
    {"g () => () <float[N] w = {1.0}> {}", "1:13", "text.tensor-type",
     "a tensor's dims must be numbers"},
    {"g () => () <float[] w = {1.0}> {}", "1:13", "text.tensor-type", "a tensor needs its dims"},
    // bad numbers
    {"g (int64[99999999999999999999] x) => () {}", "1:10", "text.number-range",
     "out of range for int64"},
    {"g () => () <float[2] w = {1.0, 1e99}> {}", "1:32", "text.number-range",
     "number 1e99 is out of range for float"},
    {"g () => () <double[1] w = {1e999}> {}", "1:28", "text.number-range",
     "out of range for double"},
    {"g () => () <int32[1] w = {2147483648}> {}", "1:27", "text.number-range",
     "out of range for an int32_data entry"},
    {"g () => () <uint64[1] w = {-1}> {}", "1:28", "text.number-range",
     "expected a non-negative integer"},
    {"g () => () <int8[1] w = %raw {200}> {}", "1:31", "text.number-range",
     "200 is out of range for int8 (-128..127)"},
    {"g () => () <uint4[1] w = %raw {16}> {}", "1:32", "text.number-range",
     "out of range for uint4 (0..15)"},
    {"g () => () <float16[1] w = %raw {0x10000}> {}", "1:34", "text.number-range",
     "bit pattern 0x10000 is wider than float16"},
    {"g () => () <float[1] w = {1.2.3}> {}", "1:27", "text.bad-number", "malformed number '1.2.3'"},
    {"g () => () <float[1] w = {0x}> {}", "1:27", "text.bad-number", "expected hex digits"},
    {"g () => () <float[1] w = {-x}> {}", "1:27", "text.bad-number", "expected a number after '-'"},
    {"g () => () <float[1] w = {1e+}> {}", "1:27", "text.bad-number", "exponent"},
    {"g () => () <float[1] w = {12abc}> {}", "1:27", "text.bad-number", "malformed number"},
    {"<ir_version: \"7\"> g () => () {}", "1:14", "text.syntax",
     "expected an integer, found \"7\""},
    // value counts
    {"g () => () <float[2] w = %raw {1.0}> {}", "1:35", "text.value-count",
     "expected 2 values for float[2], found 1"},
    {"g () => () <float[1] w = %raw {1.0, 2.0}> {}", "1:37", "text.value-count",
     "too many values: float[1] takes 1"},
    {"g () => () <float[1000000000000] w = %raw {}> {}", "1:43", "text.value-count",
     "the dims ask for more values than the text holds"},
    {"g () => () <float[-1] w = %raw {}> {}", "1:32", "text.value-count", "(or are negative)"},
    // duplicate names
    {"g () => () <float[1] w = {1.0}, float[1] w = {2.0}> {}", "1:33", "text.duplicate-name",
     "initializer \"w\" is given twice"},
    {"g () => () { y = Op <a = 1, a = 2> () }", "1:29", "text.duplicate-name",
     "attribute \"a\" is given twice"},
    {"<ir_version: 7, ir_version: 8> g () => () {}", "1:17", "text.duplicate-name",
     "header key ir_version is given twice"},
    {"g () => () {} <domain: \"a\"> F (x) => (y) {} <domain: \"a\"> F (x) => (y) {}", "1:45",
     "text.duplicate-name", "function \"F\" is defined twice"},
    {"g () => () <%sparse[2] {values: float {1.0}, values: float {2.0}}> {}", "1:46",
     "text.duplicate-name", "values is given twice"},
    // unknown keys and misplaced values
    {"<ir_version: 7, producer: \"x\"> g () => () {}", "1:17", "text.unknown-key",
     "unknown model header key 'producer'"},
    {"g () => () {} %training_info { steps: [] }", "1:32", "text.unknown-key",
     "unknown %training_info key 'steps'"},
    {"g () => () { 5 = Op () }", "1:14", "text.syntax", "expected a node or '}'"},
    {"g () => () { y = Op <a = [1, 2.5]> () }", "1:30", "text.attribute-type",
     "mixes int and float values"},
    {"g () => () { y = Op <a = []> () }", "1:22", "text.attribute-type",
     "the empty list of attribute \"a\" needs a type"},
    {"g () => () { y = Op <a: int = 1.5> () }", "1:31", "text.attribute-type",
     "the value is float but the attribute is declared int"},
    {"g () => () { y = Op <a: ints = 3> () }", "1:32", "text.attribute-type",
     "its value is a list"},
    {"g () => () { y = Op <a = 0x10> () }", "1:26", "text.attribute-type", "a bit pattern"},
    {"g () => () { y = Op <a = @> () }", "1:27", "text.syntax",
     "expected the name of the referenced attribute, found '>'"},
    {"g () => () { y = Op <a = [@b]> () }", "1:27", "text.attribute-type",
     "a reference (@name) cannot be an element of a list"},
    // strings and bytes
    {"g () => () { y = Op <a = \"unterminated> () }", "1:26", "text.unterminated-string",
     "string is not closed"},
    {"g () => () { y = Op <a = \"\\x4\"> () }", "1:27", "text.bad-escape",
     "expected two hex digits after '\\x'"},
    {"g (float x) => (float y) { y = \xe2\x82\xac (x) }", "1:32", "text.syntax",
     "unexpected character '\xe2\x82\xac'"},
    {"g (float x) => (float y) { y = Neg(\xff) }", "1:36", "text.syntax",
     "unexpected byte 0xFF (not valid UTF-8)"},
    {"g () => () { y = Op <a = \"\xc3\"> () }", "1:27", "text.bad-utf8", "invalid UTF-8"},
    {"g () => () { y = Op <a = \"\xed\xa0\x80\"> () }", "1:27", "text.bad-utf8", "invalid UTF-8"},
    // annotations and extensions
    {"g () => () { y = Op (x) %{doc_strin: \"x\"} }", "1:36", "text.bad-annotation",
     "has no field named \"doc_strin\""},
    {"g () => () { y = Op (x) %{doc_string: 5} }", "1:39", "text.bad-annotation",
     "Expected string"},
    {"g () => () { y = Op (x) %{\"!!\"} }", "1:27", "text.bad-annotation",
     "expected base64 bytes of a NodeProto"},
    {"g () => () { y = Op (x) %pb }", "1:25", "text.syntax", "found '%pb'"},
    {"g () => () { y = Op (x) % }", "1:25", "text.syntax", "expected an extension keyword"},
    {"g () => () <float[2] w = %raw {%npz \"w\"}> {}", "1:32", "text.sidecar",
     "the model header names none"},
    {"<%npz: \"m.npz\"> g () => () <float[2] w = %raw {%npz \"w\"}> {}", "1:48", "text.sidecar",
     "cannot be read here"},
    {"g () => () <float[2] w = %raw \"not base64!\"> {}", "1:31", "text.bad-base64",
     "must hold base64 bytes"},
    {"g () => () {} %tensor{dims: 1}", "1:15", "text.syntax",
     "expected a function, %training_info or the end of input"},
};

}  // namespace

TEST_CASE("malformed text gives one located error saying what was expected") {
  CHECK(std::size(kCases) >= 40);
  for (const Case& c : kCases) {
    const std::string text = c.text;
    CAPTURE(text);
    const auto e = parse_error(text);
    REQUIRE_MESSAGE(e.has_value(), "parsed without an error");
    CHECK(e->kind() == ErrorKind::invalid);
    CHECK(e->file() == "bad.onnxtxt");
    CHECK(e->location() == std::string(c.where));
    CHECK(e->rule() == std::string(c.rule));
    CHECK_MESSAGE(e->message().find(c.message) != std::string::npos, e->message());
    CHECK(e->message().find('\n') == std::string::npos);
  }
}

TEST_CASE("a byte order mark is skipped and does not count as a column") {
  const auto e = parse_error("\xEF\xBB\xBFg (float x => () {}");
  REQUIRE(e.has_value());
  CHECK(e->location() == "1:12");
}

TEST_CASE("the malformed files in testdata/bad/text fail with their line:column") {
  // Each file's first line says where it fails: "# expect: LINE:COL RULE".
  int files = 0;
  for (const auto& entry : fs::directory_iterator(testdata_dir() / "bad" / "text")) {
    const std::string text = read_file(entry.path());
    CAPTURE(entry.path().filename().string());
    const std::string marker = "# expect: ";
    REQUIRE(text.rfind(marker, 0) == 0);
    const std::string spec = text.substr(marker.size(), text.find('\n') - marker.size());
    const auto space = spec.find(' ');
    const auto e = parse_error(text);
    REQUIRE(e.has_value());
    CHECK(e->location() == spec.substr(0, space));
    CHECK(e->rule() == spec.substr(space + 1));
    ++files;
  }
  CHECK(files >= 5);
}

TEST_CASE("nesting is bounded: deep types, graphs and lists are refused, not a stack overflow") {
  std::string type = "float";
  for (int i = 0; i < 5000; ++i) type = "seq(" + type + ")";
  auto e = parse_error("g (" + type + " x) => () {}");
  REQUIRE(e.has_value());
  CHECK(e->rule() == "text.too-deep");
  std::string graph = "{}";
  for (int i = 0; i < 5000; ++i) graph = "{ y = If (c) <b = g () => () " + graph + "> }";
  e = parse_error("g () => () " + graph);
  REQUIRE(e.has_value());
  CHECK(e->rule() == "text.too-deep");
  std::string annotation = "";
  for (int i = 0; i < 5000; ++i) annotation = "g { node { attribute { " + annotation + "} } }";
  e = parse_error("g () => () { y = Op <a %{" + annotation + "} = 1> () }");
  REQUIRE(e.has_value());
  CHECK(e->rule() == "text.bad-annotation");
}

TEST_CASE("every truncation and random corruption of a fixture fails cleanly or parses") {
  const std::string text = read_file(testdata_dir() / "text" / "extensions.onnxtxt");
  for (std::size_t n = 0; n < text.size(); n += 3) parse_error(text.substr(0, n));
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string t = text;
    for (int k = 0; k < 3; ++k) t[rng() % t.size()] = static_cast<char>(rng());
    parse_error(t);
  }
}
