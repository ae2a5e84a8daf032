// SPDX-License-Identifier: Apache-2.0
#include "app/cli_weights.h"

#include "core/diag/error.h"

namespace onnxtool::app {

void add_weights_options(CLI::App& app, WeightsOptions& opt, const std::string& external_help) {
  app.add_option("--external-data", opt.external_data, external_help);
  app.add_option("--size-threshold", opt.size_threshold,
                 "with --external-data: move tensors of at least BYTES (default 1024)");
  app.add_flag("--embed-external-data", opt.embed,
               "bring every externally stored tensor into the model");
  app.add_option("--data-dir", opt.data_dir,
                 "directory holding external data (default: the model's directory)");
}

void check_weights_options(const WeightsOptions& opt) {
  if (!opt.external_data.empty() && opt.embed)
    throw_usage("--external-data and --embed-external-data exclude each other");
  if (opt.size_threshold && opt.external_data.empty())
    throw_usage("--size-threshold applies to --external-data FILE");
}

void apply_weights_options(const WeightsOptions& opt, SaveOptions& so) {
  if (opt.embed) so.external = SaveOptions::External::embed;
  if (!opt.external_data.empty()) {
    so.external = SaveOptions::External::externalize;
    so.external_file = opt.external_data;
    if (opt.size_threshold) so.size_threshold = *opt.size_threshold;
  }
}

void apply_weights_options(const WeightsOptions& opt, LoadOptions& lo) {
  if (!opt.data_dir.empty()) lo.data_dir = opt.data_dir;
}

std::vector<std::string> save_with_weights(Model& model, const std::string& path,
                                           const WeightsOptions& opt) {
  std::vector<std::string> written;
  SaveOptions so;
  so.written = &written;
  apply_weights_options(opt, so);
  save_model(model, path, so);
  return written;
}

}  // namespace onnxtool::app
