// SPDX-License-Identifier: Apache-2.0
// Transpose: the ai.onnx operator.
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/infer/helpers.h"
#include "core/registry/fusion.h"
#include "onnx.pb.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// perm, or the reversed axes when absent; must be a permutation of [0, rank).
template <class Fail>
std::vector<int64_t> permutation(const AttrView& attrs, int64_t rank, Fail&& fail) {
  std::vector<int64_t> perm(static_cast<std::size_t>(rank));
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (!attrs.has("perm")) return perm;
  perm = attrs.get_ints("perm");
  std::vector<bool> seen(static_cast<std::size_t>(rank));
  if (static_cast<int64_t>(perm.size()) != rank)
    fail("perm has " + std::to_string(perm.size()) + " entries but the input has rank " +
         std::to_string(rank));
  for (std::size_t i = 0; i < perm.size(); ++i) {
    int64_t& p = perm[i];
    if (p < -rank || p >= rank)
      fail(indexed("perm", i) + " = " + std::to_string(p) + " is out of range for rank " +
           std::to_string(rank));
    if (p < 0) p += rank;
    if (seen[static_cast<std::size_t>(p)])
      fail("perm is not a permutation: " + std::to_string(p) + " appears twice");
    seen[static_cast<std::size_t>(p)] = true;
  }
  return perm;
}

void infer_transpose(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto perm = permutation(ctx.attrs(), static_cast<int64_t>(in->size()),
                                [](const std::string& m) { infer_fail(m); });
  Dims out;
  for (int64_t p : perm) out.push_back((*in)[static_cast<std::size_t>(p)]);
  set_output_tensor(ctx, 0, elem, out);
  if (out.size() <= 1) propagate_values(ctx, 0, 0);
}

// Output dim k walks input dim perm[k]: one strided copy. When the permutation only moves
// dims of size 1 the element order is unchanged and the output is a view.
void transpose_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const auto perm = permutation(ctx.attrs(), x.rank(), [&](const std::string& m) { ctx.fail(m); });
  Shape out_shape;
  Layout from{0, {}};
  const auto in_strides = contiguous_strides(x.shape());
  std::vector<int64_t> moved;
  for (int64_t p : perm) {
    const auto pi = static_cast<std::size_t>(p);
    out_shape.push_back(x.shape()[pi]);
    from.strides.push_back(in_strides[pi]);
    if (x.shape()[pi] != 1) moved.push_back(p);
  }
  if (std::is_sorted(moved.begin(), moved.end())) {
    ctx.set_output(0, Value(x.reshaped(out_shape)));
    return;
  }
  Tensor& y = ctx.output_uninitialized(0, x.dtype(), out_shape);
  strided_copy(x, from, y, Layout{0, contiguous_strides(out_shape)}, out_shape, &ctx);
}

// The permutation for cancel-transposes (core/exec/passes/cancel_transposes.h); nullopt where
// the attribute is not a valid one for this rank (the kernel then reports it).
std::optional<std::vector<int64_t>> transpose_permutes(const FusionNode& n, int64_t rank) {
  struct Invalid {};
  try {
    return permutation(n.attrs, rank, [](const std::string&) { throw Invalid{}; });
  } catch (const Invalid&) {
    return std::nullopt;
  }
}

void transpose_make_permutation(onnx::NodeProto& node, const std::vector<int64_t>& perm) {
  for (int i = node.attribute_size(); i-- > 0;)
    if (node.attribute(i).name() == "perm") node.mutable_attribute()->DeleteSubrange(i, 1);
  onnx::AttributeProto* a = node.add_attribute();
  a->set_name("perm");
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t p : perm) a->add_ints(p);
}

}  // namespace

void define_Transpose(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("perm", AttrType::ints)
      .input("data", "T")
      .output("transposed", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr_optional("perm", AttrType::ints)
      .input("data", "T", D::differentiable)
      .output("transposed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(21)
      .attr_optional("perm", AttrType::ints)
      .input("data", "T", D::differentiable)
      .output("transposed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr_optional("perm", AttrType::ints)
      .input("data", "T", D::differentiable)
      .output("transposed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .attr_optional("perm", AttrType::ints)
      .input("data", "T", D::differentiable)
      .output("transposed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr_optional("perm", AttrType::ints)
      .input("data", "T", D::differentiable)
      .output("transposed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().permutes(transpose_permutes).make_permutation(transpose_make_permutation);
  op.all().infer(infer_transpose).kernel(transpose_kernel);
}

}  // namespace onnxtool::ops
