// SPDX-License-Identifier: Apache-2.0
// A structural diff of two models (onnxtool diff): what changed between two exports of the same
// network, with renamed values read as renames rather than as everything downstream changing.
//
// Matching, graph by graph:
//   - graph inputs by name, then by position among those left; initializers by name;
//   - nodes by name (when unique in both), then in A's order by signature: same domain and
//     operator, and inputs that are the same values (through the matches made so far, so a
//     renamed value does not break it; two initializers not yet matched match here); what is
//     left pairs by position among the nodes of the same operator;
//   - the outputs of two matched nodes match position by position: a value whose name differs
//     is a rename, and what reads it is not a change;
//   - subgraphs of matched nodes are diffed the same way, seeing the outer matches.
// Initializers that match compare type, shape and, unless ignored, values (max abs difference,
// relative L2, cosine), one tensor pair in memory at a time (external data mapped).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/model.h"

namespace onnxtool {

struct DiffOptions {
  bool ignore_names = false;    // renames of values, nodes and graphs are not differences
  bool ignore_weights = false;  // initializer values are not compared (type and shape still are)
};

struct WeightDelta {
  int64_t elements = 0, differing = 0;
  double max_abs = 0;
  double relative_l2 = 0;  // |b - a| / |a|
  double cosine = 1;
};

struct DiffEntry {
  DiffEntry() = default;
  DiffEntry(std::string section_, std::string change_, std::string a_, std::string b_,
            std::vector<std::string> details_ = {})
      : section(std::move(section_)),
        change(std::move(change_)),
        a(std::move(a_)),
        b(std::move(b_)),
        details(std::move(details_)) {}

  // header, opset, input, output, node, value, initializer, value_info, function
  std::string section;
  std::string change;  // added, removed, changed, renamed
  std::string a, b;    // the thing in each model ("" where it is absent): a location or a name
  std::vector<std::string> details;  // what changed: "attribute pads: [1,1,1,1] -> [0,0,0,0]"
  std::optional<WeightDelta> weights;
  std::string scope;  // "" for the main graph; else the subgraph, as located in A
};

struct ModelDiff {
  std::vector<DiffEntry> entries;
  bool equal() const { return entries.empty(); }
  // How many entries of a section and change ("" matches any).
  std::size_t count(const std::string& section, const std::string& change = "") const;
};

// Throws Error when a tensor cannot be read (malformed, external data missing).
ModelDiff diff_models(const Model& a, const Model& b, const DiffOptions& options = {});

}  // namespace onnxtool
