// SPDX-License-Identifier: Apache-2.0
// External data: loading from several files at various offsets, and refusing every hostile
// layout of ExternalDataSecurity.md with its own rule, without ever opening a file outside the
// model's directory.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "core/diag/error.h"
#include "core/model/model.h"
#include "core/model/summary.h"
#include "onnx.pb.h"
#include "tests/support/builders.h"
#include "tests/support/support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

const std::vector<float> kW = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
const std::vector<float> kB = {-1.5f, 2.25f, 1e-3f};

// dir/
//   secret.bin            the sentinel: must never be opened
//   m/model.onnx          W in a.bin at offset 4096, B in sub/b.bin at offset 6 (unaligned)
//   m/a.bin, m/sub/b.bin
struct Fixture {
  TempDir dir;
  fs::path mdir = dir / "m";
  onnx::ModelProto model = tiny_model();

  Fixture() {
    fs::create_directories(mdir / "sub");
    write_file(dir / "secret.bin", std::string(4096 * 4, 'S'));
    std::string a(4096, '\0');
    a.append(reinterpret_cast<const char*>(kW.data()), kW.size() * 4);
    a.append(100, '\0');
    write_file(mdir / "a.bin", a);
    std::string b(6, 'x');
    b.append(reinterpret_cast<const char*>(kB.data()), kB.size() * 4);
    write_file(mdir / "sub" / "b.bin", b);
    make_external(*model.mutable_graph()->mutable_initializer(0), "a.bin", 4096, 48);
    make_external(*model.mutable_graph()->mutable_initializer(1), "sub/b.bin", 6, 12);
  }

  onnx::TensorProto& w() { return *model.mutable_graph()->mutable_initializer(0); }

  std::string save(const std::string& name = "model.onnx") {
    write_file(mdir / name, serialize(model));
    return (mdir / name).string();
  }
};

std::vector<std::string> error_rules(const std::string& path) {
  DiagSink sink;
  load_model(path, {}, sink);
  std::vector<std::string> rules;
  for (const auto& d : sink.diagnostics())
    if (d.severity == Severity::error) rules.push_back(d.rule);
  return rules;
}

void set_key(onnx::TensorProto& t, const std::string& key, const std::string& value) {
  for (auto& kv : *t.mutable_external_data())
    if (kv.key() == key) {
      kv.set_value(value);
      return;
    }
  auto* kv = t.add_external_data();
  kv->set_key(key);
  kv->set_value(value);
}

}  // namespace

TEST_CASE("tensors in two external files at various offsets load and are reported") {
  Fixture f;
  const std::string path = f.save();
  DiagSink sink;
  Model m = load_model(path, {}, sink);
  REQUIRE(sink.ok());
  Tensor w = m.tensor(m.proto->graph().initializer(0));
  Tensor b = m.tensor(m.proto->graph().initializer(1));
  REQUIRE(w.numel() == 12);
  REQUIRE(b.numel() == 3);
  CHECK(std::memcmp(w.data<float>(), kW.data(), 48) == 0);
  CHECK(std::memcmp(b.data<float>(), kB.data(), 12) == 0);
  CHECK(w.is_view());  // mapped in place, not copied

  ModelSummary s = summarize(m);
  CHECK(s.external_tensors == 2);
  CHECK(s.external_bytes == 60);
  REQUIRE(s.external_files.size() == 2);
  CHECK(s.external_files[0].location == "a.bin");
  CHECK(s.external_files[0].file_size == 4096 + 48 + 100);
  CHECK(s.external_files[1].location == "sub/b.bin");
}

