// SPDX-License-Identifier: Apache-2.0
// Moving whole slices of tensors along one axis, for any element type: what the control-flow
// kernels (Loop and Scan stack per-iteration results, Scan slices its inputs) need, and what
// other data-movement kernels may reuse.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types/tensor.h"

namespace onnxtool {

// x with dimension `axis` removed, taking index `index` along it (0 <= axis < rank,
// 0 <= index < dim). Throws Error(invalid) otherwise.
Tensor slice_along(const Tensor& x, int64_t axis, int64_t index);

// The items (same type and shape S) stacked along a new dimension inserted at `axis`
// (0 <= axis <= rank of S): the result has shape S with items.size() inserted at axis.
// With no items, gives a tensor of `type` with shape `empty_shape` (callers know it).
// Throws Error(invalid) when the items disagree in type or shape.
Tensor stack_along(const std::vector<Tensor>& items, int64_t axis,
                   DataType type = DataType::float32, const Shape& empty_shape = {0});

// The tensor's single element as int64 / bool (any integer or bool type; fails otherwise).
// Throws Error(invalid) when the tensor does not hold exactly one element.
int64_t scalar_int(const Tensor& t, const char* what);
bool scalar_bool(const Tensor& t, const char* what);

}  // namespace onnxtool
