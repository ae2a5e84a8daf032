// SPDX-License-Identifier: Apache-2.0
// The non-template half of elementwise.h: broadcasting plans and checks, for kernels and for
// inference.
#include "ops/onnx/elementwise.h"

#include <algorithm>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "onnx.pb.h"

namespace onnxtool::ops::ew {

void fail_type(const KernelContext& ctx, DataType t) {
  ctx.fail("no kernel for element type " + std::string(type_name(t)));
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

// ---- version adapters: legacy broadcasting (to opset 6) and numpy's (from 7) -------------

// The dims of an input when shape inference knew every one of them.
std::optional<std::vector<int64_t>> known_dims(const AdapterContext& ctx, std::size_t input) {
  const Type* t = ctx.input_type(input);
  if (!t || !t->shape) return std::nullopt;
  std::vector<int64_t> dims;
  for (const Dim& d : *t->shape) {
    if (!d.is_known()) return std::nullopt;
    dims.push_back(d.value());
  }
  return dims;
}

namespace {

int64_t rank_of(const AdapterContext& ctx, std::size_t input) {
  const Type* t = ctx.input_type(input);
  return t ? t->rank() : -1;
}

}  // namespace

// Up to 7: broadcast=1 stretched B over A's dims from `axis` on (by default its last dims);
// numpy aligns the last dims, so B gets trailing 1s when axis puts it earlier.
void legacy_to_numpy_broadcast(AdapterContext& ctx) {
  const int64_t broadcast = ctx.int_attribute("broadcast").value_or(0);
  const auto axis = ctx.int_attribute("axis");
  ctx.remove_attribute("broadcast");
  ctx.remove_attribute("axis");
  if (broadcast == 0) {
    ctx.describe("broadcast=0 (same shapes) dropped");
    return;
  }
  const int64_t rank_a = rank_of(ctx, 0), rank_b = rank_of(ctx, 1);
  if (!axis) {
    ctx.describe("broadcast=1 over the last dims: numpy broadcasting says the same");
    return;
  }
  if (rank_a < 0 || rank_b < 0)
    ctx.refuse("broadcast=1 with axis=" + std::to_string(*axis) +
               " needs the ranks of both inputs, and shape inference does not know them");
  const int64_t start = *axis < 0 ? *axis + rank_a : *axis;
  const int64_t trailing = rank_a - start - rank_b;
  if (start < 0 || trailing < 0)
    ctx.refuse("axis=" + std::to_string(*axis) + " does not place B inside A");
  if (trailing == 0) {
    ctx.describe("broadcast=1, axis=" + std::to_string(*axis) + ": B already ends A's dims");
    return;
  }
  std::vector<int64_t> axes;
  for (int64_t k = 0; k < trailing; ++k) axes.push_back(rank_b + k);
  onnx::NodeProto unsqueeze;
  unsqueeze.set_op_type("Unsqueeze");
  unsqueeze.add_input(ctx.input(1));
  const std::string out = ctx.fresh_name(ctx.input(1) + "_aligned");
  unsqueeze.add_output(out);
  auto* a = unsqueeze.add_attribute();
  a->set_name("axes");
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : axes) a->add_ints(v);
  ctx.insert_before(std::move(unsqueeze));
  ctx.set_input(1, out);
  ctx.describe("broadcast=1, axis=" + std::to_string(*axis) + ": B unsqueezed with " +
               std::to_string(trailing) + " trailing dims for numpy broadcasting");
}

// Down to 6: the same shapes need nothing; B matching A's last dims is broadcast=1; any other
// numpy broadcasting has no equivalent.
void numpy_to_legacy_broadcast(AdapterContext& ctx) {
  const auto a = known_dims(ctx, 0), b = known_dims(ctx, 1);
  if (!a || !b)
    ctx.refuse("opset 6 broadcasts only B over A's last dims, and the input shapes are not known");
  if (*a == *b) return;
  // B stretched over A's last dims (its dims equal to A's, or 1): the output keeps A's shape,
  // which is what broadcast=1 computes.
  bool suffix = b->size() <= a->size();
  for (std::size_t k = 0; suffix && k < b->size(); ++k) {
    const int64_t bd = (*b)[b->size() - 1 - k], ad = (*a)[a->size() - 1 - k];
    suffix = bd == ad || bd == 1;
  }
  if (!suffix)
    ctx.refuse("numpy broadcasting of these shapes has no equivalent before opset 7, which " +
               std::string("broadcasts only B over A's last dims"));
  ctx.set_attribute("broadcast", int64_t{1});
  ctx.describe("broadcast=1 (B over A's last dims)");
}

}  // namespace onnxtool::ops::ew
