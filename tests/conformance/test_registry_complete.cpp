// SPDX-License-Identifier: Apache-2.0
// The operator registry against the specification: Changelog.md and Changelog-ml.md are read
// here by a parser of our own (independent of scripts/gen_signatures.py, which wrote ops/), and
// every (domain, op, since_version) must be registered and nothing else. Each version must have
// the same inputs and outputs (names, types, optional/variadic, homogeneous, minimum arity,
// differentiability), attributes (names, types, required, default values), type constraints,
// deprecated and experimental flags, and input/output arity ranges. Operators.md's "Function"
// tables must be reflected in is_function.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/registry/registry.h"
#include "core/registry/schema.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

// ---- what the Changelog says ----------------------------------------------------------------

struct SpecParam {
  std::string name, type;
  ParamOption option = ParamOption::single;
  bool homogeneous = true;
  Differentiability diff = Differentiability::unspecified;
};

struct SpecAttr {
  std::string name, type;  // type as the spec writes it: "int", "list of strings", ...
  bool required = false;
  std::optional<std::string> default_text;
};

using Range = std::pair<int, int>;  // kUnbounded for infinity

struct SpecVersion {
  std::string domain, name;
  int since = 0;
  std::string where;  // file:line
  bool deprecated = false, experimental = false;
  std::vector<SpecAttr> attrs;
  std::vector<SpecParam> inputs, outputs;
  std::vector<std::pair<std::string, std::vector<std::string>>> constraints;
  std::optional<Range> input_range, output_range;  // printed "(a - b)", absent when a == b
};

using Key = std::tuple<std::string, std::string, int>;  // domain, op, since

bool starts_with(const std::string& s, const std::string& p) {
  return s.compare(0, p.size(), p) == 0;
}
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}
bool contains(const std::string& s, const std::string& p) {
  return s.find(p) != std::string::npos;
}

