// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/commands.h"
#include "core/exec/blas.h"
#include "core/registry/registry.h"
#include "core/version.h"
#include "ops/register_all.h"

namespace onnxtool::app {

std::string version_text() {
  std::ostringstream s;
  s << "onnxtool " << kOnnxtoolVersion << '\n'
    << "IR version: up to " << kNewestIrVersion << '\n'
    << "operator sets:";
  for (const auto& d : known_opset_domains()) {
    s << ' ' << (d.domain.empty() ? "ai.onnx" : d.domain) << ' ' << d.min_version;
    if (d.max_version != d.min_version) s << '-' << d.max_version;
    s << ';';
  }
  std::string text = s.str();
  text.back() = '\n';
  return text;
}

#ifndef ONNXTOOL_BUILD_TYPE
#define ONNXTOOL_BUILD_TYPE "unknown"
#endif

// What scripts check before they rely on a capability: `onnxtool --version --json`.
nlohmann::json version_json() {
  nlohmann::json opsets = nlohmann::json::object();
  for (const auto& d : known_opset_domains())
    opsets[d.domain.empty() ? "ai.onnx" : std::string(d.domain)] = {{"min", d.min_version},
                                                                    {"max", d.max_version}};
  const auto& blas = blas::info();
  return {
      {"name", "onnxtool"},
      {"version", std::string(kOnnxtoolVersion)},
      {"ir_version", {{"min", 1}, {"max", kNewestIrVersion}}},
      {"opsets", opsets},
      {"formats",
       {{"model", {"onnx", "onnxtxt", "json"}},
        {"tensor", {"npy", "npz", "pb"}},
        {"check", {"text", "json", "sarif", "junit", "github"}}}},
      {"blas",
       {{"gemm", blas.gemm}, {"openblas_loaded", blas.loaded}, {"openblas_core", blas.core}}},
      {"simd", blas.simd},
      {"build_type", ONNXTOOL_BUILD_TYPE},
  };
}

void build_cli(CliTree& tree) {
  CLI::App& app = tree.app;
  GlobalOptions& g = tree.global;
  app.require_subcommand(0, 1);
  // Global options may also follow the subcommand: `onnxtool info m.onnx --json`.
  app.fallthrough();
  // A plain flag, not CLI11's version callback, so that `--version --json` sees the --json.
  app.add_flag("--version", tree.version, "print version information (with --json: capabilities)");
  app.add_flag("--json", g.json, "machine-readable output on stdout");
  app.add_flag_callback(
      "--json-lines", [&g] { g.json = g.json_lines = true; },
      "as --json, one compact document per line: one per file for check and info");
  app.add_flag("-q,--quiet", g.quiet, "only errors on stderr");
  app.add_flag("-v,--verbose", g.verbose, "progress and timing on stderr (repeat for more)");
  app.add_option_function<std::string>(
         "--color",
         [&g](const std::string& when) {
           g.color = when == "always"  ? ColorMode::always
                     : when == "never" ? ColorMode::never
                                       : ColorMode::automatic;
         },
         "colour diagnostics: auto (on a terminal, unless NO_COLOR), always or never")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--threads", g.threads, "worker threads (default: all cores)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            int n = -1;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
            if (ec != std::errc() || end != text.data() + text.size() || n < 0)
              return "expected a whole number of threads, 0 or more (0: every core)";
            return "";
          },
          "N"));
  for (auto add : all_command_adders()) tree.commands.push_back(add(app, g));
}

namespace {

// Global options that take a value: the word after them is not the command.
bool takes_value(const CLI::App& app, const std::string& arg) {
  if (arg.rfind("--", 0) != 0 || arg.find('=') != std::string::npos) return false;
  for (const CLI::Option* o : app.get_options())
    for (const auto& l : o->get_lnames())
      if ("--" + l == arg) return o->get_type_size_max() > 0 && o->get_expected_max() > 0;
  return false;
}

// Index of the word that names the command, or args.size() when there is none.
std::size_t command_index(const CLI::App& app, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") return args.size();
    if (!args[i].empty() && args[i][0] == '-') {
      if (takes_value(app, args[i])) ++i;
      continue;
    }
    return i;
  }
  return args.size();
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// `onnxtool help [COMMAND]` is `onnxtool [COMMAND] --help`. A word that names no command gets
// the nearest command's name suggested; returns a message when the command line is unusable.
std::optional<std::string> rewrite_command(const CLI::App& app, std::vector<std::string>& args) {
  const std::size_t at = command_index(app, args);
  if (at == args.size()) return std::nullopt;
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (!sub->get_group().empty()) names.push_back(sub->get_name());
  if (args[at] == "help") {
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(at));
    args.push_back("--help");
    return std::nullopt;
  }
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->check_name(args[at])) return std::nullopt;
  std::string best;
  std::size_t best_distance = 3;  // at most two edits away
  for (const auto& n : names) {
    const std::size_t d = edit_distance(args[at], n);
    if (d < best_distance) {
      best_distance = d;
      best = n;
    }
  }
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  return "no command '" + args[at] + "'" +
         (best.empty() ? "; the commands are " + all : "; did you mean '" + best + "'?");
}

// A subcommand's help, then the global options, which may follow it too.
std::string sub_help(const CLI::App& root, const CLI::App& sub) {
  std::string text = sub.help();
  text += "Global options (before or after the command):\n";
  for (const CLI::Option* o : root.get_options()) {
    if (o->get_lnames().empty() || o->get_lnames()[0] == "help") continue;
    std::string names;
    for (const auto& s : o->get_snames()) names += "-" + s + ",";
    names += "--" + o->get_lnames()[0];
    if (o->get_type_size_max() > 0 && o->get_expected_max() > 0) names += " " + o->get_type_name();
    text += "  " + names + std::string(names.size() < 28 ? 28 - names.size() : 1, ' ') +
            o->get_description() + '\n';
  }
  return text;
}

}  // namespace

int run_cli(int argc, const char* const* argv, Io& io) {
  // core/ knows no operator: the standard ones come from ops/, wired in here.
  Registry::install_standard(register_standard_ops);
  CliTree tree;
  build_cli(tree);
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (auto problem = rewrite_command(tree.app, args)) {
    io.err << "onnxtool: error: " << *problem << "\nrun 'onnxtool --help' for usage\n";
    return 2;
  }
  try {
    // CLI11 takes the arguments last first.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    tree.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    const CLI::App* sub = nullptr;
    for (const auto& c : tree.commands)
      if (c.app->parsed()) sub = c.app;
    io.out << (sub ? sub_help(tree.app, *sub) : tree.app.help());
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    io.out << tree.app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    io.out << version_text();
    return 0;
  } catch (const CLI::ParseError& e) {
    // Help for a subcommand also arrives here.
    if (e.get_exit_code() == 0) {
      const CLI::App* sub = nullptr;
      for (const auto& c : tree.commands)
        if (c.app->parsed()) sub = c.app;
      io.out << (sub ? sub_help(tree.app, *sub) : tree.app.help());
      return 0;
    }
    // CLI11 capitalises its messages; diagnostics here start in lowercase.
    std::string what = e.what();
    if (!what.empty())
      what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
    io.err << "onnxtool: error: " << what << "\nrun 'onnxtool --help' for usage\n";
    return 2;
  }
  if (tree.version) {
    if (tree.global.json)
      io.out << version_json().dump(2) << '\n';
    else
      io.out << version_text();
    return 0;
  }
  for (auto& c : tree.commands)
    if (c.app->parsed()) return c.action(tree.global, io);
  io.out << tree.app.help();
  return 2;
}

}  // namespace onnxtool::app
