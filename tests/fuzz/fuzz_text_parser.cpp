// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the textual syntax. Any input must either fail with an onnxtool Error or
// give a model; a model must print and parse back to the very same message (compared as
// deterministic bytes, so NaN payloads count). Anything else (a crash, a sanitizer report, an
// exception of another type, a round trip that changes the model) stops the fuzzer.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/diag/error.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "onnx.pb.h"

namespace {

std::string bytes_of(const onnx::ModelProto& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  onnx::ModelProto model;
  try {
    onnxtool::text::parse_model_text(text, model, {"fuzz.onnxtxt", {}});
  } catch (const onnxtool::Error&) {
    return 0;  // a clean refusal is the expected outcome for most inputs
  }
  const std::string printed = onnxtool::text::print_model_text(model).text;
  onnx::ModelProto back;
  try {
    onnxtool::text::parse_model_text(printed, back, {"printed.onnxtxt", {}});
  } catch (const onnxtool::Error& e) {
    std::fprintf(stderr, "printed text does not parse: %s\n%s\n", e.what(), printed.c_str());
    __builtin_trap();
  }
  if (bytes_of(model) != bytes_of(back)) {
    std::fprintf(stderr, "print/parse changed the model:\n%s\n", printed.c_str());
    __builtin_trap();
  }
  return 0;
}
