// SPDX-License-Identifier: Apache-2.0
// The checker: every MUST of IR.md and every rule of ONNX's own checker, reported as
// diagnostics (rules in core/check/rules.h) instead of stopping at the first problem.
//
// Passes, in order: model (ir_version, opset_import, fields vs IR version, metadata), graphs
// (names, SSA, topological order, scopes, initializers, value_info, outputs), nodes against
// their operator schema or model-local function (arity, attributes, type constraints where
// types are declared), tensors (storage, sizes, sparse indices, UTF-8), functions, training
// info, device configurations. Nothing here reads external data or allocates from declared
// sizes; recursion stops at model.too-deep.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "core/diag/diagnostic.h"

namespace onnx {
class ModelProto;
}

namespace onnxtool {

class Registry;
struct Model;

struct CheckOptions {
  // Operator schemas; nullptr means Registry::standard().
  const Registry* registry = nullptr;
  // Rules marked strict in rules.h (C-identifier names, duplicate node names, ...) are errors.
  bool strict = false;
  // Read every external data file and compare its SHA1 with the model's checksum.
  bool verify_data = false;
  // Where external data is resolved (default: the model's directory).
  std::optional<std::filesystem::path> data_dir;
  // Shape inference after these passes (check --full), run by check_file only when the
  // structural checks found no error: inference assumes a well-formed graph.
  bool full = false;
};

// Checks an in-memory model. Diagnostics go to sink with the sink's file name. External data
// references are not validated here (load_model does that); see check_file.
void check_model(const onnx::ModelProto& model, const CheckOptions& options, DiagSink& sink);

// Loads (validating every external reference without reading it), checks, and with
// verify_data verifies checksums. Fatal load problems (missing file, not a model, truncated
// protobuf) become one diagnostic; returns the exit code for this file: 0 valid, 1 invalid,
// 3 I/O.
int check_file(const std::string& path, const CheckOptions& options, DiagSink& sink);

}  // namespace onnxtool
