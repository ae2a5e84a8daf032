// SPDX-License-Identifier: Apache-2.0
#include "core/exec/kernel.h"

#include "core/infer/type.h"
#include "onnx.pb.h"

namespace onnxtool {

const Tensor& KernelContext::input(std::size_t i) const {
  if (i >= num_inputs() || !has_input(i))
    fail("input " + std::to_string(i) + " is required but missing");
  const Value& v = input_value(i);
  if (!v.is_tensor()) fail("input " + std::to_string(i) + " must be a tensor, got " + v.describe());
  return v.tensor();
}

std::byte* KernelContext::scratch_bytes(std::size_t bytes) {
  scratch_.push_back(Storage::allocate(bytes, Storage::Fill::none));
  return scratch_.back()->writable_data();
}

const Tensor* PrepareContext::constant_tensor(std::size_t i) const {
  const Value* v = constant_input(i);
  return v && v->is_tensor() ? &v->tensor() : nullptr;
}

std::optional<Shape> known_shape(const Type& type) {
  if (!type.is_tensor() || !type.has_shape()) return std::nullopt;
  Shape shape;
  for (const Dim& d : *type.shape) {
    if (!d.is_known()) return std::nullopt;
    shape.push_back(d.value());
  }
  return shape;
}

std::optional<Shape> PrepareContext::static_shape(std::size_t i) const {
  if (const Tensor* t = constant_tensor(i)) return t->shape();
  const Type* type = input_type(i);
  return type ? known_shape(*type) : std::nullopt;
}

std::size_t NodeInfo::listed_outputs() const {
  return static_cast<std::size_t>(node().output_size());
}

bool NodeInfo::names_output(std::size_t i) const {
  return i < listed_outputs() && !node().output(static_cast<int>(i)).empty();
}

void NodeInfo::fail(const std::string& message) const {
  throw KernelFailure{message};
}

}  // namespace onnxtool
