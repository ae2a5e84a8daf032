// SPDX-License-Identifier: Apache-2.0
#include "core/registry/fusion.h"

#include <utility>

#include "core/registry/attrs.h"

namespace onnxtool {

namespace {

// An epilogue from its kind and params attributes (none when absent or malformed, or, with
// `clamps_only`, of a kind the kernels do not apply in their registers).
kernels::Epilogue activation_from(const AttrView& attrs, const char* kind_attribute,
                                  const char* params_attribute, bool clamps_only) {
  kernels::Epilogue e;
  if (!attrs.has(kind_attribute)) return e;
  const int64_t kind = attrs.get_int(kind_attribute, 0);
  const std::vector<float> params = attrs.get_floats(params_attribute, {});
  if (params.size() != 3) return e;
  const auto last = clamps_only ? kernels::Epilogue::Kind::leaky : kernels::Epilogue::Kind::swish;
  if (kind < static_cast<int64_t>(kernels::Epilogue::Kind::clamp) ||
      kind > static_cast<int64_t>(last))
    return e;
  e.kind = static_cast<kernels::Epilogue::Kind>(kind);
  e.lo = params[0];
  e.hi = params[1];
  e.alpha = params[2];
  return e;
}

}  // namespace

kernels::Epilogue epilogue_of(const AttrView& attrs) {
  return activation_from(attrs, kEpilogueKindAttribute, kEpilogueParamsAttribute, false);
}

InputTransform input_transform_of(const AttrView& attrs) {
  InputTransform t;
  if (!attrs.has(kInputScaleAttribute)) return t;
  std::vector<float> scale = attrs.get_floats(kInputScaleAttribute, {});
  std::vector<float> shift = attrs.get_floats(kInputShiftAttribute, {});
  if (scale.empty() || scale.size() != shift.size()) return t;
  t.scale = std::move(scale);
  t.shift = std::move(shift);
  t.activation =
      activation_from(attrs, kInputActivationAttribute, kInputActivationParamsAttribute, true);
  return t;
}

namespace {

// The input index a fusion recorded in `attribute`; -1 when there is none (or it is negative).
int64_t fused_input_index(const AttrView& attrs, const char* attribute) {
  if (!attrs.has(attribute)) return -1;
  const int64_t index = attrs.get_int(attribute, -1);
  return index >= 0 ? index : -1;
}

}  // namespace

int64_t residual_input_of(const AttrView& attrs) {
  return fused_input_index(attrs, kResidualInputAttribute);
}

int64_t dequantized_inputs_of(const AttrView& attrs) {
  return fused_input_index(attrs, kDequantizedInputsAttribute);
}

bool channels_last_input_of(const AttrView& attrs) {
  return attrs.has(kChannelsLastInputAttribute) &&
         attrs.get_int(kChannelsLastInputAttribute, 0) == 1;
}

bool channels_last_output_of(const AttrView& attrs) {
  return attrs.has(kChannelsLastOutputAttribute) &&
         attrs.get_int(kChannelsLastOutputAttribute, 0) == 1;
}

int64_t scaled_output_of(const AttrView& attrs) {
  return fused_input_index(attrs, kScaledOutputAttribute);
}

}  // namespace onnxtool
