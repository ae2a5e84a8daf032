// SPDX-License-Identifier: Apache-2.0
// onnxtool ops: what the operator registry of this build knows, so a CI can ask which
// operators (and versions) a model may use, and which of them have inference and kernels.
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/diag/error.h"
#include "core/registry/registry.h"
#include "core/version.h"

namespace onnxtool::app {

namespace {

struct OpsOptions {
  std::string domain;  // empty: every domain
  bool domain_given = false;
  int64_t opset = 0;  // 0: every version
};

std::string domain_text(const std::string& domain) {
  return domain.empty() ? "ai.onnx" : domain;
}

// One listed operator: at a given opset the version in effect, otherwise its latest version
// with the list of all versions.
struct Row {
  const OpDef* def;
  const OpVersion* version;
};

std::vector<std::string> flags(const OpVersion& v) {
  std::vector<std::string> f;
  if (v.deprecated) f.push_back("deprecated");
  if (v.experimental) f.push_back("experimental");
  if (v.is_function) f.push_back("function");
  if (v.infer) f.push_back("infer");
  if (v.kernel) f.push_back("kernel");
  return f;
}

std::string versions_text(const OpDef& def) {
  std::string s;
  for (const auto& v : def.versions()) s += (s.empty() ? "" : ", ") + std::to_string(v.since);
  return s;
}

std::vector<Row> select(const Registry& reg, const OpsOptions& opt) {
  std::vector<Row> rows;
  for (const OpDef* def : reg.all()) {
    if (opt.domain_given && def->domain() != opt.domain) continue;
    if (def->versions().empty()) continue;
    const OpVersion* v = opt.opset > 0 ? def->lookup(opt.opset) : &def->versions().back();
    if (v) rows.push_back({def, v});
  }
  return rows;
}

void validate(OpsOptions& opt) {
  if (!opt.domain_given) {
    if (opt.opset > 0)
      opt.domain_given = true;  // --opset alone means the default domain
    else
      return;
  }
  opt.domain = normalize_domain(opt.domain);
  const OpsetDomainRange* range = find_opset_domain(opt.domain);
  if (!range && !Registry::standard().knows_domain(opt.domain)) {
    std::string known;
    for (const auto& d : known_opset_domains())
      known += (known.empty() ? "" : ", ") + domain_text(std::string(d.domain));
    throw_usage("unknown domain '" + opt.domain + "'; known: " + known);
  }
  if (opt.opset > 0 && range && (opt.opset < range->min_version || opt.opset > range->max_version))
    throw_usage(domain_text(opt.domain) + " has no opset " + std::to_string(opt.opset) +
                "; expected " + std::to_string(range->min_version) + ".." +
                std::to_string(range->max_version));
}

void print_text(const std::vector<Row>& rows, const OpsOptions& opt, std::ostream& out) {
  std::string current = "\x01";
  std::size_t versions = 0;
  for (const auto& r : rows) {
    if (r.def->domain() != current) {
      current = r.def->domain();
      out << (current.empty() ? "ai.onnx" : current) << '\n';
    }
    std::string line = "  " + r.def->name();
    line.resize(std::max<std::size_t>(line.size() + 2, 34), ' ');
    line += opt.opset > 0 ? "since " + std::to_string(r.version->since) : versions_text(*r.def);
    for (const auto& x : flags(*r.version)) {
      line.resize(std::max<std::size_t>(line.size() + 1, 58), ' ');
      line += x;
    }
    out << line << '\n';
    versions += opt.opset > 0 ? 1 : r.def->versions().size();
  }
  out << rows.size() << " operator" << (rows.size() == 1 ? "" : "s");
  if (opt.opset > 0)
    out << " in " << domain_text(opt.domain) << " opset " << opt.opset << '\n';
  else
    out << ", " << versions << " versions\n";
}

nlohmann::json to_json(const std::vector<Row>& rows, const OpsOptions& opt) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json j = {{"domain", domain_text(r.def->domain())}, {"op_type", r.def->name()}};
    if (opt.opset > 0) j["since"] = r.version->since;
    nlohmann::json versions = nlohmann::json::array();
    for (const auto& v : r.def->versions()) versions.push_back(v.since);
    j["versions"] = versions;
    const auto& v = *r.version;
    j["deprecated"] = v.deprecated;
    j["experimental"] = v.experimental;
    j["function"] = v.is_function;
    j["inference"] = static_cast<bool>(v.infer);
    j["kernel"] = static_cast<bool>(v.kernel);
    ops.push_back(std::move(j));
  }
  nlohmann::json doc = {{"operators", ops}, {"count", rows.size()}};
  if (opt.domain_given) doc["domain"] = domain_text(opt.domain);
  if (opt.opset > 0) doc["opset"] = opt.opset;
  return doc;
}

int run_ops(OpsOptions opt, const GlobalOptions& g, Io& io) {
  validate(opt);
  const auto rows = select(Registry::standard(), opt);
  if (g.json)
    print_json(to_json(rows, opt), io);
  else
    print_text(rows, opt, io.out);
  return 0;
}

}  // namespace

Command add_ops(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<OpsOptions>();
  Command c;
  c.app = app.add_subcommand("ops", "list the operators this build knows");
  c.app->add_option("--domain", opt->domain, "only this domain (ai.onnx, ai.onnx.ml, ...)")
      ->each([opt](const std::string&) { opt->domain_given = true; });
  c.app
      ->add_option("--opset", opt->opset,
                   "the version in effect at this opset of the domain (default domain: ai.onnx)")
      ->check(CLI::PositiveNumber);
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded(g, io, [&] { return run_ops(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
