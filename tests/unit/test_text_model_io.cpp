// SPDX-License-Identifier: Apache-2.0
// Text and JSON models through load_model/save_model (so every command reads them) and through
// `onnxtool convert`: formats by extension or option, stdin sniffing, the sidecar .npz and its
// safety rules, external data, atomic output, exit codes.
#include <doctest/doctest.h>
#include <unistd.h>

#include "core/diag/error.h"
#include "core/model/model.h"
#include "core/text/printer.h"
#include "onnx.pb.h"
#include "tests/support/builders.h"
#include "tests/support/support.h"
#include "tests/unit/test_text_support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

// tiny_model() with a weight large enough to go to the sidecar.
onnx::ModelProto model_with_big_weight() {
  onnx::ModelProto m = tiny_model();
  std::vector<float> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  *m.mutable_graph()->add_initializer() = float_tensor("big", {10, 100}, values);
  return m;
}

Model load(const std::string& path, LoadOptions options = {}) {
  DiagSink sink;
  Model m = load_model(path, options, sink);
  CHECK(sink.ok());
  return m;
}

Model wrap(const onnx::ModelProto& proto) {
  return model_from_proto(std::make_shared<onnx::ModelProto>(proto), "<memory>", ".");
}

std::string error_rule(const std::function<void()>& f, ErrorKind* kind = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (kind) *kind = e.kind();
    return e.rule();
  }
  return "";
}

}  // namespace

TEST_CASE("formats come from the extension, a name, or the first bytes") {
  CHECK(format_from_path("a/m.onnxtxt") == ModelFormat::text);
  CHECK(format_from_path("m.json") == ModelFormat::json);
  CHECK(format_from_path("m.onnx") == ModelFormat::binary);
  CHECK(format_from_path("m.pb") == ModelFormat::binary);
  CHECK(model_format_named("onnx") == ModelFormat::binary);
  CHECK(model_format_named("text") == ModelFormat::text);
  CHECK(model_format_named("json") == ModelFormat::json);
  CHECK(!model_format_named("xml"));
  CHECK(sniff_format(serialize(tiny_model())) == ModelFormat::binary);
  CHECK(sniff_format("  {\"irVersion\": \"8\"}") == ModelFormat::json);
  CHECK(sniff_format("<ir_version: 8>\ng () => () {}") == ModelFormat::text);
  CHECK(sniff_format("# comment\ng () => () {}") == ModelFormat::text);
  CHECK(text_sidecar_name("dir/model.onnxtxt") == "model.npz");
}

TEST_CASE("a text model with a sidecar saves and loads back exactly") {
  TempDir dir;
  const onnx::ModelProto original = model_with_big_weight();
  Model m = wrap(original);
  std::vector<std::string> written;
  SaveOptions so;
  so.written = &written;
  save_model(m, (dir / "m.onnxtxt").string(), so);
  REQUIRE(written.size() == 2);
  CHECK(written[0] == (dir / "m.npz").string());
  CHECK(written[1] == (dir / "m.onnxtxt").string());
  const std::string text = read_file(dir / "m.onnxtxt");
  CHECK(text.find("%npz: \"m.npz\"") != std::string::npos);
  CHECK(text.find("float[10,100] big = %raw {%npz \"big\"}") != std::string::npos);
  CHECK(text.find("float[4,3] W = %raw {0.0, 0.5,") != std::string::npos);  // small: inline
  const Model back = load((dir / "m.onnxtxt").string());
  CHECK(exactly_equal(original, *back.proto));
  CHECK(back.file_size == text.size());
}

TEST_CASE("JSON models save and load through the same calls") {
  TempDir dir;
  const onnx::ModelProto original = model_with_big_weight();
  Model m = wrap(original);
  save_model(m, (dir / "m.json").string());
  const std::string json = read_file(dir / "m.json");
  CHECK(json.find("\"irVersion\": \"8\"") != std::string::npos);
  CHECK(exactly_equal(original, *load((dir / "m.json").string()).proto));
  // An explicit format wins over the extension.
  Model again = wrap(original);
  SaveOptions so;
  so.format = ModelFormat::text;
  save_model(again, (dir / "m.txt").string(), so);
  LoadOptions lo;
  lo.format = ModelFormat::text;
  CHECK(exactly_equal(original, *load((dir / "m.txt").string(), lo).proto));
}

