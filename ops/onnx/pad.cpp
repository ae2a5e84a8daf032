// SPDX-License-Identifier: Apache-2.0
// Pad: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// pads as the version takes them: attribute `paddings` (1), `pads` (2), the `pads` input
// (11+), for every axis or (18+) for the axes the `axes` input lists. nullopt when unknown.
std::optional<std::vector<int64_t>> infer_pads(const InferContext& ctx) {
  if (since(ctx) == 1) return ctx.attrs().get_ints("paddings");
  if (since(ctx) < 11) return ctx.attrs().get_ints("pads");
  return input_ints(ctx, 1);
}

// Full per-axis begin/end pads [b0, b1, ..., e0, e1, ...] from pads given for `axes`.
template <class Fail>
std::vector<int64_t> expand_pads(const std::vector<int64_t>& pads,
                                 const std::optional<std::vector<int64_t>>& axes, int64_t rank,
                                 Fail&& fail) {
  const auto r = static_cast<std::size_t>(rank);
  if (!axes) {
    if (pads.size() != 2 * r)
      fail("pads has " + std::to_string(pads.size()) + " entries, expected " +
           std::to_string(2 * r) + " (begin and end for each of " + std::to_string(r) + " axes)");
    return pads;
  }
  const std::size_t n = axes->size();
  if (pads.size() != 2 * n)
    fail("pads has " + std::to_string(pads.size()) + " entries, expected " + std::to_string(2 * n) +
         " (begin and end for each of the " + std::to_string(n) + " axes)");
  std::vector<int64_t> full(2 * r, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto a = static_cast<std::size_t>((*axes)[i]);
    full[a] = pads[i];
    full[r + a] = pads[n + i];
  }
  return full;
}

void check_mode(const std::string& mode, int version,
                const std::function<void(const std::string&)>& fail) {
  if (mode == "constant" || mode == "reflect" || mode == "edge") return;
  if (mode == "wrap" && version >= 19) return;
  fail("mode \"" + mode + "\" is not one Pad-" + std::to_string(version) +
       " knows (constant, reflect, edge" + (version >= 19 ? ", wrap)" : ")"));
}

void infer_pad(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  check_mode(ctx.attrs().get_string("mode", "constant"), since(ctx),
             [](const std::string& m) { infer_fail(m); });
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto rank = static_cast<int64_t>(in->size());
  const auto pads = infer_pads(ctx);
  std::optional<std::vector<int64_t>> axes;
  const bool has_axes = since(ctx) >= 18 && ctx.num_inputs() > 3 && ctx.has_input(3);
  if (has_axes) axes = input_ints(ctx, 3);
  if (!pads || (has_axes && !axes)) {
    set_output_tensor(ctx, 0, elem, Dims(in->size()));
    ctx.explain(0, "the pads are not known");
    return;
  }
  if (axes) axes = infer_axes(*axes, rank);
  const auto full = expand_pads(*pads, axes, rank, [](const std::string& m) { infer_fail(m); });
  Dims out;
  for (std::size_t k = 0; k < in->size(); ++k) {
    const Dim d = (*in)[k] + Dim::value(full[k] + full[k + in->size()]);
    if (d.is_known() && d.value() < 0)
      infer_fail("pads make axis " + std::to_string(k) + " negative (" + std::to_string(d.value()) +
                 ")");
    out.push_back(d);
  }
  set_output_tensor(ctx, 0, elem, out);
}

// ---- kernel ----

enum class Mode { constant, reflect, edge, wrap };

// Where output position p along an axis reads from, for a border position: `s` is where the
// interior (of length len) starts in the output.
int64_t source_position(Mode mode, int64_t p, int64_t s, int64_t len) {
  const int64_t rel = p - s;
  if (mode == Mode::edge) return s + std::clamp<int64_t>(rel, 0, len - 1);
  if (mode == Mode::wrap) return s + ((rel % len) + len) % len;
  if (len == 1) return s;
  const int64_t period = 2 * (len - 1);
  const int64_t m = ((rel % period) + period) % period;
  return s + (m < len ? m : period - m);
}

// Per axis: the part of the input kept (negative pads crop) and where it lands.
struct AxisPlan {
  int64_t out = 0, src_begin = 0, len = 0, dst_begin = 0;
};

std::vector<AxisPlan> plan_axes(const KernelContext& ctx, const Shape& in,
                                const std::vector<int64_t>& full) {
  const std::size_t r = in.size();
  std::vector<AxisPlan> plan(r);
  for (std::size_t k = 0; k < r; ++k) {
    const int64_t b = full[k], e = full[r + k];
    AxisPlan& p = plan[k];
    p.out = in[k] + b + e;
    if (p.out < 0)
      ctx.fail("pads " + std::to_string(b) + ", " + std::to_string(e) + " make axis " +
               std::to_string(k) + " of size " + std::to_string(in[k]) + " negative");
    p.src_begin = std::max<int64_t>(0, -b);
    p.len = std::max<int64_t>(0, in[k] - p.src_begin - std::max<int64_t>(0, -e));
    p.dst_begin = std::max<int64_t>(0, b);
  }
  return plan;
}

