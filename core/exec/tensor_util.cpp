// SPDX-License-Identifier: Apache-2.0
#include "core/exec/tensor_util.h"

#include <cstring>

#include "core/diag/error.h"

namespace onnxtool {

namespace {

[[noreturn]] void bad(const std::string& message) {
  throw_invalid("exec.bad-tensor", "", "", message);
}

// Elements before `axis` (outer) and from `axis` on (inner), for a shape.
int64_t product(const Shape& s, std::size_t from, std::size_t to) {
  int64_t n = 1;
  for (std::size_t i = from; i < to; ++i) n *= s[i];
  return n;
}

// Copies `count` elements from src[src_at] to dst[dst_at] (element indices), any type.
void copy_elements(const Tensor& src, int64_t src_at, Tensor& dst, int64_t dst_at, int64_t count) {
  if (count <= 0) return;
  if (src.dtype() == DataType::string) {
    const auto& from = src.strings();
    auto& to = dst.mutable_strings();
    for (int64_t i = 0; i < count; ++i)
      to[static_cast<std::size_t>(dst_at + i)] = from[static_cast<std::size_t>(src_at + i)];
    return;
  }
  const auto width = static_cast<std::size_t>(type_info(src.dtype()).mem_bytes);
  std::memcpy(dst.mutable_raw() + static_cast<std::size_t>(dst_at) * width,
              src.raw() + static_cast<std::size_t>(src_at) * width,
              static_cast<std::size_t>(count) * width);
}

}  // namespace

Tensor slice_along(const Tensor& x, int64_t axis, int64_t index) {
  if (axis < 0 || axis >= x.rank())
    bad("axis " + std::to_string(axis) + " is out of range for shape " +
        shape_to_string(x.shape()));
  const auto a = static_cast<std::size_t>(axis);
  const int64_t dim = x.shape()[a];
  if (index < 0 || index >= dim)
    bad("index " + std::to_string(index) + " is out of range for dimension " +
        std::to_string(axis) + " of shape " + shape_to_string(x.shape()));
  Shape out_shape = x.shape();
  out_shape.erase(out_shape.begin() + axis);
  const int64_t outer = product(x.shape(), 0, a);
  const int64_t inner = product(x.shape(), a + 1, x.shape().size());
  Tensor out(x.dtype(), out_shape);
  for (int64_t o = 0; o < outer; ++o)
    copy_elements(x, (o * dim + index) * inner, out, o * inner, inner);
  return out;
}

Tensor stack_along(const std::vector<Tensor>& items, int64_t axis, DataType type,
                   const Shape& empty_shape) {
  if (items.empty()) return Tensor(type, empty_shape);
  const Tensor& first = items.front();
  if (axis < 0 || axis > first.rank())
    bad("axis " + std::to_string(axis) + " is out of range for stacking shape " +
        shape_to_string(first.shape()));
  for (const auto& t : items)
    if (t.dtype() != first.dtype() || t.shape() != first.shape())
      bad("cannot stack " + std::string(type_name(t.dtype())) + shape_to_string(t.shape()) +
          " with " + std::string(type_name(first.dtype())) + shape_to_string(first.shape()) +
          ": every iteration must give the same type and shape");
  const auto a = static_cast<std::size_t>(axis);
  Shape out_shape = first.shape();
  const auto n = static_cast<int64_t>(items.size());
  out_shape.insert(out_shape.begin() + axis, n);
  Tensor out(first.dtype(), out_shape);
  const int64_t outer = product(first.shape(), 0, a);
  const int64_t inner = product(first.shape(), a, first.shape().size());
  for (int64_t k = 0; k < n; ++k)
    for (int64_t o = 0; o < outer; ++o)
      copy_elements(items[static_cast<std::size_t>(k)], o * inner, out, (o * n + k) * inner, inner);
  return out;
}

int64_t scalar_int(const Tensor& t, const char* what) {
  if (t.numel() != 1)
    bad(std::string(what) + " must hold one element, got shape " + shape_to_string(t.shape()));
  switch (t.dtype()) {
    case DataType::int64:
      return t.data<int64_t>()[0];
    case DataType::int32:
      return t.data<int32_t>()[0];
    case DataType::int16:
      return t.data<int16_t>()[0];
    case DataType::int8:
      return t.data<int8_t>()[0];
    case DataType::uint8:
      return t.data<uint8_t>()[0];
    case DataType::uint16:
      return t.data<uint16_t>()[0];
    case DataType::uint32:
      return t.data<uint32_t>()[0];
    case DataType::uint64:
      return static_cast<int64_t>(t.data<uint64_t>()[0]);
    case DataType::boolean:
      return t.data<bool>()[0] ? 1 : 0;
    default:
      bad(std::string(what) + " must be an integer, got " + std::string(type_name(t.dtype())));
  }
}

bool scalar_bool(const Tensor& t, const char* what) {
  return scalar_int(t, what) != 0;
}

}  // namespace onnxtool
