// SPDX-License-Identifier: Apache-2.0
#include "core/infer/context.h"

#include "core/infer/helpers.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

namespace onnxtool {

bool InferContext::input_is_tensor_with_shape(std::size_t i) const {
  const Type& t = input_type(i);
  return t.is_tensor() && t.has_shape();
}

int32_t InferContext::input_elem_type(std::size_t i) const {
  const Type& t = input_type(i);
  return (t.kind == Type::Kind::tensor || t.kind == Type::Kind::sparse_tensor) ? t.elem : 0;
}

int64_t InferContext::input_rank(std::size_t i) const {
  return input_type(i).rank();
}

int64_t InferContext::normalize_axis(int64_t axis, int64_t rank, const char* what) const {
  if (axis < -rank || axis >= rank)
    fail(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
         std::to_string(rank) + " (expected " + std::to_string(-rank) + ".." +
         std::to_string(rank - 1) + ")");
  return axis < 0 ? axis + rank : axis;
}

const Type& InferContext::output_type(std::size_t) const {
  static const Type kUnknown;
  return kUnknown;
}

std::optional<Tensor> InferContext::tensor_attribute(std::string_view name) const {
  const onnx::TensorProto* t = attrs().tensor(name);
  if (!t) return std::nullopt;
  try {
    return tensor_from_proto(*t);
  } catch (const std::exception&) {
    return std::nullopt;  // a malformed tensor is the checker's finding, not inference's
  }
}

void InferContext::set_output_constant(std::size_t, const Tensor&) {}

void InferContext::infer_unreachable_graph(const onnx::GraphProto& graph) {
  infer_graph(graph, {});
}

Dim InferContext::unify_dims(const Dim& a, const Dim& b, const std::string& what) {
  return unify_dim(a, b, what);
}

void InferContext::explain(std::size_t, const std::string&) {}

}  // namespace onnxtool
