// SPDX-License-Identifier: Apache-2.0
// Adapters many operators share, to attach in their files:
//
//   op.at(13).upgrade(convert::attribute_to_input("axes", 1))
//       .downgrade(convert::input_to_attribute("axes", 1));
//   op.at(6).upgrade(convert::drop_attribute("consumed_inputs"));
//
// Each is an AdapterFn (core/registry/schema.h) built from a few parameters; what is particular
// to one operator is written in its own file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/registry/schema.h"

namespace onnxtool::convert {

// An int64 list attribute becomes input `index` (a constant); absent stays absent.
AdapterFn attribute_to_input(std::string attribute, std::size_t index);
// Input `index` becomes an int64 list attribute; refused when the input is not a constant.
// A scalar input becomes a one-element list unless `scalar` (then an int attribute).
AdapterFn input_to_attribute(std::string attribute, std::size_t index, bool scalar = false);
// An int attribute becomes a one-element int64 input (TopK's k), and back.
AdapterFn int_attribute_to_input(std::string attribute, std::size_t index);
// Going down to a version that accepted only non-negative axes: negative values of an int or
// ints attribute (or of a constant int64 input at `input`, when attribute is empty) become
// non-negative, counted from the rank of input 0 plus `rank_extra` (plus the number of axes
// when `per_axis`: Unsqueeze's output rank). Refused when a value is negative and the rank is
// not known.
AdapterFn nonnegative_axes(std::string attribute, int64_t rank_extra = 0, bool per_axis = false,
                           std::size_t input = 0);
// Renames an attribute (Pad's paddings -> pads).
AdapterFn rename_attribute(std::string from, std::string to);
// Refuses a node whose string attribute holds one of these values (a mode the version it goes
// to does not have).
AdapterFn refuse_values(std::string attribute, std::vector<std::string> values);
// A float attribute becomes a scalar input of the element type of input 0 (Clip's min/max), and
// back.
AdapterFn float_attribute_to_input(std::string attribute, std::size_t index);
AdapterFn input_to_float_attribute(std::string attribute, std::size_t index);

// An attribute the newer version no longer has, and that changes nothing when dropped
// (consumed_inputs: a hint of in-place updates).
AdapterFn drop_attribute(std::string attribute);
// The same for an attribute that only a given value keeps meaning the same; any other value
// has no equivalent.
AdapterFn drop_attribute_if(std::string attribute, int64_t keeps_meaning, std::string why);
// Going down to a version where an attribute did not exist: a node that leaves it out, or
// gives it `neutral`, converts; any other value has no equivalent.
AdapterFn remove_attribute_if(std::string attribute, int64_t neutral);
// Going down to a version that needs an attribute the newer one makes optional (or defaults
// differently): it is set to the value the newer version means when absent.
AdapterFn set_attribute_if_absent(std::string attribute, int64_t value);
// Both steps of a change that is only a wider or narrower set of types, where the signature
// check does the work: a no-op adapter with a description, for steps that must say what they
// check.
AdapterFn unchanged(std::string note);
// For every step of `op` where `attribute` (optional in the older version) disappears and no
// adapter is set: drop it going up; nothing to do going down. consumed_inputs, which the
// element-wise operators lost at opset 6, is the case.
void bridge_dropped_attribute(OpDef& op, const std::string& attribute);
// Several adapters in order.
AdapterFn all_of(std::vector<AdapterFn> adapters);

}  // namespace onnxtool::convert
