// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"

namespace onnxtool::app {

std::vector<CommandAdder> all_command_adders() {
  return {&add_info, &add_completions};
}

}  // namespace onnxtool::app
