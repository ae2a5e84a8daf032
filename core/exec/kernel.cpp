// SPDX-License-Identifier: Apache-2.0
#include "core/exec/kernel.h"

namespace onnxtool {

const Tensor& KernelContext::input(std::size_t i) const {
  if (i >= num_inputs() || !has_input(i))
    fail("input " + std::to_string(i) + " is required but missing");
  const Value& v = input_value(i);
  if (!v.is_tensor()) fail("input " + std::to_string(i) + " must be a tensor, got " + v.describe());
  return v.tensor();
}

void KernelContext::fail(const std::string& message) const {
  throw KernelFailure{message};
}

}  // namespace onnxtool
