// SPDX-License-Identifier: Apache-2.0
// What `onnxtool info` reports about a model, computed from the proto alone: no weight is read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/model.h"

namespace onnxtool {

struct ModelSummary {
  struct Opset {
    std::string domain;
    int64_t version;
  };
  struct Value {
    std::string name, type;
    bool is_initializer = false;  // inputs only: an initializer of the same name gives a default
  };
  struct TypeBytes {
    std::string type;
    int64_t tensors = 0;
    uint64_t elements = 0, bytes = 0;
  };
  struct OpCount {
    std::string domain, op_type;
    int64_t count = 0;
  };
  struct Function {
    std::string name, domain, overload;
    int64_t nodes = 0;
  };
  struct DeviceConfiguration {
    std::string name;
    int32_t num_devices = 0;
    std::vector<std::string> devices;
  };

  std::string file;
  uint64_t file_size = 0;
  int64_t ir_version = 0;
  std::vector<Opset> opset_import;
  std::string producer_name, producer_version, domain, doc_string;  // doc: first line only
  int64_t model_version = 0;
  std::vector<std::pair<std::string, std::string>> metadata_props;
  std::string graph_name;

  std::vector<Value> inputs, outputs;
  int64_t value_info = 0;

  int64_t initializers = 0, sparse_initializers = 0;
  uint64_t parameters = 0, initializer_bytes = 0;
  std::vector<TypeBytes> bytes_by_type;  // largest first
  // Tensors held in node attributes (Constant nodes, mostly: paddle2onnx and spox exports keep
  // their weights there), anywhere in the model.
  int64_t constant_tensors = 0;
  uint64_t constant_parameters = 0, constant_bytes = 0;
  int64_t external_tensors = 0;
  uint64_t external_bytes = 0;
  std::vector<ExternalFileUse> external_files;

  int64_t nodes_top_level = 0, nodes_total = 0, subgraphs = 0, max_subgraph_depth = 0;
  std::vector<OpCount> op_histogram;  // most frequent first
  std::vector<Function> functions;
  int64_t training_info = 0;
  std::vector<DeviceConfiguration> device_configurations;
};

ModelSummary summarize(const Model& model);
nlohmann::json to_json(const ModelSummary& s);

}  // namespace onnxtool
