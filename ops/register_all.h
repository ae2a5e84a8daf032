// SPDX-License-Identifier: Apache-2.0
// Fills a registry with every standard operator (the list in ops/ops.def). A program installs it
// once at start: Registry::install_standard(register_standard_ops).
#pragma once

#include "core/registry/registry.h"

namespace onnxtool {

void register_standard_ops(Registry& registry);

}  // namespace onnxtool
