// SPDX-License-Identifier: Apache-2.0
// The one place operators are registered: the list in ops.def, expanded. (No static
// self-registration: a static library would drop objects nothing refers to.)
#include "ops/register_all.h"

namespace onnxtool {

namespace ops {
#define ONNXTOOL_OP(symbol, domain, op_type) void define_##symbol(OpDef& op);
#include "ops/ops.def"
#undef ONNXTOOL_OP
}  // namespace ops

void register_standard_ops([[maybe_unused]] Registry& registry) {
#define ONNXTOOL_OP(symbol, domain, op_type) ops::define_##symbol(registry.add(domain, op_type));
#include "ops/ops.def"
#undef ONNXTOOL_OP
}

}  // namespace onnxtool
