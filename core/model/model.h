// SPDX-License-Identifier: Apache-2.0
// Loading and saving ModelProto files: from a path or stdin, with external data validated (never
// read) at load, and written atomically with external data moved out, kept or embedded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/model/external_data.h"
#include "core/types/tensor.h"

namespace onnx {
class ModelProto;
class TensorProto;
}  // namespace onnx

namespace onnxtool {

// A protobuf message cannot exceed 2 GiB; larger models keep their weights in external files.
inline constexpr uint64_t kMaxProtoBytes = 0x7fffffffull;

// How a model is stored. Files choose by extension (.onnxtxt text, .json JSON, anything else
// binary protobuf); stdin by its first bytes (text that starts with '{' is JSON, other text
// is the textual syntax, the rest binary).
enum class ModelFormat { automatic, binary, text, json };

ModelFormat format_from_path(const std::string& path);
ModelFormat sniff_format(std::string_view bytes);
// "onnx" (or "binary"), "text" (or "onnxtxt"), "json"; nullopt for anything else.
std::optional<ModelFormat> model_format_named(std::string_view name);
const char* model_format_name(ModelFormat f);  // onnx, text, json

// The sidecar a text model written to `path` keeps its large tensors in: model.onnxtxt ->
// model.npz, beside it.
std::string text_sidecar_name(const std::string& path);

struct LoadOptions {
  // Where external data locations (and a text model's sidecar) are resolved; default: the
  // model file's directory (the current directory for stdin).
  std::optional<std::filesystem::path> data_dir;
  ModelFormat format = ModelFormat::automatic;
  // Check every external reference (path, file type, bounds, size) without reading its bytes.
  bool validate_external_data = true;
};

struct Model {
  std::shared_ptr<onnx::ModelProto> proto;
  std::string name;            // as given by the user; "<stdin>" for "-"
  std::filesystem::path path;  // empty for stdin
  uint64_t file_size = 0;
  std::shared_ptr<ExternalData> external;

  // Decodes a stored tensor: raw_data is wrapped in place and external data mapped, not copied.
  // The Tensor keeps `owner` alive, the object holding t (default: this model's proto; a tensor
  // an edited graph holds apart from the model passes its own). Throws Error(invalid) naming
  // this model and `location`.
  Tensor tensor(const onnx::TensorProto& t, const std::string& location = "",
                std::shared_ptr<const void> owner = nullptr) const;
};

// Reads and parses a model. Fatal problems throw Error: io for a missing/unreadable file or a
// directory (exit 3); invalid for an empty file, over 2 GiB, not protobuf, truncated protobuf,
// or protobuf that is not a ModelProto (exit 1). External data problems go to sink.
Model load_model(const std::string& path, const LoadOptions& options, DiagSink& sink);

// Parses model bytes held in memory (name is used in messages and, with format automatic, picks
// the format by extension; "<stdin>" sniffs the bytes; base_dir for external data).
Model parse_model(std::string_view bytes, const std::string& name,
                  const std::filesystem::path& base_dir, const LoadOptions& options,
                  DiagSink& sink);

// Wraps an already-built proto (e.g. from the text parser) as a Model.
Model model_from_proto(std::shared_ptr<onnx::ModelProto> proto, const std::string& name,
                       const std::filesystem::path& base_dir);

// Reports external references that are malformed or unsafe (see ExternalData::validate) and
// tensors that carry external_data keys without being marked EXTERNAL.
void validate_external_data(const Model& model, DiagSink& sink);

// Reads every external data file once and checks the SHA1 checksums the model gives.
void verify_external_checksums(const Model& model, DiagSink& sink);

struct SaveOptions {
  enum class External {
    keep,         // tensors stay where they are; when saving to another directory, external
                  // ones are copied into `<name>.data` beside the output
    embed,        // every external tensor goes into the model file (refused past 2 GiB)
    externalize,  // initializers of at least size_threshold bytes go into external_file
  };
  External external = External::keep;
  std::string external_file;  // relative to the output's directory; default "<name>.data"
  uint64_t size_threshold = 1024;
  bool include_attributes = false;  // externalize tensor attributes (Constant values) too
  // automatic: by the path's extension (binary for "-").
  ModelFormat format = ModelFormat::automatic;
  // Text: tensors with more elements go to the sidecar text_sidecar_name(path) (a text model
  // written to "-" keeps every tensor inline).
  int64_t text_inline_limit = 64;
  // When set, receives the paths written: side files first, the model last.
  std::vector<std::string>* written = nullptr;
  // When set, told before each tensor whose bytes move into or out of external data (index,
  // count, the tensor's location): what a progress display needs for gigabytes of weights.
  std::function<void(std::size_t, std::size_t, const std::string&)> on_tensor;
};

// Writes the model atomically (temporary file + rename; side file first) in options.format. The
// model is updated to describe what was written (external references rebased to the output
// directory). "-" writes to stdout. Throws Error on failure; nothing is left half-written.
void save_model(Model& model, const std::string& path, const SaveOptions& options = {});

// Serializes to bytes (after embedding nothing: external references are kept as they are).
std::string serialize_model(const onnx::ModelProto& proto);

}  // namespace onnxtool