TEST_CASE("the sidecar is read like external data: inside the model's directory, no links") {
  TempDir dir;
  Model m = wrap(model_with_big_weight());
  save_model(m, (dir / "m.onnxtxt").string());
  const std::string text = read_file(dir / "m.onnxtxt");
  auto with_sidecar = [&](const std::string& name) {
    std::string t = text;
    t.replace(t.find("\"m.npz\""), 7, "\"" + name + "\"");
    write_file(dir / "x.onnxtxt", t);
    return (dir / "x.onnxtxt").string();
  };
  DiagSink sink;
  ErrorKind kind{};
  CHECK(error_rule([&] { load_model(with_sidecar("missing.npz"), {}, sink); }, &kind) ==
        "text.sidecar-missing");
  CHECK(kind == ErrorKind::io);
  CHECK(error_rule([&] { load_model(with_sidecar("/etc/m.npz"), {}, sink); }) == "text.sidecar");
  fs::create_directories(dir / "sub");
  fs::copy_file(dir / "m.npz", dir / "sub" / "m.npz");
  CHECK(error_rule([&] { load_model(with_sidecar("sub/../../m.npz"), {}, sink); }) ==
        "text.sidecar-missing");
  CHECK(load((dir / "sub" / "..") / "m.onnxtxt").proto->graph().initializer_size() == 3);
  fs::create_symlink(dir / "m.npz", dir / "link.npz");
  CHECK(error_rule([&] { load_model(with_sidecar("link.npz"), {}, sink); }) ==
        "text.sidecar-missing");
  // A member of the wrong shape is refused.
  std::string t = text;
  t.replace(t.find("float[10,100] big"), 17, "float[100,10] big");
  write_file(dir / "y.onnxtxt", t);
  CHECK(error_rule([&] { load_model((dir / "y.onnxtxt").string(), {}, sink); }) == "text.sidecar");
}

TEST_CASE("external data stays referenced in text; --data-dir finds it from elsewhere") {
  TempDir dir;
  onnx::ModelProto proto = model_with_big_weight();
  Model m = wrap(proto);
  SaveOptions so;
  so.external = SaveOptions::External::externalize;
  so.external_file = "weights.bin";
  so.size_threshold = 1000;
  save_model(m, (dir / "m.onnxtxt").string(), so);
  const std::string text = read_file(dir / "m.onnxtxt");
  CHECK(
      text.find("big = [\"location\": \"weights.bin\", \"offset\": \"0\", \"length\": \"4000\"]") !=
      std::string::npos);
  CHECK(!fs::exists(dir / "m.npz"));
  const Model back = load((dir / "m.onnxtxt").string());
  CHECK(exactly_equal(*m.proto, *back.proto));
  // Embedding brings the bytes back into the model.
  Model embedded = load((dir / "m.onnxtxt").string());
  SaveOptions emb;
  emb.external = SaveOptions::External::embed;
  save_model(embedded, (dir / "e.onnx").string(), emb);
  CHECK(exactly_equal(proto, *load((dir / "e.onnx").string()).proto));
}

TEST_CASE("the sample model is text and loads like any model") {
  const Model m = load((testdata_dir() / "models" / "sample.onnxtxt").string());
  CHECK(m.proto->graph().name() == "tiny_cnn");
  CHECK(m.proto->graph().initializer_size() == 4);
  CHECK(m.proto->graph().node_size() == 6);
  CHECK(!fs::exists(testdata_dir() / "models" / "sample.onnx"));
}

// ---- the command line -----------------------------------------------------------------------

