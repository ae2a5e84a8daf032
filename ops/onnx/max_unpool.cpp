// SPDX-License-Identifier: Apache-2.0
// MaxUnpool: the ai.onnx operator. A zero tensor with each X value written at its flat index
// from I; its shape is output_shape when given, else the spatial dims
// (in - 1) * stride + kernel - pad_begin - pad_end.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

struct UnpoolAttrs {
  std::vector<int64_t> kernel, strides, pads;
};

UnpoolAttrs unpool_attrs(const AttrView& a, std::size_t spatial,
                         const std::function<void(const std::string&)>& fail) {
  UnpoolAttrs u;
  u.kernel = a.get_ints("kernel_shape");
  u.strides = a.get_ints("strides", std::vector<int64_t>(spatial, 1));
  u.pads = a.get_ints("pads", std::vector<int64_t>(2 * spatial, 0));
  if (u.kernel.size() != spatial || u.strides.size() != spatial || u.pads.size() != 2 * spatial)
    fail("kernel_shape, strides and pads must have " + std::to_string(spatial) + ", " +
         std::to_string(spatial) + " and " + std::to_string(2 * spatial) + " values");
  return u;
}

void infer_max_unpool(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* x = misc::input_dims(ctx, 0);
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    if (const auto values = input_dims_values(ctx, 2)) {
      set_output_tensor(ctx, 0, elem, dims_from_values(*values));
      return;
    }
    const Dim len = misc::dim_at(misc::input_dims(ctx, 2), 0);
    set_output_tensor(ctx, 0, elem,
                      len.is_known()
                          ? std::optional<Dims>(Dims(static_cast<std::size_t>(len.value())))
                          : std::nullopt);
    ctx.explain(0, "the output's shape is the value of input output_shape");
    return;
  }
  if (!x) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  if (x->size() < 3) infer_fail("X must have rank >= 3 (N, C, spatial...)");
  const std::size_t spatial = x->size() - 2;
  const UnpoolAttrs u =
      unpool_attrs(ctx.attrs(), spatial, [](const std::string& m) { infer_fail(m); });
  Dims out{(*x)[0], (*x)[1]};
  for (std::size_t i = 0; i < spatial; ++i)
    out.push_back(((*x)[i + 2] - Dim::value(1)) * Dim::value(u.strides[i]) +
                  Dim::value(u.kernel[i] - u.pads[i] - u.pads[i + spatial]));
  set_output_tensor(ctx, 0, elem, out);
}

// The indices count positions in the tensor MaxPool read (the unpooled shape); a larger
// output_shape keeps each value at the same coordinates, padding at the end of each axis.
int64_t relocate(int64_t index, const Shape& from, const Shape& to) {
  if (from == to) return index;
  int64_t at = 0, stride = 1;
  for (std::size_t d = from.size(); d-- > 0;) {
    at += (index % from[d]) * stride;
    index /= from[d];
    stride *= to[d];
  }
  return at;
}

void max_unpool_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& idx = ctx.input(1);
  misc::require_float(ctx, x, "X");
  if (x.rank() < 3) ctx.fail("X must have rank >= 3, got " + shape_to_string(x.shape()));
  if (idx.shape() != x.shape()) ctx.fail("I must have X's shape " + shape_to_string(x.shape()));
  const auto spatial = static_cast<std::size_t>(x.rank() - 2);
  const UnpoolAttrs u =
      unpool_attrs(ctx.attrs(), spatial, [&](const std::string& m) { ctx.fail(m); });
  Shape inferred{x.shape()[0], x.shape()[1]};
  for (std::size_t i = 0; i < spatial; ++i)
    inferred.push_back((x.shape()[i + 2] - 1) * u.strides[i] + u.kernel[i] - u.pads[i] -
                       u.pads[i + spatial]);
  Shape out = inferred;
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    out = misc::values_as<int64_t>(ctx, ctx.input(2), "output_shape");
    if (out.size() != static_cast<std::size_t>(x.rank()) || out[0] != x.shape()[0] ||
        out[1] != x.shape()[1])
      ctx.fail("output_shape " + misc::ints_text(out) + " must keep X's batch and channel dims");
    for (std::size_t i = 2; i < out.size(); ++i)
      if (out[i] < inferred[i])
        ctx.fail("output_shape " + misc::ints_text(out) + " is smaller than the unpooled shape " +
                 misc::ints_text(inferred));
  }
  for (int64_t d : out)
    if (d < 0) ctx.fail("the output shape " + misc::ints_text(out) + " has a negative dim");
  const std::vector<double> v = misc::values_as<double>(ctx, x, "X");
  const std::vector<int64_t> at = misc::values_as<int64_t>(ctx, idx, "I");
  std::vector<double> y(static_cast<std::size_t>(misc::shape_size(out)), 0.0);
  const int64_t inferred_size = misc::shape_size(inferred);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (at[i] < 0 || at[i] >= inferred_size)
      ctx.fail("index " + std::to_string(at[i]) + " is outside the pooled input of " +
               std::to_string(inferred_size) + " elements");
    y[static_cast<std::size_t>(relocate(at[i], inferred, out))] = v[i];
  }
  misc::write_output<double>(ctx, 0, x.dtype(), out, y);
}

}  // namespace

void define_MaxUnpool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T1")
      .input("I", "T2")
      .input_optional("output_shape", "T2")
      .output("output", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(11)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T1", D::differentiable)
      .input("I", "T2", D::non_differentiable)
      .input_optional("output_shape", "T2", D::non_differentiable)
      .output("output", "T1", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(22)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T1", D::differentiable)
      .input("I", "T2", D::non_differentiable)
      .input_optional("output_shape", "T2", D::non_differentiable)
      .output("output", "T1", D::differentiable)
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_max_unpool).kernel(max_unpool_kernel);
}

}  // namespace onnxtool::ops
