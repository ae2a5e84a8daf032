// SPDX-License-Identifier: Apache-2.0
// The non-template half of elementwise.h: broadcasting plans and checks, for kernels and for
// inference.
#include "ops/onnx/elementwise.h"

#include <algorithm>

#include "core/infer/helpers.h"

namespace onnxtool::ops::ew {

void fail_type(const KernelContext& ctx, DataType t) {
  ctx.fail("no kernel for element type " + std::string(type_name(t)));
}

namespace {

std::string shapes_text(std::span<const Shape* const> shapes) {
  std::string s;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    s += (i ? (i + 1 == shapes.size() ? " and " : ", ") : "") + shape_to_string(*shapes[i]);
  return s;
}

}  // namespace

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

namespace {

// The legacy rule on any kind of dim (int64_t for kernels, Dim for inference): where B's dims
// sit in A's, or an error message.
struct LegacyPlacement {
  bool broadcast = false;
  bool scalar = false;  // B has one element
  int64_t axis = 0;     // the A dim B's first dim sits at
  std::string error;
};

LegacyPlacement legacy_placement(const AttrView& attrs, std::size_t rank_a, std::size_t rank_b,
                                 bool one_element) {
  LegacyPlacement lp;
  lp.broadcast = attrs.get_int("broadcast", 0) != 0;
  if (!lp.broadcast) return lp;
  if (one_element && rank_b <= rank_a) {
    lp.scalar = true;
    return lp;
  }
  const auto ra = static_cast<int64_t>(rank_a), rb = static_cast<int64_t>(rank_b);
  int64_t axis = ra - rb;
  if (auto a = attrs.opt_int("axis")) axis = *a < 0 ? *a + ra : *a;
  if (rb > ra || axis < 0 || axis + rb > ra)
    lp.error = "B of rank " + std::to_string(rb) + " does not fit into A of rank " +
               std::to_string(ra) + " at axis " + std::to_string(axis);
  lp.axis = axis;
  return lp;
}

}  // namespace

Shape legacy_operand_shape(const KernelContext& ctx, const Shape& a, const Shape& b) {
  int64_t nb = 1;
  for (int64_t d : b) nb *= d;
  const LegacyPlacement lp = legacy_placement(ctx.attrs(), a.size(), b.size(), nb == 1);
  if (!lp.broadcast) {
    if (a != b)
      ctx.fail("A has shape " + shape_to_string(a) + " and B " + shape_to_string(b) +
               ": this version broadcasts only with broadcast=1");
    return b;
  }
  if (lp.scalar) return {};
  if (!lp.error.empty()) ctx.fail(lp.error);
  Shape aligned = b;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const int64_t da = a[static_cast<std::size_t>(lp.axis) + i];
    if (b[i] != da && b[i] != 1)
      ctx.fail("B's shape " + shape_to_string(b) + " does not match A's " + shape_to_string(a) +
               " from axis " + std::to_string(lp.axis));
  }
  aligned.resize(a.size() - static_cast<std::size_t>(lp.axis), 1);
  return aligned;
}

std::pair<Shape, Shape> operand_shapes(const KernelContext& ctx, const Tensor& a, const Tensor& b,
                                       Bcast mode) {
  if (mode == Bcast::legacy) return {a.shape(), legacy_operand_shape(ctx, a.shape(), b.shape())};
  if (mode == Bcast::none && a.shape() != b.shape())
    ctx.fail("inputs have shapes " + shape_to_string(a.shape()) + " and " +
             shape_to_string(b.shape()) + " (this version needs equal shapes)");
  return {a.shape(), b.shape()};
}

void require_same_type(const KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    ctx.fail("inputs have element types " + std::string(type_name(a.dtype())) + " and " +
             std::string(type_name(b.dtype())) + " (expected one type)");
}

Shape variadic_shape(const KernelContext& ctx, const std::vector<const Tensor*>& ins, Bcast mode) {
  std::vector<const Shape*> shapes;
  for (const Tensor* t : ins) shapes.push_back(&t->shape());
  if (mode != Bcast::none) return broadcast_shapes(ctx, shapes);
  for (const Shape* s : shapes)
    if (*s != *shapes[0])
      ctx.fail("inputs have shapes " + shapes_text(shapes) + " (this version needs equal shapes)");
  return *shapes[0];
}

// ---- inference -------------------------------------------------------------------------------

std::optional<Dims> legacy_output_dims(const InferContext& ctx) {
  const auto& a = ctx.input_type(0).shape;
  const auto& b = ctx.input_type(1).shape;
  if (!a || !b) {
    // Without broadcast=1 both have A's shape; with it, the output still has A's.
    return a ? a : (ctx.attrs().get_int("broadcast", 0) ? std::nullopt : b);
  }
  bool one_element = true;
  for (const Dim& d : *b) one_element = one_element && d.is_known() && d.value() == 1;
  const LegacyPlacement lp = legacy_placement(ctx.attrs(), a->size(), b->size(), one_element);
  if (!lp.broadcast) return unify_shapes(a, b, "A and B's shape");
  if (lp.scalar) return a;
  if (!lp.error.empty()) infer_fail(lp.error);
  for (std::size_t i = 0; i < b->size(); ++i) {
    const Dim& da = (*a)[static_cast<std::size_t>(lp.axis) + i];
    const Dim& db = (*b)[i];
    if (da.is_known() && db.is_known() && db.value() != da.value() && db.value() != 1)
      infer_fail("B's shape " + dims_to_string(*b) + " does not match A's " + dims_to_string(*a) +
                 " from axis " + std::to_string(lp.axis));
  }
  return a;
}

InferFn infer_binary(Bcast mode, int32_t out_elem, char values_op) {
  if (mode == Bcast::numpy)
    return out_elem ? broadcast_elementwise_to(out_elem, values_op)
                    : broadcast_elementwise(values_op);
  return [out_elem](InferContext& ctx) {
    const int32_t elem = unify_input_elem_types(ctx, {0, 1});
    set_output_tensor(ctx, 0, out_elem ? out_elem : elem, legacy_output_dims(ctx));
  };
}

InferFn infer_variadic(Bcast mode, char values_op) {
  if (mode != Bcast::none) return broadcast_elementwise(values_op);
  return [](InferContext& ctx) {
    const int32_t elem = unify_all_input_elem_types(ctx);
    std::optional<Dims> shape;
    for (std::size_t i = 0; i < ctx.num_inputs(); ++i)
      if (ctx.has_input(i))
        shape = unify_shapes(shape, ctx.input_type(i).shape, "the inputs' shape");
    set_output_tensor(ctx, 0, elem, shape);
  };
}

bool is_integer_elem(int32_t elem) {
  const auto t = data_type_from_int(elem);
  return t && *t != DataType::undefined && is_integer(*t);
}

}  // namespace onnxtool::ops::ew