TEST_CASE("convert: binary -> text -> JSON -> binary through files is exact") {
  TempDir dir;
  const onnx::ModelProto original = model_with_big_weight();
  write_file(dir / "m.onnx", serialize(original));
  auto r = run_onnxtool({"convert", "m.onnx", "m.onnxtxt"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out == "wrote m.onnxtxt (text) and m.npz\n");
  CHECK(fs::exists(dir / "m.npz"));
  r = run_onnxtool({"convert", "m.onnxtxt", "m.json"}, "", dir.path());
  CHECK(r.exit_code == 0);
  r = run_onnxtool({"convert", "m.json", "back.onnx"}, "", dir.path());
  CHECK(r.exit_code == 0);
  onnx::ModelProto back;
  REQUIRE(back.ParseFromString(read_file(dir / "back.onnx")));
  CHECK(exactly_equal(original, back));
  r = run_onnxtool({"info", "m.onnxtxt"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("initializers: 3 tensors") != std::string::npos);
}

TEST_CASE("convert: stdin and stdout, with the format sniffed or given") {
  const std::string binary = serialize(tiny_model());
  auto r = run_onnxtool({"convert", "-", "-"}, binary);
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("<\n  ir_version: 8,", 0) == 0);  // stdout defaults to text
  const std::string text = r.out;
  r = run_onnxtool({"convert", "-", "-", "--to", "onnx"}, text);
  CHECK(r.exit_code == 0);
  onnx::ModelProto back;
  REQUIRE(back.ParseFromString(r.out));
  CHECK(exactly_equal(tiny_model(), back));
  r = run_onnxtool({"convert", "-", "-", "--to", "json"}, binary);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"producerName\"") != std::string::npos);
  r = run_onnxtool({"convert", "--from", "json", "-", "-"}, r.out);
  CHECK(r.out == text);
  r = run_onnxtool({"info", "-"}, text);
  CHECK(r.exit_code == 0);
}

TEST_CASE("convert: external data out and back in") {
  TempDir dir;
  write_file(dir / "m.onnx", serialize(model_with_big_weight()));
  auto r = run_onnxtool(
      {"convert", "m.onnx", "x.onnx", "--external-data", "x.bin", "--size-threshold", "100"}, "",
      dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out == "wrote x.onnx (onnx) and x.bin\n");
  CHECK(fs::file_size(dir / "x.bin") >= 4000);
  r = run_onnxtool({"convert", "x.onnx", "y.onnx", "--embed-external-data"}, "", dir.path());
  CHECK(r.exit_code == 0);
  onnx::ModelProto original, back;
  original.ParseFromString(read_file(dir / "m.onnx"));
  REQUIRE(back.ParseFromString(read_file(dir / "y.onnx")));
  CHECK(exactly_equal(original, back));
}

TEST_CASE("convert: exit codes, and nothing written when it fails") {
  TempDir dir;
  write_file(dir / "bad.onnxtxt", "g (float x) => (float y) {\n  y = Neg(x\n}\n");
  write_file(dir / "out.onnx", "old");
  auto r = run_onnxtool({"convert", "bad.onnxtxt", "out.onnx"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(r.err ==
        "onnxtool: error: bad.onnxtxt: 3:1: expected ')' to close the node's input list, found "
        "'}' [text.syntax]\n");
  CHECK(read_file(dir / "out.onnx") == "old");
  r = run_onnxtool({"convert", "missing.onnx", "out.onnx"}, "", dir.path());
  CHECK(r.exit_code == 3);
  write_file(dir / "m.onnx", serialize(tiny_model()));
  r = run_onnxtool({"convert", "m.onnx", "out.xyz"}, "", dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cannot tell the output format") != std::string::npos);
  r = run_onnxtool({"convert", "m.onnx", "o.onnx", "--size-threshold", "5"}, "", dir.path());
  CHECK(r.exit_code == 2);
  r = run_onnxtool({"convert", "m.onnx", "o.onnx", "--embed-external-data", "--external-data", "d"},
                   "", dir.path());
  CHECK(r.exit_code == 2);
  r = run_onnxtool({"convert", "m.onnx", "o.onnx", "--to", "xml"}, "", dir.path());
  CHECK(r.exit_code == 2);
  CHECK(!fs::exists(dir / "o.onnx"));
  r = run_onnxtool({"--json", "convert", "m.onnx", "o.onnxtxt"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"format\": \"text\"") != std::string::npos);
}