// Fills the borders along axis a by copying whole slabs (everything after a, already complete)
// from the interior; positions before a range over the interior only.
void fill_borders(Tensor& y, const std::vector<AxisPlan>& plan, std::size_t a, Mode mode,
                  const std::vector<int64_t>& strides) {
  const AxisPlan& pa = plan[a];
  if (pa.out == pa.len) return;
  Shape outer;
  std::vector<int64_t> outer_strides;
  int64_t base = 0;
  for (std::size_t k = 0; k < a; ++k) {
    outer.push_back(plan[k].len);
    outer_strides.push_back(strides[k]);
    base += plan[k].dst_begin * strides[k];
  }
  const int64_t slab = strides[a];
  walk_offsets(outer, outer_strides, [&](int64_t, int64_t off) {
    for (int64_t p = 0; p < pa.out; ++p) {
      if (p >= pa.dst_begin && p < pa.dst_begin + pa.len) continue;
      const int64_t s = source_position(mode, p, pa.dst_begin, pa.len);
      copy_elements(y, base + off + s * slab, y, base + off + p * slab, slab);
    }
  });
}

Mode parse_mode(const KernelContext& ctx) {
  const std::string m = ctx.attrs().get_string("mode", "constant");
  check_mode(m, since(ctx), [&](const std::string& msg) { ctx.fail(msg); });
  return m == "constant"  ? Mode::constant
         : m == "reflect" ? Mode::reflect
         : m == "edge"    ? Mode::edge
                          : Mode::wrap;
}

Tensor constant_value(const KernelContext& ctx, DataType type) {
  if (since(ctx) < 11) return scalar_of(type, ctx.attrs().get_float("value", 0.0f));
  if (ctx.num_inputs() > 2 && ctx.has_input(2) && ctx.input(2).numel() > 0) {
    const Tensor& v = ctx.input(2);
    if (v.dtype() != type) ctx.fail("constant_value must have the data's element type");
    return v;
  }
  return type == DataType::string ? Tensor::from_strings({}, {""}) : scalar_of(type, 0);
}

std::vector<int64_t> kernel_pads(const KernelContext& ctx, int64_t rank) {
  std::optional<std::vector<int64_t>> axes;
  std::vector<int64_t> pads;
  if (since(ctx) == 1)
    pads = ctx.attrs().get_ints("paddings");
  else if (since(ctx) < 11)
    pads = ctx.attrs().get_ints("pads");
  else
    pads = read_ints(ctx, ctx.input(1), "pads");
  if (since(ctx) >= 18 && ctx.num_inputs() > 3 && ctx.has_input(3))
    axes = kernel_axes(ctx, read_ints(ctx, ctx.input(3), "axes"), rank);
  return expand_pads(pads, axes, rank, [&](const std::string& m) { ctx.fail(m); });
}

// The interior is one strided copy; constant borders are a fill, the other modes copy slabs
// axis by axis from the innermost out.
void pad_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Mode mode = parse_mode(ctx);
  const std::vector<AxisPlan> plan = plan_axes(ctx, x.shape(), kernel_pads(ctx, x.rank()));
  Shape out, interior;
  for (const AxisPlan& p : plan) {
    out.push_back(p.out);
    interior.push_back(p.len);
    if (mode != Mode::constant && p.len == 0 && p.out > 0)
      ctx.fail("cannot pad an axis with no elements in this mode (only constant can)");
  }
  Tensor& y = ctx.output(0, x.dtype(), out);
  const auto out_strides = contiguous_strides(out), in_strides = contiguous_strides(x.shape());
  if (mode == Mode::constant) fill_elements(y, 0, y.numel(), constant_value(ctx, x.dtype()));
  Layout from{0, in_strides}, to{0, out_strides};
  for (std::size_t k = 0; k < plan.size(); ++k) {
    from.offset += plan[k].src_begin * in_strides[k];
    to.offset += plan[k].dst_begin * out_strides[k];
  }
  strided_copy(x, from, y, to, interior, &ctx);
  if (mode == Mode::constant || y.numel() == 0) return;
  for (std::size_t a = plan.size(); a-- > 0;) fill_borders(y, plan, a, mode, out_strides);
}

}  // namespace

void define_Pad(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("mode", AttrType::s, "constant")
      .attr_required("paddings", AttrType::ints)
      .attr("value", AttrType::f, 0.0f)
      .input("data", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(2)
      .attr("mode", AttrType::s, "constant")
      .attr_required("pads", AttrType::ints)
      .attr("value", AttrType::f, 0.0f)
      .input("data", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T")
      .input("pads", "tensor(int64)")
      .input_optional("constant_value", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(18)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(19)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(21)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(23)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(24)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(25)
      .attr("mode", AttrType::s, "constant")
      .input("data", "T", D::differentiable)
      .input("pads", "tensor(int64)", D::non_differentiable)
      .input_optional("constant_value", "T", D::non_differentiable)
      .input_optional("axes", "Tind", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_pad).kernel(pad_kernel);
  // Version 2 renamed paddings to pads; 11 takes pads and the constant value as inputs; 19
  // adds the wrap mode.
  op.at(2)
      .upgrade(convert::rename_attribute("paddings", "pads"))
      .downgrade(convert::rename_attribute("pads", "paddings"));
  op.at(11)
      .upgrade(convert::all_of(
          {convert::attribute_to_input("pads", 1), convert::float_attribute_to_input("value", 2)}))
      .downgrade(convert::all_of(
          {convert::input_to_float_attribute("value", 2), convert::input_to_attribute("pads", 1)}));
  op.at(19).downgrade(convert::refuse_values("mode", {"wrap"}));
}

}  // namespace onnxtool::ops
