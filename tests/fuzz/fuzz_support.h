// SPDX-License-Identifier: Apache-2.0
// What the libFuzzer targets share: the program's set-up (standard operators, quiet log), a
// model loaded from fuzz bytes as `onnxtool` loads a binary file, and one way to stop the fuzzer
// on a broken property. A target's contract: any input either gives a result or is refused with
// an onnxtool Error; a crash, a sanitizer report, an exception of another type or a broken
// property stops the fuzzer and leaves the input behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/diag/diagnostic.h"
#include "core/model/model.h"

namespace onnxtool::fuzz {

// Installs the standard operators and silences the log below errors; call it from
// LLVMFuzzerInitialize.
void init();

// The bytes as a binary model, external data resolved in an empty directory of its own (so a
// mutated location can find nothing to read); nullopt when the loader refuses them.
std::optional<Model> load_binary(const uint8_t* data, std::size_t size, DiagSink& sink);

// Deterministic serialization: equal messages give equal bytes (floats compared by bits).
std::string deterministic_bytes(const onnx::ModelProto& model);

// Writes the model with `write` and reads the result back with `read`: the bytes must be the same,
// after `normalize` (when given) has evened out on both sides what the format cannot keep. An
// Error from `write` propagates (a refusal, which the caller may allow); an Error from `read` on
// what was written, or a changed model, stops the fuzzer.
void expect_round_trip(const onnx::ModelProto& model, const std::string& format,
                       const std::function<std::string(const onnx::ModelProto&)>& write,
                       const std::function<void(const std::string&, onnx::ModelProto&)>& read,
                       const std::function<void(onnx::ModelProto&)>& normalize = nullptr);

// expect_round_trip through the textual syntax, everything inline (the printer's Error
// propagates).
void expect_text_round_trip(const onnx::ModelProto& model);

// Prints what broke, and the detail, then traps so that libFuzzer keeps the input.
[[noreturn]] void fail(const std::string& what, const std::string& detail = "");

}  // namespace onnxtool::fuzz
