// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for what `check --full` and `info` do with a binary model: load it (external
// references validated, none read), check it, infer its shapes when the check is clean, render
// the diagnostics and summarise the model. Seeded with the backend models (scripts/fuzz.sh).
#include <cstdint>

#include "core/check/check.h"
#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/model/summary.h"
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
  if (!model) return 0;
  try {
    check_model(*model->proto, {}, sink);
    if (sink.ok()) infer_model(*model, {}, sink);
    (void)summarize(*model);
  } catch (const Error&) {
    // a refusal with a one-line error is allowed; anything else escapes and stops the fuzzer
  }
  (void)render_text(sink.diagnostics(), {});
  return 0;
}
