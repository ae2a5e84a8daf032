// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for shape inference as `shape-infer` runs it: on a model that loaded but was
// never checked, so inference meets every malformed graph the loader lets through. The inferred
// types are then written into the model, which must print as text and infer again.
#include <cstdint>

#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/text/printer.h"
#include "onnx.pb.h"
#include "tests/fuzz/fuzz_support.h"

using namespace onnxtool;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  DiagSink sink;
  sink.set_file("fuzz.onnx");
  const std::optional<Model> model = fuzz::load_binary(data, size, sink);
  if (!model || !sink.ok()) return 0;
  try {
    InferOptions strict;
    strict.strict = true;
    (void)infer_model(*model, strict, sink);
    const InferResult result = infer_model(*model, {}, sink);
    annotate_model(*model->proto, result);
    (void)text::print_model_text(*model->proto);
    DiagSink again;
    (void)infer_model(*model, {}, again);
  } catch (const Error&) {
    // a refusal with a one-line error is allowed; anything else escapes and stops the fuzzer
  }
  return 0;
}
