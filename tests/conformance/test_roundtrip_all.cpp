// SPDX-License-Identifier: Apache-2.0
// Every model of the ONNX backend suite (../shared/onnx-backend-tests) goes binary -> text
// (+ sidecar) -> binary and binary -> JSON -> binary, and must come back equal field for field:
// MessageDifferencer (storage forms, presence of empty fields, order and unknown fields
// included) with floats compared by bits, and the same bytes when serialized deterministically.
#include <doctest/doctest.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "core/diag/error.h"
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

// Text with a sidecar held in memory: print, pack the sidecar as an .npz, parse back.
onnx::ModelProto via_text(const onnx::ModelProto& m, int64_t inline_limit) {
  text::TextPrintOptions po;
  po.inline_limit = inline_limit;
  po.sidecar_name = "model.npz";
  const text::PrintedText printed = text::print_model_text(m, po);
  const std::string npz = serialize_npz(printed.sidecar, false);
  text::TextParseOptions opt;
  opt.file = "model.onnxtxt";
  opt.load_sidecar = [&](const std::string& name) {
    CHECK(name == "model.npz");
    return parse_npz(npz, name);
  };
  onnx::ModelProto back;
  text::parse_model_text(printed.text, back, opt);
  return back;
}

onnx::ModelProto via_json(const onnx::ModelProto& m) {
  onnx::ModelProto back;
  text::model_from_json(text::model_to_json(m), "model.json", back);
  return back;
}

struct Tally {
  int equal = 0;
  std::vector<std::string> failures;
  void check(const onnx::ModelProto& a, const onnx::ModelProto& b, const std::string& what) {
    std::string diff;
    if (!exactly_equal(a, b, &diff)) {
      failures.push_back(what + ": " + diff.substr(0, 400));
    } else if (deterministic_bytes(a) != deterministic_bytes(b)) {
      failures.push_back(what + ": equal messages, different bytes");
    } else {
      ++equal;
    }
  }
};

}  // namespace

TEST_CASE("every backend model round-trips through text and JSON exactly") {
  const fs::path shared = require_shared_dir("binary/text/JSON round trip of the backend models");
  const auto models = backend_models(shared);
  REQUIRE(models.size() > 1500);
  Tally sidecar, inline_all, json;
  double text_ms = 0, json_ms = 0;
  for (const auto& path : models) {
    onnx::ModelProto m;
    REQUIRE_MESSAGE(m.ParseFromString(read_file(path)), path.string());
    const std::string name = fs::relative(path, shared).string();
    try {
      auto t0 = std::chrono::steady_clock::now();
      sidecar.check(m, via_text(m, 16), name + " (text + sidecar)");
      inline_all.check(m, via_text(m, INT64_MAX), name + " (text, all inline)");
      text_ms += ms_since(t0);
      t0 = std::chrono::steady_clock::now();
      json.check(m, via_json(m), name + " (JSON)");
      json_ms += ms_since(t0);
    } catch (const Error& e) {
      sidecar.failures.push_back(name + ": " + e.what());
    }
  }
  std::cout << "round trip of " << models.size() << " backend models: text+sidecar "
            << sidecar.equal << " equal, text inline " << inline_all.equal << " equal, JSON "
            << json.equal << " equal (text " << static_cast<int>(text_ms) << " ms, JSON "
            << static_cast<int>(json_ms) << " ms)\n";
  for (const auto* t : {&sidecar, &inline_all, &json})
    for (std::size_t i = 0; i < t->failures.size() && i < 10; ++i) MESSAGE(t->failures[i]);
  CHECK(sidecar.failures.empty());
  CHECK(inline_all.failures.empty());
  CHECK(json.failures.empty());
  CHECK(sidecar.equal == static_cast<int>(models.size()));
  CHECK(json.equal == static_cast<int>(models.size()));
}

TEST_CASE("the largest backend models convert through files quickly and exactly") {
  const fs::path shared = require_shared_dir("conversion of the largest backend models");
  auto models = backend_models(shared);
  std::sort(models.begin(), models.end(), [](const fs::path& a, const fs::path& b) {
    return fs::file_size(a) > fs::file_size(b);
  });
  models.resize(std::min<std::size_t>(models.size(), 5));
  TempDir dir;
  for (const auto& path : models) {
    CAPTURE(path.string());
    DiagSink sink;
    Model m = load_model(path.string(), {}, sink);
    const onnx::ModelProto original = *m.proto;
    for (const char* ext : {".onnxtxt", ".json"}) {
      const std::string out = (dir / (path.stem().string() + ext)).string();
      auto t0 = std::chrono::steady_clock::now();
      Model copy = m;
      copy.proto = std::make_shared<onnx::ModelProto>(original);
      save_model(copy, out);
      const double save_ms = ms_since(t0);
      t0 = std::chrono::steady_clock::now();
      Model back = load_model(out, {}, sink);
      const double load_ms = ms_since(t0);
      CHECK(exactly_equal(original, *back.proto));
      std::cout << fs::relative(path, shared).string() << " (" << fs::file_size(path) << " B) -> "
                << ext << " " << fs::file_size(out) << " B: write " << static_cast<int>(save_ms)
                << " ms, read " << static_cast<int>(load_ms) << " ms\n";
    }
  }
}
