// SPDX-License-Identifier: Apache-2.0
// The IR version a converted model is written with: the one asked for (refused, per value,
// where the model uses what that version lacks: float8 before IR 9, int4 before 10, ...), else
// what its opsets need.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"

namespace onnx {
class ModelProto;
}

namespace onnxtool::convert {

// The lowest IR version the model's standard opset imports need (Versioning.md).
int64_t ir_for_opsets(const onnx::ModelProto& model);

// The checker's errors for the model (those whose rule starts with rule_prefix), stamped with
// `file`.
std::vector<Diagnostic> check_errors(const onnx::ModelProto& model, const std::string& file,
                                     const std::string& rule_prefix = "");

// Restamps model.ir_version: `requested` when given (the errors say why it cannot hold the
// model: a feature it lacks, or opsets newer than it); else, when an opset went down, the
// lowest version from what the opsets need up to the original that the contents allow; else at
// least what the opsets need. Empty when the stamp holds.
std::vector<Diagnostic> restamp_ir(onnx::ModelProto& model, std::optional<int64_t> requested,
                                   bool went_down, const std::string& file);

}  // namespace onnxtool::convert
