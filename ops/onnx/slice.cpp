// SPDX-License-Identifier: Apache-2.0
// Slice: the ai.onnx operator.
#include <climits>
#include <numeric>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// One axis of a slice, clamped as Slice-10+ (and Slice-1, with step 1) do: negative indices
// count from the end; with a positive step start and end are clamped to [0, dim], with a
// negative one start to [0, dim-1] and end to [-1, dim-1].
struct AxisSlice {
  int64_t start = 0, count = 0, step = 1;
};

AxisSlice clamp_axis(int64_t dim, int64_t start, int64_t end, int64_t step) {
  AxisSlice s;
  s.step = step;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    if (end > start) s.count = (end - start - 1) / step + 1;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    if (start > end) s.count = (start - end - 1) / (step == INT64_MIN ? INT64_MAX : -step) + 1;
  }
  s.start = s.count > 0 ? start : 0;
  return s;
}

// The slice's arguments as the version takes them: attributes (1) or inputs (10+); nullopt
// entries when not known. Absent axes mean the first n axes, absent steps 1.
struct SliceArgs {
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
};

SliceArgs infer_args(const InferContext& ctx) {
  SliceArgs a;
  if (since(ctx) < 10) {
    a.starts = ctx.attrs().get_ints("starts");
    a.ends = ctx.attrs().get_ints("ends");
    a.axes = ctx.attrs().opt_ints("axes");
    return a;
  }
  a.starts = input_ints(ctx, 1);
  a.ends = input_ints(ctx, 2);
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) a.axes = input_ints(ctx, 3);
  if (ctx.num_inputs() > 4 && ctx.has_input(4)) a.steps = input_ints(ctx, 4);
  return a;
}

bool has_input(const InferContext& ctx, std::size_t i) {
  return ctx.num_inputs() > i && ctx.has_input(i);
}

// Fills defaults and checks lengths; false when something needed is unknown.
bool complete(const InferContext& ctx, SliceArgs& a, int64_t rank) {
  const bool axes_given = since(ctx) < 10 ? ctx.attrs().has("axes") : has_input(ctx, 3);
  const bool steps_given = since(ctx) >= 10 && has_input(ctx, 4);
  if (!a.starts || !a.ends || (axes_given && !a.axes) || (steps_given && !a.steps)) return false;
  const std::size_t n = a.starts->size();
  if (a.ends->size() != n)
    infer_fail("starts has " + std::to_string(n) + " entries but ends has " +
               std::to_string(a.ends->size()));
  if (!axes_given) {
    a.axes = std::vector<int64_t>(n);
    std::iota(a.axes->begin(), a.axes->end(), 0);
  }
  if (!steps_given) a.steps = std::vector<int64_t>(n, 1);
  if (a.axes->size() != n || a.steps->size() != n)
    infer_fail("starts, ends, axes and steps must have the same length");
  a.axes = infer_axes(*a.axes, rank, since(ctx) >= 11);
  return true;
}

// Unknown starts or ends: the rank stays, and so do the dims no known axis touches.
Dims unknown_slice(const InferContext& ctx, const Dims& in, const SliceArgs& a) {
  const auto rank = static_cast<int64_t>(in.size());
  std::optional<std::vector<int64_t>> axes = a.axes;
  if (!axes && !(since(ctx) < 10 ? ctx.attrs().has("axes") : has_input(ctx, 3))) {
    const Dims* s = since(ctx) >= 10 ? input_shape(ctx, 1) : nullptr;
    if (s && s->size() == 1 && (*s)[0].is_known()) {
      axes = std::vector<int64_t>(static_cast<std::size_t>((*s)[0].value()));
      std::iota(axes->begin(), axes->end(), 0);
    }
  }
  if (!axes) return Dims(in.size());
  Dims out = in;
  for (int64_t ax : infer_axes(*axes, rank, since(ctx) >= 11))
    out[static_cast<std::size_t>(ax)] = Dim();
  return out;
}

void infer_slice(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  SliceArgs a = infer_args(ctx);
  if (!complete(ctx, a, static_cast<int64_t>(in->size()))) {
    set_output_tensor(ctx, 0, elem, unknown_slice(ctx, *in, a));
    ctx.explain(0, "the slice's starts, ends, axes or steps are not known");
    return;
  }
  Dims out = *in;
  for (std::size_t i = 0; i < a.axes->size(); ++i) {
    const auto ax = static_cast<std::size_t>((*a.axes)[i]);
    if ((*a.steps)[i] == 0) infer_fail(indexed("steps", i) + " is 0");
    out[ax] = slice_length((*in)[ax], (*a.starts)[i], (*a.ends)[i], (*a.steps)[i]);
  }
  set_output_tensor(ctx, 0, elem, out);
  const auto values = input_dims_values(ctx, 0);
  if (values && in->size() == 1 && a.axes->size() == 1)
    set_values(ctx, 0, slice_values(*values, a.starts->at(0), a.ends->at(0), a.steps->at(0)),
               false);
}

