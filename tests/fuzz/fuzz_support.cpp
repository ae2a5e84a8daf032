// SPDX-License-Identifier: Apache-2.0
#include "tests/fuzz/fuzz_support.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "core/diag/error.h"
#include "core/registry/registry.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "onnx.pb.h"
#include "ops/register_all.h"

namespace onnxtool::fuzz {
namespace {

const std::filesystem::path& empty_data_dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "onnxtool-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) fail("cannot make a temporary directory", pattern);
    return std::filesystem::path(pattern);
  }();
  return dir;
}

}  // namespace

void init() {
  Registry::install_standard(register_standard_ops);
  spdlog::set_level(spdlog::level::err);
  (void)empty_data_dir();
}

std::optional<Model> load_binary(const uint8_t* data, std::size_t size, DiagSink& sink) {
  LoadOptions options;
  options.format = ModelFormat::binary;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    return parse_model(bytes, "fuzz.onnx", empty_data_dir(), options, sink);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string deterministic_bytes(const onnx::ModelProto& model) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    model.SerializeToCodedStream(&coded);
  }
  return out;
}

void expect_round_trip(const onnx::ModelProto& model, const std::string& format,
                       const std::function<std::string(const onnx::ModelProto&)>& write,
                       const std::function<void(const std::string&, onnx::ModelProto&)>& read,
                       const std::function<void(onnx::ModelProto&)>& normalize) {
  const std::string written = write(model);
  onnx::ModelProto back;
  try {
    read(written, back);
  } catch (const Error& e) {
    fail("the written " + format + " does not read back: " + e.what(), written);
  }
  onnx::ModelProto want = model;
  if (normalize) {
    normalize(want);
    normalize(back);
  }
  if (deterministic_bytes(back) != deterministic_bytes(want))
    fail("a round trip through " + format + " changed the model", written);
}

void expect_text_round_trip(const onnx::ModelProto& model) {
  expect_round_trip(
      model, "text", [](const onnx::ModelProto& m) { return text::print_model_text(m).text; },
      [](const std::string& t, onnx::ModelProto& back) {
        text::parse_model_text(t, back, {"printed.onnxtxt", {}});
      });
}

void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "onnxtool fuzz: %s\n%s\n", what.c_str(), detail.c_str());
  __builtin_trap();
}

}  // namespace onnxtool::fuzz
