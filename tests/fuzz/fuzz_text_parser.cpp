// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the textual syntax. Any input must either fail with an onnxtool Error or
// give a model; a model must print and parse back to the very same message (compared as
// deterministic bytes, so NaN payloads count). Anything else (a crash, a sanitizer report, an
// exception of another type, a round trip that changes the model) stops the fuzzer.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/diag/error.h"
#include "core/text/parser.h"
#include "onnx.pb.h"
#include "tests/fuzz/fuzz_support.h"

using namespace onnxtool;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  onnx::ModelProto model;
  try {
    text::parse_model_text(text, model, {"fuzz.onnxtxt", {}});
  } catch (const Error&) {
    return 0;  // a clean refusal is the expected outcome for most inputs
  }
  fuzz::expect_text_round_trip(model);
  return 0;
}