// The kernel's arguments, concrete.
SliceArgs kernel_args(const KernelContext& ctx, int64_t rank) {
  SliceArgs a;
  const bool v1 = since(ctx) < 10;
  a.starts = v1 ? ctx.attrs().get_ints("starts") : read_ints(ctx, ctx.input(1), "starts");
  a.ends = v1 ? ctx.attrs().get_ints("ends") : read_ints(ctx, ctx.input(2), "ends");
  const std::size_t n = a.starts->size();
  if (a.ends->size() != n)
    ctx.fail("starts has " + std::to_string(n) + " entries but ends has " +
             std::to_string(a.ends->size()));
  if (v1 && ctx.attrs().has("axes"))
    a.axes = ctx.attrs().get_ints("axes");
  else if (!v1 && ctx.num_inputs() > 3 && ctx.has_input(3))
    a.axes = read_ints(ctx, ctx.input(3), "axes");
  if (!a.axes) {
    a.axes = std::vector<int64_t>(n);
    std::iota(a.axes->begin(), a.axes->end(), 0);
  }
  a.steps = !v1 && ctx.num_inputs() > 4 && ctx.has_input(4) ? read_ints(ctx, ctx.input(4), "steps")
                                                            : std::vector<int64_t>(n, 1);
  if (a.axes->size() != n || a.steps->size() != n)
    ctx.fail("starts, ends, axes and steps must have the same length (" + std::to_string(n) + ", " +
             std::to_string(a.ends->size()) + ", " + std::to_string(a.axes->size()) + ", " +
             std::to_string(a.steps->size()) + ")");
  a.axes = kernel_axes(ctx, *a.axes, rank, since(ctx) >= 11);
  return a;
}

// A slice is one strided copy: the start offsets the source, each step scales its stride.
void slice_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const SliceArgs a = kernel_args(ctx, x.rank());
  Shape out = x.shape();
  const auto in_strides = contiguous_strides(x.shape());
  Layout from{0, in_strides};
  for (std::size_t i = 0; i < a.axes->size(); ++i) {
    const auto ax = static_cast<std::size_t>((*a.axes)[i]);
    const int64_t step = (*a.steps)[i];
    if (step == 0) ctx.fail(indexed("steps", i) + " is 0");
    const AxisSlice s = clamp_axis(x.shape()[ax], (*a.starts)[i], (*a.ends)[i], step);
    out[ax] = s.count;
    from.offset += s.start * in_strides[ax];
    // A dim of one element is never stepped over: its stride may stay (and not overflow).
    from.strides[ax] = s.count > 1 ? in_strides[ax] * step : in_strides[ax];
  }
  Tensor& y = ctx.output(0, x.dtype(), out);
  strided_copy(x, from, y, Layout{0, contiguous_strides(out)}, out, &ctx);
}

// Going down to Slice-1: steps have no equivalent there unless every one is 1.
void slice_steps_all_one(AdapterContext& ctx) {
  if (!ctx.has_input(4)) {
    if (ctx.num_inputs() > 4) ctx.truncate_inputs(4);
    return;
  }
  const auto steps = ctx.constant_input(4);
  bool ones = steps.has_value() && steps->dtype() == DataType::int64;
  for (int64_t i = 0; ones && i < steps->numel(); ++i) ones = steps->data<int64_t>()[i] == 1;
  if (!ones) ctx.refuse("steps other than 1 have no equivalent in " + ctx.to().id());
  ctx.truncate_inputs(4);
  ctx.describe("steps (all 1) dropped");
}

}  // namespace

void define_Slice(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axes", AttrType::ints)
      .attr_required("ends", AttrType::ints)
      .attr_required("starts", AttrType::ints)
      .input("data", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(10)
      .input("data", "T")
      .input("starts", "Tind")
      .input("ends", "Tind")
      .input_optional("axes", "Tind")
      .input_optional("steps", "Tind")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(11)
      .input("data", "T")
      .input("starts", "Tind")
      .input("ends", "Tind")
      .input_optional("axes", "Tind")
      .input_optional("steps", "Tind")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(13)
      .input("data", "T", D::differentiable)
      .input("starts", "Tind", D::non_differentiable)
      .input("ends", "Tind", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .input_optional("steps", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_slice).kernel(slice_kernel);
  // Version 10 takes starts, ends and axes as inputs and adds steps; 11 counts negative axes
  // from the end.
  op.at(10)
      .upgrade(convert::all_of({convert::attribute_to_input("starts", 1),
                                convert::attribute_to_input("ends", 2),
                                convert::attribute_to_input("axes", 3)}))
      .downgrade(convert::all_of({slice_steps_all_one, convert::input_to_attribute("axes", 3),
                                  convert::input_to_attribute("ends", 2),
                                  convert::input_to_attribute("starts", 1)}));
  op.at(11).downgrade(convert::nonnegative_axes("", 0, false, 3));
}

}  // namespace onnxtool::ops