// "a, map(b, c), d" -> {"a", "map(b, c)", "d"}
std::vector<std::string> split_top_level(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else if (!(c == ' ' && cur.empty())) {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// "Inputs (1 - &#8734;)" -> {1, kUnbounded}
std::optional<Range> parse_range(const std::string& section) {
  const auto open = section.find(" (");
  if (open == std::string::npos) return std::nullopt;
  const std::string inner = section.substr(open + 2, section.size() - open - 3);
  const auto dash = inner.find(" - ");
  REQUIRE_MESSAGE(dash != std::string::npos, section);
  const std::string hi = inner.substr(dash + 3);
  return Range{std::stoi(inner.substr(0, dash)), hi == "&#8734;" ? kUnbounded : std::stoi(hi)};
}

SpecParam parse_param(const std::string& rest, const std::string& where) {
  // rest: " (optional, non-differentiable) : T" or " : tensor(int64)" after the name.
  SpecParam p;
  std::string flags;
  std::string type_part = rest;
  if (starts_with(rest, " (")) {
    const auto close = rest.find(") : ");
    REQUIRE_MESSAGE(close != std::string::npos, where);
    flags = rest.substr(2, close - 2);
    type_part = rest.substr(close + 1);
  }
  REQUIRE_MESSAGE(starts_with(type_part, " : "), where);
  p.type = type_part.substr(3);
  for (const std::string& f : split_top_level(flags)) {
    if (f.empty()) continue;
    if (f == "optional") {
      p.option = ParamOption::optional;
    } else if (f == "variadic") {
      p.option = ParamOption::variadic;
    } else if (f == "heterogeneous") {
      p.homogeneous = false;
    } else if (f == "differentiable") {
      p.diff = Differentiability::differentiable;
    } else if (f == "non-differentiable") {
      p.diff = Differentiability::non_differentiable;
    } else {
      FAIL(where << ": unknown flag " << f);
    }
  }
  return p;
}

SpecAttr parse_attr(const std::string& name, const std::string& rest, const std::string& where) {
  REQUIRE_MESSAGE(starts_with(rest, " : "), where);
  SpecAttr a;
  a.name = name;
  std::string t = rest.substr(3);
  const std::string dflt = " (default is ";
  if (ends_with(t, " (required)")) {
    a.required = true;
    t.resize(t.size() - 11);
  } else if (const auto at = t.find(dflt); at != std::string::npos) {
    REQUIRE_MESSAGE(ends_with(t, ")"), where);
    a.default_text = t.substr(at + dflt.size(), t.size() - at - dflt.size() - 1);
    t.resize(at);
  }
  a.type = t;
  return a;
}

std::vector<SpecVersion> parse_changelog(const fs::path& file) {
  std::vector<SpecVersion> out;
  std::istringstream in(test::read_file(file));
  std::string line, domain, section;
  bool in_dd = false, have = false;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string where = file.filename().string() + ":" + std::to_string(lineno);
    if (in_dd) {
      in_dd = !contains(line, "</dd>");
      continue;
    }
    if (starts_with(line, "<dd>")) {
      in_dd = !contains(line, "</dd>");
      continue;
    }
    if (starts_with(line, "# ")) {
      domain = line.substr(2, line.find(' ', 2) - 2);
      if (domain == "ai.onnx") domain.clear();
      have = false;
      continue;
    }
    if (starts_with(line, "### <a name=\"")) {
      const std::string anchor = line.substr(13, line.find('"', 13) - 13);
      const auto dash = anchor.rfind('-');
      std::string name = anchor.substr(0, dash);
      if (!domain.empty()) {
        REQUIRE_MESSAGE(starts_with(name, domain + "."), where);
        name = name.substr(domain.size() + 1);
      }
      REQUIRE_MESSAGE(name.find('.') == std::string::npos, where);
      SpecVersion v;
      v.domain = domain;
      v.name = name;
      v.since = std::stoi(anchor.substr(dash + 1));
      v.where = where;
      v.deprecated = contains(line, "** (deprecated)</a>");
      out.push_back(std::move(v));
      have = true;
      section.clear();
      continue;
    }
    if (starts_with(line, "## ")) {
      have = false;
      continue;
    }
    if (!have) continue;
    SpecVersion& v = out.back();
    if (starts_with(line, "#### ")) {
      section = line.substr(5);
      if (starts_with(section, "Inputs")) {
        v.input_range = parse_range(section);
        section = "Inputs";
      } else if (starts_with(section, "Outputs")) {
        v.output_range = parse_range(section);
        section = "Outputs";
      }
      continue;
    }
    if (section == "Version") {
      if (line == "No versioning maintained for experimental ops.") v.experimental = true;
      if (starts_with(line, "This version of the operator has been deprecated"))
        CHECK_MESSAGE(v.deprecated, where);
      continue;
    }
    if (!starts_with(line, "<dt><tt>")) continue;
    REQUIRE_MESSAGE(ends_with(line, "</dt>"), where);
    const auto name_end = line.find("</tt>");
    const std::string name = line.substr(8, name_end - 8);
    const std::string rest = line.substr(name_end + 5, line.size() - name_end - 5 - 5);
    if (section == "Attributes") {
      v.attrs.push_back(parse_attr(name, rest, where));
    } else if (section == "Inputs" || section == "Outputs") {
      SpecParam p = parse_param(rest, where);
      p.name = name;
      (section == "Inputs" ? v.inputs : v.outputs).push_back(std::move(p));
    } else if (section == "Type Constraints") {
      REQUIRE_MESSAGE(starts_with(rest, " : "), where);
      v.constraints.emplace_back(name, split_top_level(rest.substr(3)));
    } else {
      FAIL(where << ": <dt> in section " << section);
    }
  }
  return out;
}

// {(domain, op)} -> (since versions listed, function opsets) from the "**Function**" tables.
std::map<std::pair<std::string, std::string>, std::pair<std::vector<int>, std::vector<int>>>
parse_function_tables(const fs::path& file) {
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<int>, std::vector<int>>> out;
  std::istringstream in(test::read_file(file));
  std::string line, domain;
  bool table = false;
  while (std::getline(in, line)) {
    if (starts_with(line, "### ") && !starts_with(line, "### <")) {
      domain = line.substr(4, line.find(' ', 4) - 4);
      if (domain == "ai.onnx") domain.clear();
      table = false;
      continue;
    }
    if (line == "|**Function**|**Since version**|**Function version**|") {
      table = true;
      continue;
    }
    if (!table) continue;
    if (!starts_with(line, "|")) {
      table = false;
      continue;
    }
    const auto href = line.find("<a href=\"#");
    REQUIRE_MESSAGE(href != std::string::npos, line);
    std::string name = line.substr(href + 10, line.find('"', href + 10) - href - 10);
    if (!domain.empty()) {
      REQUIRE_MESSAGE(starts_with(name, domain + "."), line);
      name = name.substr(domain.size() + 1);
    }
    std::vector<int> sinces, opsets;
    const std::string anchor = ".md#" + (domain.empty() ? "" : domain + ".") + name + "-";
    for (auto at = line.find(anchor); at != std::string::npos; at = line.find(anchor, at + 1))
      sinces.push_back(std::atoi(line.c_str() + at + anchor.size()));
    const auto last_bar = line.rfind('|');
    const auto before = line.rfind('|', last_bar - 1);
    for (const std::string& v : split_top_level(line.substr(before + 1, last_bar - before - 1)))
      opsets.push_back(std::stoi(v));
    std::sort(sinces.begin(), sinces.end());
    out[{domain, name}] = {sinces, opsets};
  }
  return out;
}

// ---- comparing ------------------------------------------------------------------------------

// The parameter type as the registry stores it (literal types canonical, constraint names as is).
std::string expected_param_type(const std::string& spec) {
  return spec.find('(') == std::string::npos ? spec : canonical_type_string(spec);
}

// "['Tanh', 'Tanh']" / "['0', '2', '3']" / "[1, 2]" -> items without quotes.
std::vector<std::string> python_list(const std::string& text) {
  REQUIRE_MESSAGE((starts_with(text, "[") && ends_with(text, "]")), text);
  std::vector<std::string> items;
  const std::string inner = text.substr(1, text.size() - 2);
  if (inner.empty()) return items;
  for (std::string item : split_top_level(inner)) {
    if (item.size() >= 2 && (item.front() == '\'' || item.front() == '"'))
      item = item.substr(1, item.size() - 2);
    items.push_back(item);
  }
  return items;
}

bool same_float(float registered, const std::string& text) {
  if (starts_with(text, "(") && ends_with(text, ")")) {
    // Printed approximately (Clip-6's numeric_limits<float>::max()): seven significant digits.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", static_cast<double>(registered));
    return text.substr(1, text.size() - 2) == buf;
  }
  const float spec = std::strtof(text.c_str(), nullptr);
  return registered == spec && std::signbit(registered) == std::signbit(spec);
}

void check_default(const AttrDef& a, const SpecAttr& s) {
  CAPTURE(a.name);
  REQUIRE(a.has_default() == s.default_text.has_value());
  if (!s.default_text) return;
  const std::string& text = *s.default_text;
  CAPTURE(text);
  switch (a.type) {
    case AttrType::i:
      REQUIRE(std::holds_alternative<int64_t>(a.default_value));
      CHECK(std::get<int64_t>(a.default_value) == std::stoll(text));
      break;
    case AttrType::f:
      REQUIRE(std::holds_alternative<float>(a.default_value));
      CHECK(same_float(std::get<float>(a.default_value), text));
      break;
    case AttrType::s:
      REQUIRE(std::holds_alternative<std::string>(a.default_value));
      CHECK(std::get<std::string>(a.default_value) == text);
      break;
    case AttrType::ints: {
      REQUIRE(std::holds_alternative<std::vector<int64_t>>(a.default_value));
      std::vector<int64_t> expected;
      for (const auto& item : python_list(text)) expected.push_back(std::stoll(item));
      CHECK(std::get<std::vector<int64_t>>(a.default_value) == expected);
      break;
    }
    case AttrType::floats: {
      REQUIRE(std::holds_alternative<std::vector<float>>(a.default_value));
      const auto& got = std::get<std::vector<float>>(a.default_value);
      const auto items = python_list(text);
      REQUIRE(got.size() == items.size());
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(same_float(got[i], items[i]));
      break;
    }
    case AttrType::strings:
      REQUIRE(std::holds_alternative<std::vector<std::string>>(a.default_value));
      CHECK(std::get<std::vector<std::string>>(a.default_value) == python_list(text));
      break;
    default:
      FAIL("a default for an attribute of type " << attr_type_name(a.type));
  }
}

// The arity range the spec states: printed when min != max; else what the parameters make it
// by ONNX's rule (a single parameter after optional ones raises the minimum to its position).
Range expected_range(const std::vector<SpecParam>& ps, const std::optional<Range>& printed) {
  if (printed) return *printed;
  int lo = 0, hi = 0;
  for (const auto& p : ps) {
    CHECK_MESSAGE(p.option != ParamOption::variadic, p.name << ": variadic but no range printed");
    ++hi;
    if (p.option == ParamOption::single) lo = hi;
  }
  CHECK_MESSAGE(lo == hi, "parameters imply " << lo << " - " << hi << " but no range is printed");
  return {lo, hi};
}

void check_params(const std::vector<FormalParam>& got, const std::vector<SpecParam>& spec,
                  const std::optional<Range>& printed, int min, int max, const std::string& what) {
  CAPTURE(what);
  REQUIRE(got.size() == spec.size());
  for (std::size_t i = 0; i < spec.size(); ++i) {
    CAPTURE(spec[i].name);
    CHECK(got[i].name == spec[i].name);
    CHECK(got[i].type == expected_param_type(spec[i].type));
    CHECK(got[i].option == spec[i].option);
    CHECK(got[i].differentiable == spec[i].diff);
    if (spec[i].option == ParamOption::variadic) {
      CHECK(got[i].homogeneous == spec[i].homogeneous);
      // The Changelog prints no minimum arity; the range's minimum counts the parameters
      // before the variadic one (optional ones included) plus the variadic's minimum.
      REQUIRE(printed.has_value());
      CHECK(got[i].min_arity == printed->first - static_cast<int>(i));
    }
  }
  const Range expected = expected_range(spec, printed);
  CHECK(min == expected.first);
  CHECK(max == expected.second);
}

std::string join(const std::set<std::string>& types) {
  std::string out;
  for (const auto& t : types) out += (out.empty() ? "" : ", ") + t;
  return out;
}

void check_version(const OpVersion& v, const SpecVersion& s) {
  CAPTURE(s.where);
  CAPTURE(v.id());
  CHECK(v.deprecated == s.deprecated);
  CHECK(v.experimental == s.experimental);
  check_params(v.inputs, s.inputs, s.input_range, v.min_inputs, v.max_inputs, "inputs");
  check_params(v.outputs, s.outputs, s.output_range, v.min_outputs, v.max_outputs, "outputs");

  REQUIRE(v.attributes.size() == s.attrs.size());
  for (std::size_t i = 0; i < s.attrs.size(); ++i) {
    const AttrDef& a = v.attributes[i];
    CAPTURE(s.attrs[i].name);
    CHECK(a.name == s.attrs[i].name);
    CHECK(std::string(attr_type_name(a.type)) == s.attrs[i].type);
    CHECK(a.required == s.attrs[i].required);
    check_default(a, s.attrs[i]);
  }

  REQUIRE(v.constraints.size() == s.constraints.size());
  for (std::size_t i = 0; i < s.constraints.size(); ++i) {
    const auto& name = s.constraints[i].first;
    const auto& types = s.constraints[i].second;
    CAPTURE(name);
    CHECK(v.constraints[i].name == name);
    std::set<std::string> expected,
        got(v.constraints[i].allowed.begin(), v.constraints[i].allowed.end());
    for (const auto& t : types) expected.insert(canonical_type_string(t));
    CHECK(got.size() == v.constraints[i].allowed.size());  // no type twice
    CHECK(join(got) == join(expected));
  }
}

std::string domain_name(const std::string& d) {
  return d.empty() ? "ai.onnx" : d;
}

}  // namespace

