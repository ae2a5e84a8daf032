// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"

namespace onnxtool::app {

std::vector<CommandAdder> all_command_adders() {
  return {&add_check,   &add_info,        &add_run,      &add_test,    &add_shape_infer,
          &add_convert, &add_compare,     &add_diff,     &add_extract, &add_simplify,
          &add_ops,     &add_completions, &add_man_pages};
}

}  // namespace onnxtool::app
