// SPDX-License-Identifier: Apache-2.0
// The comparison family of ai.onnx, one row per operator: Equal, Less, LessOrEqual, Greater,
// GreaterOrEqual. The output is bool of the broadcast shape (numpy broadcasting from opset 7;
// opset 1 broadcasts B to A under `broadcast` and `axis`). NaN compares unequal to everything.
// Equal also propagates shape values where the answer is known.
#include <string>

#include "core/infer/helpers.h"
#include "ops/onnx/elementwise.h"

namespace onnxtool::ops {

namespace {

using ew::Bcast;

constexpr auto kBool = static_cast<int32_t>(DataType::boolean);

template <class L, class F>
void define_comparison(OpDef& op, F f,
                       InferFn numpy_infer = ew::infer_binary(Bcast::numpy, kBool)) {
  op.from(1, 6)
      .infer(ew::infer_binary(Bcast::legacy, kBool))
      .kernel(ew::binary_kernel<L>(f, Bcast::legacy));
  op.from(7).infer(std::move(numpy_infer)).kernel(ew::binary_kernel<L>(f, Bcast::numpy));
  if (const OpVersion* v7 = op.lookup(7); v7 && v7->since == 7)
    op.at(7).upgrade(ew::legacy_to_numpy_broadcast).downgrade(ew::numpy_to_legacy_broadcast);
  op.all().trait(Trait::elementwise).trait(Trait::float_generic);
}

// Equal on shape values: two equal known values or one expression give 1, two different known
// values 0; a dim (a plain symbol: never negative) against a negative value 0 ("is this dim -1?",
// as exporters ask before Expand); anything else unknown.
Dim equal_value(const Dim& a, const Dim& b) {
  if (a.is_known() && b.is_known()) return Dim::value(a.value() == b.value() ? 1 : 0);
  if (a.same_as(b)) return Dim::value(1);
  const Dim& known = a.is_known() ? a : b;
  const Dim& other = a.is_known() ? b : a;
  if (known.is_known() && known.value() < 0 && other.is_plain_symbol()) return Dim::value(0);
  return Dim();
}

void infer_equal(InferContext& ctx) {
  unify_all_input_elem_types(ctx);
  set_output_tensor(ctx, 0, kBool, broadcast_input_shapes(ctx));
  const Dims* a = ctx.input_values(0);
  const Dims* b = ctx.input_values(1);
  if (!a || !b) return;
  const std::size_t n = std::max(a->size(), b->size());
  if ((a->size() != n && a->size() != 1) || (b->size() != n && b->size() != 1)) return;
  Dims out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = equal_value((*a)[a->size() == 1 ? 0 : i], (*b)[b->size() == 1 ? 0 : i]);
  ctx.set_output_values(0, std::move(out),
                        ctx.input_type(0).rank() == 0 && ctx.input_type(1).rank() == 0);
}

using EqualTypes = decltype(ew::NumericTypes{} | ew::Types<bool, std::string>{});

}  // namespace

void define_Equal(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(bool)", "tensor(int32)", "tensor(int64)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(7)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(bool)", "tensor(int32)", "tensor(int64)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(11)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(bool)", "tensor(uint8)", "tensor(uint16)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int8)", "tensor(int16)", "tensor(int32)",
                        "tensor(int64)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(13)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(bool)", "tensor(uint8)", "tensor(uint16)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int8)", "tensor(int16)", "tensor(int32)",
                        "tensor(int64)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bfloat16)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(19)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(bool)", "tensor(uint8)", "tensor(uint16)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int8)", "tensor(int16)", "tensor(int32)",
                        "tensor(int64)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bfloat16)", "tensor(string)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  define_comparison<EqualTypes>(
      op, [](const auto& a, const auto& b) { return a == b; }, infer_equal);
}

void define_Less(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(7)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(9)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(13)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  define_comparison<ew::NumericTypes>(op, [](auto a, auto b) { return a < b; });
}

namespace {
// LessOrEqual-16 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kLessOrEqualBody[] = R"onnx(
<domain: "", opset_import: ["" : 16]>
LessOrEqual (A, B) => (C) {
  lt = Less (A, B)
  eq = Equal (A, B)
  C = Or (lt, eq)
}
)onnx";
}  // namespace

void define_LessOrEqual(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(16)
      .is_function({16})
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.at(16).function(kLessOrEqualBody, 16);
  define_comparison<ew::NumericTypes>(op, [](auto a, auto b) { return a <= b; });
}

void define_Greater(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(7)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(9)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(13)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  define_comparison<ew::NumericTypes>(op, [](auto a, auto b) { return a > b; });
}

namespace {
// GreaterOrEqual-16 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kGreaterOrEqualBody[] = R"onnx(
<domain: "", opset_import: ["" : 16]>
GreaterOrEqual (A, B) => (C) {
  gt = Greater (A, B)
  eq = Equal (A, B)
  C = Or (gt, eq)
}
)onnx";
}  // namespace

void define_GreaterOrEqual(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(16)
      .is_function({16})
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.at(16).function(kGreaterOrEqualBody, 16);
  define_comparison<ew::NumericTypes>(op, [](auto a, auto b) { return a >= b; });
}

}  // namespace onnxtool::ops