TEST_CASE("the registry holds every operator version of the Changelogs, as the spec defines it") {
  const fs::path spec = test::require_shared_dir("registry completeness") / "onnx-spec";
  std::vector<SpecVersion> versions = parse_changelog(spec / "Changelog.md");
  for (auto& v : parse_changelog(spec / "Changelog-ml.md")) versions.push_back(std::move(v));
  REQUIRE(versions.size() > 600);

  std::map<Key, const SpecVersion*> expected;
  for (const auto& v : versions) {
    CAPTURE(v.where);
    CHECK(expected.emplace(Key{v.domain, v.name, v.since}, &v).second);
  }

  const Registry& reg = Registry::standard();
  std::map<Key, const OpVersion*> registered;
  std::map<std::string, std::pair<int, int>> counts;  // domain -> operators, versions
  for (const OpDef* op : reg.all()) {
    ++counts[op->domain()].first;
    for (const OpVersion& v : op->versions()) {
      CHECK(v.domain == op->domain());
      CHECK(v.name == op->name());
      registered.emplace(Key{v.domain, v.name, v.since}, &v);
      ++counts[op->domain()].second;
    }
  }

  // Every version present, none invented.
  for (const auto& entry : expected) {
    const auto& key = entry.first;
    const auto& v = entry.second;
    CAPTURE(v->where);
    CHECK_MESSAGE(registered.count(key), "missing " << domain_name(std::get<0>(key)) << "."
                                                    << std::get<1>(key) << "-" << std::get<2>(key));
  }
  for (const auto& entry : registered)
    CHECK_MESSAGE(expected.count(entry.first), "not in the Changelogs: " << entry.second->id());

  int compared = 0;
  for (const auto& [key, s] : expected) {
    auto it = registered.find(key);
    if (it == registered.end()) continue;
    check_version(*it->second, *s);
    ++compared;
  }
  CHECK(compared == static_cast<int>(expected.size()));

  // The "Function" tables name each function operator's newest version and the opsets the spec
  // gives it bodies for.
  int functions = 0;
  for (const char* file : {"Operators.md", "Operators-ml.md"}) {
    for (const auto& entry : parse_function_tables(spec / file)) {
      const auto& op = entry.first;
      const auto& info = entry.second;
      CAPTURE(op.second);
      const OpDef* def = reg.find(op.first, op.second);
      REQUIRE(def != nullptr);
      std::vector<int> sinces;
      for (const auto& v : def->versions()) sinces.push_back(v.since);
      CHECK(sinces == info.first);
      const OpVersion& newest = def->versions().back();
      CHECK(newest.is_function);
      CHECK(newest.function_opsets == info.second);
      ++functions;
    }
  }
  CHECK(functions > 40);

  int total_ops = 0, total_versions = 0;
  for (const auto& [domain, c] : counts) {
    std::cout << "registry: " << domain_name(domain) << ": " << c.first << " operators, "
              << c.second << " versions\n";
    total_ops += c.first;
    total_versions += c.second;
  }
  std::cout << "registry: " << total_ops << " operators, " << total_versions << " versions ("
            << compared << " compared with the Changelogs), " << functions
            << " defined as functions\n";
}
