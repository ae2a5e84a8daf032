// SPDX-License-Identifier: Apache-2.0
// The checker on hostile input: every truncation of a model, 10,000 nested subgraphs (as bytes,
// and as a proto built in memory), random corruption. It answers, never crashes or hangs; these
// run under AddressSanitizer + UBSan in CI.
#include <doctest/doctest.h>

#include <google/protobuf/arena.h>
#include <google/protobuf/text_format.h>

#include <random>
#include <string>

#include "core/check/check.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;

namespace {

// A model touching most of what the checker reads: subgraphs, initializers in several storage
// forms, a sparse initializer, attributes, a function, training info, value_info.
const char* kRich = R"(
ir_version: 10 opset_import { version: 21 } opset_import { domain: "local" version: 1 }
graph { name: "g"
  input { name: "c" type { tensor_type { elem_type: 9 shape { } } } }
  input { name: "X" type { tensor_type { elem_type: 1 shape { dim { dim_param: "N" } } } } }
  output { name: "Y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "N" } } } } }
  initializer { name: "W" data_type: 1 dims: 2 raw_data: "\000\000\200?\000\000\000@" }
  initializer { name: "S" data_type: 8 dims: 1 string_data: "x" }
  sparse_initializer { values { name: "P" data_type: 1 dims: 1 float_data: 1 }
                       indices { data_type: 7 dims: 1 int64_data: 1 } dims: 2 }
  value_info { name: "T" type { tensor_type { elem_type: 1 } } }
  node { name: "f" domain: "local" op_type: "F" input: "X" output: "T" }
  node { name: "if" op_type: "If" input: "c" output: "Y"
    attribute { name: "then_branch" type: GRAPH g { name: "t" output { name: "r" }
      node { op_type: "Neg" input: "T" output: "r" } } }
    attribute { name: "else_branch" type: GRAPH g { name: "e" output { name: "r" }
      node { op_type: "Constant" output: "r"
        attribute { name: "value" type: TENSOR t { data_type: 1 dims: 1 float_data: 3 } } } } } }
}
functions { name: "F" domain: "local" input: "a" output: "b" attribute: "k"
  opset_import { version: 21 }
  node { op_type: "LeakyRelu" input: "a" output: "b"
    attribute { name: "alpha" type: FLOAT ref_attr_name: "k" } } }
training_info { algorithm { name: "algo" output { name: "W1" }
  node { op_type: "Add" input: "W" input: "X" output: "W1" } }
  update_binding { key: "W" value: "W1" } }
)";

std::string rich_bytes() {
  onnx::ModelProto m;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(kRich, &m));
  std::string bytes;
  REQUIRE(m.SerializeToString(&bytes));
  return bytes;
}

int check_bytes(const test::TempDir& dir, const std::string& bytes, DiagSink& sink) {
  const auto path = dir / "m.onnx";
  test::write_file(path, bytes);
  return check_file(path.string(), {}, sink);
}

// Appends a varint, least significant group first (the bytes are built back to front).
void put_varint_reversed(std::string& rev, uint64_t v) {
  std::string fwd;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    if (v) b |= 0x80;
    fwd.push_back(static_cast<char>(b));
  } while (v);
  rev.append(fwd.rbegin(), fwd.rend());
}

// Wraps the message held (reversed) in rev as a length-delimited field.
void wrap_reversed(std::string& rev, uint8_t field) {
  put_varint_reversed(rev, rev.size());
  rev.push_back(static_cast<char>((field << 3) | 2));
}

}  // namespace

TEST_CASE("the rich model itself is valid") {
  test::TempDir dir;
  DiagSink sink;
  CHECK(check_bytes(dir, rich_bytes(), sink) == 0);
  for (const auto& d : sink.diagnostics()) CHECK_MESSAGE(d.severity != Severity::error, d.message);
}

TEST_CASE("every truncation of a model is rejected cleanly") {
  test::TempDir dir;
  const std::string bytes = rich_bytes();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    DiagSink sink;
    const int code = check_bytes(dir, bytes.substr(0, n), sink);
    CAPTURE(n);
    // A cut at a field boundary can leave a well-formed but incomplete model: it is checked
    // like any other.
    CHECK((code == 0 || code == 1));
  }
}

TEST_CASE("10,000 nested subgraphs stop at the parser's depth limit") {
  // graph { node { attribute { g { node { ... } } } } }, built as bytes from the inside out.
  std::string rev;
  for (int level = 0; level < 10000; ++level) {
    wrap_reversed(rev, 6);  // AttributeProto.g
    wrap_reversed(rev, 5);  // NodeProto.attribute
    wrap_reversed(rev, 1);  // GraphProto.node
  }
  wrap_reversed(rev, 7);  // ModelProto.graph
  std::string bytes(rev.rbegin(), rev.rend());
  bytes += std::string("\x08\x0a", 2);  // ir_version: 10
  test::TempDir dir;
  DiagSink sink;
  CHECK(check_bytes(dir, bytes, sink) == 1);
  REQUIRE(sink.diagnostics().size() == 1);
  CHECK(sink.diagnostics()[0].rule == "model.not-protobuf");
}

TEST_CASE("a proto nested 10,000 deep in memory stops at the checker's depth limit") {
  // On an arena, so that destroying it does not recurse 30,000 messages deep either.
  google::protobuf::Arena arena;
  auto* model = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  model->set_ir_version(10);
  model->add_opset_import()->set_version(21);
  onnx::GraphProto* g = model->mutable_graph();
  for (int level = 0; level < 10000; ++level) {
    g->set_name("g");
    auto* node = g->add_node();
    node->set_op_type("If");
    node->add_output("o" + std::to_string(level));
    auto* a = node->add_attribute();
    a->set_name("then_branch");
    a->set_type(onnx::AttributeProto::GRAPH);
    g = a->mutable_g();
  }
  DiagSink sink;
  check_model(*model, {}, sink);
  bool too_deep = false;
  for (const auto& d : sink.diagnostics()) too_deep |= d.rule == "model.too-deep";
  CHECK(too_deep);
}

TEST_CASE("random corruption never crashes the checker") {
  test::TempDir dir;
  const std::string bytes = rich_bytes();
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<std::size_t> pos(0, bytes.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int round = 0; round < 2000; ++round) {
    std::string b = bytes;
    const int flips = 1 + round % 4;
    for (int k = 0; k < flips; ++k) b[pos(rng)] = static_cast<char>(byte(rng));
    DiagSink sink;
    const int code = check_bytes(dir, b, sink);
    CAPTURE(round);
    CHECK((code == 0 || code == 1));
  }
}
