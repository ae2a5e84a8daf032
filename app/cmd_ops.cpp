// SPDX-License-Identifier: Apache-2.0
// onnxtool ops: what the operator registry of this build knows, so a CI can ask which
// operators (and versions) a model may use, and which of them have inference and kernels.
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <ostream>
#include <variant>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/diag/error.h"
#include "core/registry/registry.h"
#include "core/version.h"

namespace onnxtool::app {

namespace {

struct OpsOptions {
  std::string op_type;  // `ops Relu`: one operator's schema, every version
  std::string domain;   // empty: every domain
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

// ---- one operator: ops NAME -------------------------------------------------------------------

// A float attribute's default as the spec writes it (0.01, not 0.009999999776482582): the
// shortest decimal that reads back as the same float, carried as that double.
double shortest(float f) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, f);
  return std::strtod(std::string(buf, r.ptr).c_str(), nullptr);
}

nlohmann::json default_json(const AttrValue& v) {
  return std::visit(
      [](const auto& x) -> nlohmann::json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, float>) {
          return shortest(x);
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          nlohmann::json arr = nlohmann::json::array();
          for (float f : x) arr.push_back(shortest(f));
          return arr;
        } else {
          return x;
        }
      },
      v);
}

const char* option_name(ParamOption o) {
  switch (o) {
    case ParamOption::single:
      return "single";
    case ParamOption::optional:
      return "optional";
    case ParamOption::variadic:
      return "variadic";
  }
  return "single";
}

nlohmann::json params_json(const std::vector<FormalParam>& params) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& p : params) {
    nlohmann::json j = {{"name", p.name}, {"type", p.type}, {"option", option_name(p.option)}};
    if (p.option == ParamOption::variadic) j["min_arity"] = p.min_arity;
    arr.push_back(std::move(j));
  }
  return arr;
}

nlohmann::json version_json(const OpVersion& v) {
  nlohmann::json attrs = nlohmann::json::array();
  for (const auto& a : v.attributes) {
    nlohmann::json j = {
        {"name", a.name}, {"type", attr_type_name(a.type)}, {"required", a.required}};
    if (a.has_default()) j["default"] = default_json(a.default_value);
    attrs.push_back(std::move(j));
  }
  nlohmann::json constraints = nlohmann::json::array();
  for (const auto& c : v.constraints)
    constraints.push_back({{"name", c.name}, {"allowed", c.allowed}});
  return {{"since", v.since},
          {"deprecated", v.deprecated},
          {"experimental", v.experimental},
          {"function", v.is_function},
          {"inference", static_cast<bool>(v.infer)},
          {"kernel", static_cast<bool>(v.kernel)},
          {"inputs", params_json(v.inputs)},
          {"outputs", params_json(v.outputs)},
          {"attributes", attrs},
          {"type_constraints", constraints}};
}

std::string param_text(const FormalParam& p) {
  std::string s = p.name + ": " + p.type;
  if (p.option == ParamOption::optional) s += " (optional)";
  if (p.option == ParamOption::variadic)
    s += " (variadic, at least " + std::to_string(p.min_arity) + ")";
  return s;
}

void print_version(const OpDef& def, const OpVersion& v, std::ostream& out) {
  out << "\n" << def.name() << "-" << v.since;
  for (const auto& f : flags(v)) out << "  " << f;
  out << '\n';
  auto list = [&](const char* title, const std::vector<FormalParam>& ps) {
    if (ps.empty()) return;
    out << "  " << title << '\n';
    for (const auto& p : ps) out << "    " << param_text(p) << '\n';
  };
  list("inputs", v.inputs);
  list("outputs", v.outputs);
  if (!v.attributes.empty()) {
    out << "  attributes\n";
    for (const auto& a : v.attributes) {
      out << "    " << a.name << ": " << attr_type_name(a.type);
      if (a.required) out << " (required)";
      if (a.has_default()) out << " = " << default_json(a.default_value).dump();
      out << '\n';
    }
  }
  if (!v.constraints.empty()) {
    out << "  type constraints\n";
    for (const auto& c : v.constraints) {
      out << "    " << c.name << ":";
      for (std::size_t i = 0; i < c.allowed.size(); ++i) out << (i ? ", " : " ") << c.allowed[i];
      out << '\n';
    }
  }
}

int show_operator(const OpsOptions& opt, const GlobalOptions& g, Io& io) {
  const Registry& reg = Registry::standard();
  std::vector<const OpDef*> found;
  for (const OpDef* def : reg.all())
    if (def->name() == opt.op_type && (!opt.domain_given || def->domain() == opt.domain) &&
        !def->versions().empty())
      found.push_back(def);
  if (found.empty()) {
    std::string near;
    for (const OpDef* def : reg.all()) {
      std::string a = def->name(), b = opt.op_type;
      for (auto* t : {&a, &b})
        for (auto& c : *t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (a == b) near = def->name();
    }
    throw_usage("no operator named '" + opt.op_type + "'" +
                (opt.domain_given ? " in " + domain_text(opt.domain) : std::string()) +
                (near.empty() ? "; 'onnxtool ops' lists them" : "; did you mean '" + near + "'?"));
  }
  nlohmann::json docs = nlohmann::json::array();
  for (const OpDef* def : found) {
    std::vector<const OpVersion*> versions;
    for (const auto& v : def->versions())
      if (opt.opset == 0 || &v == def->lookup(opt.opset)) versions.push_back(&v);
    if (g.json) {
      nlohmann::json vs = nlohmann::json::array();
      for (auto it = versions.rbegin(); it != versions.rend(); ++it)
        vs.push_back(version_json(**it));
      docs.push_back(
          {{"domain", domain_text(def->domain())}, {"op_type", def->name()}, {"versions", vs}});
      continue;
    }
    io.out << def->name() << " (" << domain_text(def->domain()) << "), versions "
           << versions_text(*def) << '\n';
    for (auto it = versions.rbegin(); it != versions.rend(); ++it)
      print_version(*def, **it, io.out);
  }
  if (g.json) print_json(docs.size() == 1 ? docs[0] : docs, io);
  return 0;
}

int run_ops(OpsOptions opt, const GlobalOptions& g, Io& io) {
  validate(opt);
  if (!opt.op_type.empty()) return show_operator(opt, g, io);
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
  c.app = app.add_subcommand("ops", "list the operators this build knows, or show one's schema");
  c.app->add_option("op_type", opt->op_type,
                    "show this operator's schema, every version (inputs, outputs, attributes, "
                    "type constraints); with --opset, the version in effect");
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
