// SPDX-License-Identifier: Apache-2.0
// Manual pages built from the same CLI11 tree as --help and the completions, so they cannot
// drift from the options the program takes: onnxtool(1) and onnxtool-<command>(1) for each
// subcommand. The build runs `onnxtool man-pages DIR` (a hidden command) and installs DIR.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli.h"
#include "app/commands.h"
#include "core/diag/error.h"
#include "core/util/atomic_file.h"
#include "core/version.h"

namespace onnxtool::app {

namespace {

// roff: a backslash is an escape, and a line starting with . or ' is a request.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void option_entries(std::ostringstream& s, const CLI::App& app) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_lnames().empty() && o->get_snames().empty()) continue;
    if (o->get_lnames().size() == 1 && o->get_lnames()[0] == "help") continue;
    s << ".TP\n";
    std::string names;
    for (const auto& n : o->get_snames())
      names += (names.empty() ? "" : ", ") + ("\\fB\\-" + n + "\\fR");
    for (const auto& n : o->get_lnames())
      names += (names.empty() ? "" : ", ") + ("\\fB\\-\\-" + roff(n) + "\\fR");
    const bool takes_value = o->get_type_size_max() > 0 && o->get_expected_max() > 0;
    if (takes_value) {
      std::string type = o->get_type_name();
      if (type.empty()) type = "VALUE";
      names += " \\fI" + roff(type) + "\\fR";
    }
    s << names << '\n' << roff(o->get_description()) << '\n';
  }
}

void positionals(std::ostringstream& s, const CLI::App& app) {
  for (const CLI::Option* o : app.get_options()) {
    if (!o->get_lnames().empty() || !o->get_snames().empty()) continue;
    std::string name = o->get_name(true);
    s << " \\fI" << roff(upper(name)) << "\\fR";
    if (o->get_expected_max() > 1) s << "...";
  }
}

const char* kExitStatus =
    ".SH EXIT STATUS\n"
    ".TP\n0\nsuccess\n"
    ".TP\n1\nfindings: the input is not a valid model, or a check, test or comparison failed\n"
    ".TP\n2\nusage: a bad command line or rule configuration\n"
    ".TP\n3\nI/O: a file is missing, unreadable or a directory\n"
    ".TP\n4\ninternal error (a bug: please report it)\n";

std::string header(const std::string& name, const std::string& summary) {
  std::ostringstream s;
  s << ".TH " << roff(upper(name)) << " 1 \"\" \"onnxtool " << kOnnxtoolVersion
    << "\" \"User Commands\"\n"
    << ".SH NAME\n"
    << roff(name) << " \\- " << roff(summary) << '\n';
  return s.str();
}

std::string sub_page(const CLI::App& root, const CLI::App& sub) {
  std::ostringstream s;
  s << header("onnxtool-" + sub.get_name(), sub.get_description());
  s << ".SH SYNOPSIS\n\\fBonnxtool " << roff(sub.get_name()) << "\\fR [\\fIOPTIONS\\fR]";
  positionals(s, sub);
  std::string what = sub.get_description();
  if (!what.empty()) what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
  s << "\n.SH DESCRIPTION\n"
    << roff(what) << ".\n"
    << "Diagnostics go to standard error, one line each:\n"
    << "\\fIFILE\\fR: \\fILOCATION\\fR: message [\\fIrule\\fR].\n"
    << ".SH OPTIONS\n";
  option_entries(s, sub);
  s << ".SH GLOBAL OPTIONS\nThese may come before or after the command.\n";
  option_entries(s, root);
  s << kExitStatus << ".SH SEE ALSO\n\\fBonnxtool\\fR(1)\n";
  return s.str();
}

std::string main_page(const CLI::App& root) {
  std::ostringstream s;
  s << header("onnxtool", "check, inspect, run, infer and convert ONNX models");
  s << ".SH SYNOPSIS\n\\fBonnxtool\\fR [\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n"
    << ".SH DESCRIPTION\n"
    << "One program for ONNX models: validate them against the specification, inspect them, "
       "run them, infer their shapes, and convert them between formats and opset versions. "
       "Each command has its own page.\n"
    << ".SH COMMANDS\n";
  for (const CLI::App* sub : root.get_subcommands({})) {
    if (sub->get_group().empty()) continue;
    s << ".TP\n\\fBonnxtool\\-" << roff(sub->get_name()) << "\\fR(1)\n"
      << roff(sub->get_description()) << '\n';
  }
  s << ".SH GLOBAL OPTIONS\n";
  option_entries(s, root);
  s << kExitStatus << ".SH FILES\n.TP\n\\&.onnxtool.json\n"
    << "rule configuration for \\fBcheck\\fR, found from the model's directory upwards\n"
    << ".SH ENVIRONMENT\n.TP\nNO_COLOR\nwhen set and not empty, no colour on a terminal\n"
    << ".TP\nOPENBLAS_CORETYPE\nthe OpenBLAS kernels to use; results do not depend on it\n"
    << ".SH SEE ALSO\n";
  std::string see;
  for (const CLI::App* sub : root.get_subcommands({}))
    if (!sub->get_group().empty())
      see += (see.empty() ? "" : ",\n") + ("\\fBonnxtool\\-" + roff(sub->get_name()) + "\\fR(1)");
  s << see << '\n';
  return s.str();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> man_pages(const CLI::App& root) {
  std::vector<std::pair<std::string, std::string>> pages{{"onnxtool.1", main_page(root)}};
  for (const CLI::App* sub : root.get_subcommands({}))
    if (!sub->get_group().empty())
      pages.emplace_back("onnxtool-" + sub->get_name() + ".1", sub_page(root, *sub));
  return pages;
}

Command add_man_pages(CLI::App& app, GlobalOptions&) {
  auto dir = std::make_shared<std::string>();
  Command c;
  c.app = app.add_subcommand("man-pages", "write the manual pages into DIR (used by the build)");
  c.app->group("");  // hidden: for the build, not for users
  c.app->add_option("dir", *dir, "output directory")->required();
  c.action = [dir](const GlobalOptions& g, Io& io) {
    return guarded(g, io, [&] {
      CliTree tree;
      build_cli(tree);
      std::filesystem::create_directories(*dir);
      for (const auto& [name, text] : man_pages(tree.app))
        write_file_atomically(std::filesystem::path(*dir) / name, text);
      return 0;
    });
  };
  return c;
}

}  // namespace onnxtool::app
