// SPDX-License-Identifier: Apache-2.0
// Every adjacent pair of versions of every registered operator, in both directions, is either
// bridged by an adapter in the operator's file, compatible by signature (the converter checks
// each node's attributes, optional parameters and types), or refused with a reason. The steps
// still missing an adapter are listed in convert_missing_steps.txt: the test fails on a missing
// step that is not listed, and on a listed one that is no longer missing (the list only
// shrinks).
#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/convert/signature.h"
#include "core/registry/registry.h"
#include "tests/support/support.h"

using namespace onnxtool;

namespace {

enum class How { adapter, compatible, refused, missing };

How classify(const OpVersion& older, const OpVersion& newer, bool up) {
  if (up ? bool(newer.upgrade) : bool(newer.downgrade)) return How::adapter;
  if (!(up ? newer.upgrade_refusal : newer.downgrade_refusal).empty()) return How::refused;
  // A deprecated version has no nodes to step down from, and nothing steps up into it but a
  // replacement (an adapter) or a refusal.
  if (newer.deprecated) return up ? How::missing : How::compatible;
  if (older.deprecated) return How::refused;
  const auto c = convert::compare_signatures(older, newer);
  return c.kind == convert::SignatureChange::Kind::different ? How::missing : How::compatible;
}

}  // namespace

TEST_CASE(
    "every version step of every operator has an adapter, a compatible signature, or a "
    "refusal") {
  std::map<How, int> counts;
  std::vector<std::string> missing;
  int steps = 0;
  for (const OpDef* def : Registry::standard().all()) {
    const auto& versions = def->versions();
    for (std::size_t i = 1; i < versions.size(); ++i) {
      for (bool up : {true, false}) {
        ++steps;
        const How how = classify(versions[i - 1], versions[i], up);
        ++counts[how];
        if (how == How::missing) {
          const auto c = convert::compare_signatures(versions[i - 1], versions[i]);
          missing.push_back(versions[i - 1].id() + (up ? " -> " : " <- ") + versions[i].id() +
                            ": " + (versions[i].deprecated ? "deprecated" : c.why));
        }
      }
    }
  }
  std::cout << "version steps: " << steps << " (" << counts[How::adapter] << " by an adapter, "
            << counts[How::compatible] << " compatible by signature, " << counts[How::refused]
            << " refused with a reason, " << counts[How::missing] << " missing)\n";
  std::set<std::string> listed;
  std::ifstream in(test::source_dir() / "tests" / "unit" / "convert_missing_steps.txt");
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') listed.insert(line);
  for (const auto& m : missing) {
    const std::string step = m.substr(0, m.find(':'));
    if (!listed.erase(step)) FAIL_CHECK("missing an adapter, and not listed: " << m);
  }
  for (const auto& step : listed)
    FAIL_CHECK("listed as missing, but it has an adapter now (remove it from the list): " << step);
}
