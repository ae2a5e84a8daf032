// SPDX-License-Identifier: Apache-2.0
// Loading models: every way a file can fail to be a model gives one clear error, never a crash.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <random>

#include "core/diag/error.h"
#include "core/model/model.h"
#include "core/text/json.h"
#include "onnx.pb.h"
#include "tests/support/builders.h"
#include "tests/support/support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

// Loads and returns the rule of the Error thrown, or "" when the load succeeds.
std::string load_rule(const std::string& path, ErrorKind* kind = nullptr) {
  DiagSink sink;
  try {
    load_model(path, {}, sink);
    return "";
  } catch (const Error& e) {
    if (kind) *kind = e.kind();
    CHECK(e.file() == path);
    CHECK(!e.message().empty());
    CHECK(e.message().find('\n') == std::string::npos);
    return e.rule();
  }
}

}  // namespace

TEST_CASE("a missing file, a directory and an empty file are refused by kind") {
  TempDir dir;
  ErrorKind kind{};
  CHECK(load_rule((dir / "nope.onnx").string(), &kind) == "io.not-found");
  CHECK(kind == ErrorKind::io);
  CHECK(load_rule(dir.path().string(), &kind) == "io.is-directory");
  CHECK(kind == ErrorKind::io);
  write_file(dir / "empty.onnx", "");
  CHECK(load_rule((dir / "empty.onnx").string(), &kind) == "model.empty");
  CHECK(kind == ErrorKind::invalid);
}

TEST_CASE("a valid model loads and keeps its content") {
  TempDir dir;
  write_file(dir / "m.onnx", serialize(tiny_model()));
  DiagSink sink;
  Model m = load_model((dir / "m.onnx").string(), {}, sink);
  CHECK(sink.ok());
  CHECK(m.proto->graph().node_size() == 2);
  CHECK(m.proto->graph().initializer_size() == 2);
  CHECK(m.file_size == serialize(tiny_model()).size());
}

TEST_CASE("random bytes never crash the loader") {
  TempDir dir;
  std::mt19937 rng(1234);
  for (int round = 0; round < 300; ++round) {
    std::string bytes(static_cast<std::size_t>(1 + rng() % 512), '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    write_file(dir / "r.onnx", bytes);
    ErrorKind kind{};
    std::string rule = load_rule((dir / "r.onnx").string(), &kind);
    // Random bytes occasionally form valid protobuf; they never form a model.
    CHECK(rule != "");
    CHECK(kind == ErrorKind::invalid);
  }
}

TEST_CASE("every truncation of a model is either a smaller model or a clear error") {
  TempDir dir;
  const std::string full = serialize(tiny_model());
  int errors = 0;
  for (std::size_t n = 1; n < full.size(); ++n) {
    write_file(dir / "t.onnx", full.substr(0, n));
    ErrorKind kind = ErrorKind::internal;
    std::string rule = load_rule((dir / "t.onnx").string(), &kind);
    if (!rule.empty()) {
      ++errors;
      CHECK(kind == ErrorKind::invalid);
      CHECK((rule == "model.not-protobuf" || rule == "model.not-a-model"));
    }
  }
  // Most cut points fall inside a field.
  CHECK(errors > static_cast<int>(full.size()) / 2);
}

TEST_CASE("a truncated model names the field and the offset") {
  TempDir dir;
  const std::string full = serialize(tiny_model());
  // The graph takes up most of the file: cut in its middle.
  write_file(dir / "t.onnx", full.substr(0, full.size() / 2));
  DiagSink sink;
  try {
    load_model((dir / "t.onnx").string(), {}, sink);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.rule() == "model.not-protobuf");
    CHECK(e.message().find("truncated") != std::string::npos);
    CHECK(e.message().find("graph.") != std::string::npos);
    CHECK(e.message().find("at byte") != std::string::npos);
  }
}

TEST_CASE("a protobuf that is not a ModelProto is named as such") {
  TempDir dir;
  onnx::TensorProto t = float_tensor("x", {2}, {1.0f, 2.0f});
  std::string bytes;
  t.SerializeToString(&bytes);
  write_file(dir / "x.pb", bytes);
  CHECK(load_rule((dir / "x.pb").string()) == "model.not-a-model");
}

TEST_CASE("a file over 2 GiB is refused without reading it") {
  TempDir dir;
  const auto path = dir / "huge.onnx";
  int fd = ::open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, (3ll << 30)) == 0);  // sparse: no disk used
  ::close(fd);
  DiagSink sink;
  try {
    load_model(path.string(), {}, sink);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.rule() == "model.too-large");
    CHECK(e.message().find("external data") != std::string::npos);
  }
}

TEST_CASE("deeply nested subgraphs are refused by the parser's depth limit, not the stack") {
  // Build If nodes nested 200 deep by hand on the wire: ModelProto.graph(7) > node(1) >
  // attribute(5) > g(6) > node ...
  onnx::ModelProto m = tiny_model();
  onnx::GraphProto* g = m.mutable_graph();
  for (int i = 0; i < 200; ++i) {
    auto* n = g->add_node();
    n->set_op_type("If");
    auto* a = n->add_attribute();
    a->set_name("then_branch");
    a->set_type(onnx::AttributeProto::GRAPH);
    g = a->mutable_g();
  }
  std::string bytes;
  m.SerializeToString(&bytes);
  TempDir dir;
  write_file(dir / "deep.onnx", bytes);
  CHECK(load_rule((dir / "deep.onnx").string()) == "model.not-protobuf");
}

TEST_CASE("saving is atomic: a failed save leaves nothing behind") {
  TempDir dir;
  write_file(dir / "m.onnx", serialize(tiny_model()));
  DiagSink sink;
  Model m = load_model((dir / "m.onnx").string(), {}, sink);
  // A file where the output's folder should be: the folder cannot be made.
  write_file(dir / "in-the-way", "x");
  CHECK_THROWS_AS(save_model(m, (dir / "in-the-way" / "out.onnx").string()), Error);
  save_model(m, (dir / "out.onnx").string());
  Model again = load_model((dir / "out.onnx").string(), {}, sink);
  CHECK(again.proto->SerializeAsString() == m.proto->SerializeAsString());
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 3);  // m.onnx, in-the-way and out.onnx, no temporary files
  // A missing folder is made, as for every output.
  save_model(m, (dir / "new" / "dir" / "out.onnx").string());
  CHECK(std::filesystem::is_regular_file(dir / "new" / "dir" / "out.onnx"));
}

TEST_CASE("a model is read by its content when the extension does not say: .txt, none, .onnx") {
  TempDir dir;
  const std::string text = read_file(testdata_dir() / "models" / "sample.onnxtxt");
  DiagSink sink;
  Model reference = load_model((testdata_dir() / "models" / "sample.onnxtxt").string(), {}, sink);
  const std::string json = text::model_to_json(*reference.proto);
  for (const auto& file : std::vector<std::pair<std::string, std::string>>{
           {"m.txt", text}, {"m", text}, {"text.onnx", text}, {"j.model", json}}) {
    const std::string& name = file.first;  // not a structured binding: CHECK_MESSAGE captures it
    write_file(dir / name, file.second);
    DiagSink s;
    Model m = load_model((dir / name).string(), {}, s);
    CHECK_MESSAGE(s.ok(), name);
    CHECK(m.proto->SerializeAsString() == reference.proto->SerializeAsString());
  }
}
