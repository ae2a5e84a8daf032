// SPDX-License-Identifier: Apache-2.0
// Where a command that writes a model puts its weights (convert, extract): the same options,
// checks and SaveOptions for each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/model/model.h"

namespace onnxtool::app {

struct WeightsOptions {
  std::string external_data;  // --external-data FILE
  std::optional<uint64_t> size_threshold;
  bool embed = false;    // --embed-external-data
  std::string data_dir;  // --data-dir, where the input's external data is read from

  bool moves_weights() const { return embed || !external_data.empty(); }
};

// Adds --external-data (described by external_help), --size-threshold, --embed-external-data
// and --data-dir.
void add_weights_options(CLI::App& app, WeightsOptions& opt, const std::string& external_help);
// Usage errors for options that exclude each other.
void check_weights_options(const WeightsOptions& opt);
// The save's handling of external data as the options ask.
void apply_weights_options(const WeightsOptions& opt, SaveOptions& so);
// The load's data directory, when --data-dir gives one.
void apply_weights_options(const WeightsOptions& opt, LoadOptions& lo);
// Saves the model (format by extension) with its weights placed as the options say; returns
// the paths written, side files first.
std::vector<std::string> save_with_weights(Model& model, const std::string& path,
                                           const WeightsOptions& opt);

}  // namespace onnxtool::app
