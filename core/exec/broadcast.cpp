// SPDX-License-Identifier: Apache-2.0
#include "core/exec/broadcast.h"

namespace onnxtool {

std::string shapes_text(std::span<const Shape* const> shapes) {
  std::string s;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    s += (i ? (i + 1 == shapes.size() ? " and " : ", ") : "") + shape_to_string(*shapes[i]);
  return s;
}

Shape broadcast_shapes(const KernelContext& ctx, std::span<const Shape* const> shapes) {
  std::size_t rank = 0;
  for (const Shape* s : shapes) rank = std::max(rank, s->size());
  Shape out(rank, 1);
  for (const Shape* s : shapes) {
    const std::size_t lead = rank - s->size();
    for (std::size_t d = 0; d < s->size(); ++d) {
      const int64_t dim = (*s)[d];
      int64_t& o = out[lead + d];
      if (dim == o || dim == 1) continue;
      if (o != 1)
        ctx.fail("inputs of shapes " + shapes_text(shapes) + " do not broadcast: dimension " +
                 std::to_string(lead + d) + " is " + std::to_string(o) + " in one and " +
                 std::to_string(dim) + " in another (each must be equal or 1)");
      o = dim;
    }
  }
  return out;
}

Broadcast plan_broadcast(const Shape& out, std::span<const Shape* const> inputs) {
  Broadcast p;
  p.shape = out;
  p.numel = 1;
  for (int64_t d : out) p.numel *= d;
  const std::size_t rank = out.size(), n = inputs.size();
  // Each input's element stride along each output dim, 0 where it is broadcast.
  std::vector<std::vector<int64_t>> full(n, std::vector<int64_t>(rank, 0));
  for (std::size_t k = 0; k < n; ++k) {
    const Shape& s = *inputs[k];
    int64_t stride = 1;
    for (std::size_t d = s.size(); d-- > 0;) {
      full[k][rank - s.size() + d] = s[d] == 1 ? 0 : stride;
      stride *= s[d];
    }
  }
  p.strides.assign(n, {});
  for (std::size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    // Merge with the previous dim when every input steps through both as through one.
    bool merge = !p.dims.empty();
    for (std::size_t k = 0; k < n && merge; ++k) merge = p.strides[k].back() == full[k][d] * out[d];
    if (merge) {
      p.dims.back() *= out[d];
      for (std::size_t k = 0; k < n; ++k) p.strides[k].back() = full[k][d];
    } else {
      p.dims.push_back(out[d]);
      for (std::size_t k = 0; k < n; ++k) p.strides[k].push_back(full[k][d]);
    }
  }
  if (p.dims.empty()) {  // a scalar (or all-ones) output: one row of one element
    p.dims.push_back(1);
    for (auto& s : p.strides) s.push_back(0);
  }
  return p;
}

}  // namespace onnxtool