TEST_CASE("each hostile layout is refused with its own rule") {
  struct Case {
    const char* what;
    std::function<void(Fixture&)> setup;
    const char* rule;
  };
  const std::vector<Case> cases = {
      {"absolute path",
       [](Fixture& f) { set_key(f.w(), "location", (f.dir / "secret.bin").string()); },
       "external-data.absolute-path"},
      {"dot-dot", [](Fixture& f) { set_key(f.w(), "location", "../secret.bin"); },
       "external-data.escapes-model-dir"},
      {"dot-dot inside", [](Fixture& f) { set_key(f.w(), "location", "sub/../../secret.bin"); },
       "external-data.escapes-model-dir"},
      {"backslash dot-dot", [](Fixture& f) { set_key(f.w(), "location", "..\\secret.bin"); },
       "external-data.escapes-model-dir"},
      {"symlink file",
       [](Fixture& f) {
         fs::create_symlink(f.dir / "secret.bin", f.mdir / "link.bin");
         set_key(f.w(), "location", "link.bin");
       },
       "external-data.symlink"},
      {"symlink directory",
       [](Fixture& f) {
         fs::create_directory_symlink(f.dir.path(), f.mdir / "up");
         set_key(f.w(), "location", "up/secret.bin");
       },
       "external-data.symlink"},
      {"hardlink",
       [](Fixture& f) {
         fs::create_hard_link(f.dir / "secret.bin", f.mdir / "hard.bin");
         set_key(f.w(), "location", "hard.bin");
       },
       "external-data.hardlink"},
      {"directory", [](Fixture& f) { set_key(f.w(), "location", "sub"); },
       "external-data.is-directory"},
      {"fifo",
       [](Fixture& f) {
         REQUIRE(::mkfifo((f.mdir / "pipe").c_str(), 0644) == 0);
         set_key(f.w(), "location", "pipe");
       },
       "external-data.not-a-file"},
      {"missing file", [](Fixture& f) { set_key(f.w(), "location", "nope.bin"); },
       "external-data.missing-file"},
      {"offset past end", [](Fixture& f) { set_key(f.w(), "offset", "999999"); },
       "external-data.offset-past-end"},
      {"range past end", [](Fixture& f) { set_key(f.w(), "length", "99999"); },
       "external-data.range-past-end"},
      {"length mismatch", [](Fixture& f) { set_key(f.w(), "length", "40"); },
       "external-data.length-mismatch"},
      {"no length, rest of file mismatch",
       [](Fixture& f) {
         f.w().clear_external_data();
         set_key(f.w(), "location", "a.bin");
         set_key(f.w(), "offset", "4096");
       },
       "external-data.length-mismatch"},
      {"negative offset", [](Fixture& f) { set_key(f.w(), "offset", "-1"); },
       "external-data.bad-offset"},
      {"non-numeric length", [](Fixture& f) { set_key(f.w(), "length", "12abc"); },
       "external-data.bad-length"},
      {"huge length", [](Fixture& f) { set_key(f.w(), "length", "18446744073709551615"); },
       "external-data.bad-length"},
      {"duplicate key",
       [](Fixture& f) {
         auto* kv = f.w().add_external_data();
         kv->set_key("location");
         kv->set_value("a.bin");
       },
       "external-data.duplicate-key"},
      {"no location",
       [](Fixture& f) {
         f.w().clear_external_data();
         set_key(f.w(), "offset", "0");
       },
       "external-data.missing-location"},
      {"bad checksum", [](Fixture& f) { set_key(f.w(), "checksum", "xyz"); },
       "external-data.bad-checksum"},
      {"inline data too", [](Fixture& f) { f.w().set_raw_data(std::string(48, '\0')); },
       "external-data.inline-data"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    Fixture f;
    c.setup(f);
    auto rules = error_rules(f.save());
    REQUIRE(rules.size() == 1);
    CHECK(rules[0] == c.rule);
  }
}

TEST_CASE("a sentinel file outside the model's directory is never opened") {
  Fixture f;
  // Every way of pointing at the sentinel, all in one model.
  fs::create_symlink(f.dir / "secret.bin", f.mdir / "link.bin");
  fs::create_directory_symlink(f.dir.path(), f.mdir / "up");
  fs::create_hard_link(f.dir / "secret.bin", f.mdir / "hard.bin");
  const std::vector<std::string> locations = {(f.dir / "secret.bin").string(),
                                              "../secret.bin",
                                              "sub/../../secret.bin",
                                              "link.bin",
                                              "up/secret.bin",
                                              "hard.bin",
                                              "..\\secret.bin"};
  auto* g = f.model.mutable_graph();
  for (std::size_t i = 0; i < locations.size(); ++i) {
    auto* t = g->add_initializer();
    *t = float_tensor("s" + std::to_string(i), {4}, {0, 0, 0, 0});
    make_external(*t, locations[i], 0, 16);
  }
  const std::string path = f.save();

  int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  REQUIRE(in >= 0);
  REQUIRE(inotify_add_watch(in, (f.dir / "secret.bin").c_str(),
                            IN_OPEN | IN_ACCESS | IN_CLOSE_NOWRITE) >= 0);

  DiagSink sink;
  Model m = load_model(path, {}, sink);
  CHECK(sink.errors() == locations.size());
  for (int i = 2; i < g->initializer_size(); ++i)
    CHECK_THROWS_AS(m.tensor(m.proto->graph().initializer(i)), Error);
  CommandResult r = run_onnxtool({"info", path});
  CHECK(r.exit_code == 1);
  r = run_onnxtool({"info", "--json", path});
  CHECK(r.exit_code == 1);

  char buf[4096];
  const ssize_t n = ::read(in, buf, sizeof buf);
  ::close(in);
  CHECK(n < 0);  // no event at all: EAGAIN
}

TEST_CASE("--data-dir resolves external data elsewhere") {
  Fixture f;
  f.save();
  const fs::path elsewhere = f.dir / "models";
  fs::create_directory(elsewhere);
  fs::copy_file(f.mdir / "model.onnx", elsewhere / "model.onnx");
  CHECK(error_rules((elsewhere / "model.onnx").string()) ==
        std::vector<std::string>{"external-data.missing-file", "external-data.missing-file"});
  DiagSink sink;
  LoadOptions lo;
  lo.data_dir = f.mdir;
  load_model((elsewhere / "model.onnx").string(), lo, sink);
  CHECK(sink.ok());
}

TEST_CASE("initializers move into one 4 KiB-aligned side file and back") {
  TempDir dir;
  onnx::ModelProto proto = tiny_model();
  write_file(dir / "m.onnx", serialize(proto));
  DiagSink sink;
  Model m = load_model((dir / "m.onnx").string(), {}, sink);
  SaveOptions out;
  out.external = SaveOptions::External::externalize;
  out.size_threshold = 0;
  // Told of each tensor as it moves (convert's progress on a terminal).
  std::vector<std::pair<std::size_t, std::size_t>> told;
  out.on_tensor = [&](std::size_t i, std::size_t n, const std::string&) {
    told.emplace_back(i, n);
  };
  save_model(m, (dir / "ext.onnx").string(), out);
  CHECK(fs::exists(dir / "ext.onnx.data"));
  const auto moved = static_cast<std::size_t>(proto.graph().initializer_size());
  REQUIRE(told.size() == moved);
  CHECK(told.front() == std::pair<std::size_t, std::size_t>{0, moved});
  CHECK(told.back() == std::pair<std::size_t, std::size_t>{moved - 1, moved});

  Model ext = load_model((dir / "ext.onnx").string(), {}, sink);
  REQUIRE(sink.ok());
  for (const auto& t : ext.proto->graph().initializer()) {
    REQUIRE(t.data_location() == onnx::TensorProto::EXTERNAL);
    for (const auto& kv : t.external_data())
      if (kv.key() == "offset") CHECK(std::stoll(kv.value()) % 4096 == 0);
    CHECK(!t.has_raw_data());
  }
  SaveOptions embed;
  embed.external = SaveOptions::External::embed;
  save_model(ext, (dir / "back.onnx").string(), embed);
  Model back = load_model((dir / "back.onnx").string(), {}, sink);
  CHECK(back.proto->SerializeAsString() == proto.SerializeAsString());
}

TEST_CASE("saving into another directory carries the external data along") {
  Fixture f;
  const std::string path = f.save();
  DiagSink sink;
  Model m = load_model(path, {}, sink);
  fs::create_directory(f.dir / "copy");
  save_model(m, (f.dir / "copy" / "model.onnx").string());
  Model c = load_model((f.dir / "copy" / "model.onnx").string(), {}, sink);
  REQUIRE(sink.ok());
  Tensor w = c.tensor(c.proto->graph().initializer(0));
  CHECK(std::memcmp(w.data<float>(), kW.data(), 48) == 0);
}

TEST_CASE("embedding past 2 GiB is refused before anything is written") {
  TempDir dir;
  onnx::ModelProto proto = tiny_model();
  auto* big = proto.mutable_graph()->add_initializer();
  big->set_name("big");
  big->set_data_type(onnx::TensorProto::FLOAT);
  big->add_dims(600'000'000);  // 2.4 GB of float
  make_external(*big, "big.bin", 0, 2'400'000'000);
  int fd = ::open((dir / "big.bin").c_str(), O_CREAT | O_WRONLY, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, 2'400'000'000) == 0);
  ::close(fd);
  write_file(dir / "m.onnx", serialize(proto));
  DiagSink sink;
  Model m = load_model((dir / "m.onnx").string(), {}, sink);
  REQUIRE(sink.ok());
  SaveOptions embed;
  embed.external = SaveOptions::External::embed;
  try {
    save_model(m, (dir / "out.onnx").string(), embed);
    FAIL("expected a refusal");
  } catch (const Error& e) {
    CHECK(e.rule() == "model.too-large");
  }
  CHECK(!fs::exists(dir / "out.onnx"));
}

TEST_CASE("checksums are verified only on request, and mismatches are reported") {
  Fixture f;
  set_key(f.w(), "checksum", std::string(40, 'a'));
  const std::string path = f.save();
  DiagSink sink;
  Model m = load_model(path, {}, sink);
  CHECK(sink.ok());
  verify_external_checksums(m, sink);
  REQUIRE(sink.errors() == 1);
  CHECK(sink.diagnostics()[0].rule == "external-data.checksum-mismatch");
}

TEST_CASE("info reads only the model file, never the external data") {
  Fixture f;
  const std::string path = f.save();
  int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  REQUIRE(in >= 0);
  REQUIRE(inotify_add_watch(in, (f.mdir / "a.bin").c_str(), IN_OPEN | IN_ACCESS) >= 0);
  REQUIRE(inotify_add_watch(in, (f.mdir / "sub" / "b.bin").c_str(), IN_OPEN | IN_ACCESS) >= 0);
  CommandResult r = run_onnxtool({"info", path});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("a.bin") != std::string::npos);
  CHECK(r.out.find("sub/b.bin") != std::string::npos);
  char buf[4096];
  CHECK(::read(in, buf, sizeof buf) < 0);  // no open, no read
  ::close(in);
}

TEST_CASE("info reads a model from stdin") {
  CommandResult r = run_onnxtool({"info", "-"}, serialize(tiny_model()));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("<stdin>") != std::string::npos);
  CHECK(r.out.find("MatMul") != std::string::npos);
}

TEST_CASE("a missing data file is one error, a note for the other tensors, and exit code 3") {
  Fixture f;
  for (auto& t : *f.model.mutable_graph()->mutable_initializer()) t.clear_external_data();
  make_external(f.w(), "gone.bin", 0, 48);
  make_external(*f.model.mutable_graph()->mutable_initializer(1), "gone.bin", 64, 12);
  const std::string path = f.save();
  DiagSink sink;
  load_model(path, {}, sink);
  CHECK(sink.errors() == 1);
  CHECK(sink.io_failed());
  CHECK(sink.exit_code() == 3);
  REQUIRE(sink.diagnostics().size() == 2);
  CHECK(sink.diagnostics()[1].severity == Severity::note);
  CHECK(sink.diagnostics()[1].message.find("1 more tensor in \"gone.bin\"") != std::string::npos);
  for (const char* cmd : {"check", "info"}) CHECK(run_onnxtool({cmd, path}).exit_code == 3);
  CHECK(run_onnxtool({"run", path, "--random-inputs"}).exit_code == 3);
  CHECK(run_onnxtool({"check", f.save("again.onnx"), "--data-dir", (f.dir / "nodir").string()})
            .exit_code == 3);
}

TEST_CASE("--external-data outside the output's folder is refused before anything is written") {
  TempDir dir;
  write_file(dir / "m.onnx", serialize(tiny_model()));
  DiagSink sink;
  Model m = load_model((dir / "m.onnx").string(), {}, sink);
  fs::create_directory(dir / "out");
  for (const std::string& bad : {(dir / "w.data").string(), std::string("../w.data"),
                                 std::string("sub/../../w.data"), std::string("")}) {
    SaveOptions so;
    so.external = SaveOptions::External::externalize;
    so.external_file = bad.empty() ? "sub/" : bad;
    so.size_threshold = 0;
    try {
      save_model(m, (dir / "out" / "m.onnx").string(), so);
      FAIL("expected a refusal for " << bad);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(e.rule().rfind("external-data.", 0) == 0);
    }
  }
  CHECK(fs::is_empty(dir / "out"));
  CHECK(!fs::exists(dir / "w.data"));
  // Inside the folder, a subfolder is fine: made, and the model checks clean.
  SaveOptions ok;
  ok.external = SaveOptions::External::externalize;
  ok.external_file = "weights/w.data";
  ok.size_threshold = 0;
  save_model(m, (dir / "out" / "m.onnx").string(), ok);
  CHECK(fs::is_regular_file(dir / "out" / "weights" / "w.data"));
  CHECK(run_onnxtool({"check", (dir / "out" / "m.onnx").string()}).exit_code == 0);
}
