// SPDX-License-Identifier: Apache-2.0
// What changed between two adjacent versions of an operator, as their signatures tell it: the
// converter's test for steps that need no adapter.
//
// Two versions are compatible by signature when a node of one is a node of the other as it
// stands, or once what the newer version adds is left out:
//   - the same inputs and outputs (position, optional or variadic, arity), and the same
//     attributes (name, type, whether required, default);
//   - or the newer version extends the older with trailing optional inputs or outputs and
//     attributes that are optional or have a default (a node of the older version means the
//     same in the newer; going down, only a node that uses none of the additions, or gives an
//     attribute its default, converts);
//   - and in either case, type constraints that may differ: then each node's actual types must
//     be allowed by the version it goes to.
// Anything else (an attribute that became an input, a changed default, a removed attribute)
// needs an adapter in the operator's file, or a declared refusal.
#pragma once

#include <string>
#include <vector>

#include "core/registry/schema.h"

namespace onnxtool::convert {

struct SignatureChange {
  enum class Kind {
    same,        // identical signatures (types included)
    compatible,  // the newer extends the older, and/or type sets differ: checked per node
    different,   // needs an adapter
  };
  Kind kind = Kind::same;
  // For `compatible`: what the newer version adds.
  std::vector<std::size_t> added_inputs, added_outputs;  // positions
  std::vector<const AttrDef*> added_attributes;          // of the newer version
  bool types_differ = false;
  // For `different`: the first difference found, in words ("attribute axes became an input").
  std::string why;
};

SignatureChange compare_signatures(const OpVersion& older, const OpVersion& newer);

// Whether `wider` allows every type `narrower` does, for every formal parameter.
bool types_include(const OpVersion& wider, const OpVersion& narrower);

}  // namespace onnxtool::convert
