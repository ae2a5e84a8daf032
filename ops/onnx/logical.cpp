// SPDX-License-Identifier: Apache-2.0
// The logical and bitwise family of ai.onnx, one row per operator: And, Or, Xor (bool),
// BitwiseAnd, BitwiseOr, BitwiseXor (integers), BitShift (unsigned integers). Inputs broadcast
// as numpy does (And/Or/Xor-1: B to A under `broadcast` and `axis`). Not and BitwiseNot, being
// unary, are in unary_math.cpp.
#include <limits>
#include <string>

#include "core/infer/helpers.h"
#include "ops/onnx/elementwise.h"

namespace onnxtool::ops {

namespace {

using ew::Bcast;

constexpr auto kBool = static_cast<int32_t>(DataType::boolean);

template <class F>
void define_logical(OpDef& op, F f) {
  using Bool = ew::Types<bool>;
  op.from(1, 6)
      .infer(ew::infer_binary(Bcast::legacy, kBool))
      .kernel(ew::binary_kernel<Bool>(f, Bcast::legacy));
  op.from(7).infer(ew::infer_binary(Bcast::numpy, kBool)).kernel(ew::binary_kernel<Bool>(f));
  op.at(7).upgrade(ew::legacy_to_numpy_broadcast).downgrade(ew::numpy_to_legacy_broadcast);
  op.all().trait(Trait::elementwise);
}

template <class F>
void define_bitwise(OpDef& op, F f) {
  op.all()
      .infer(broadcast_elementwise())
      .kernel(ew::binary_kernel<ew::IntTypes>(f))
      .trait(Trait::elementwise);
}

// direction: "LEFT" or "RIGHT"; anything else is an error message.
std::string direction_error(const AttrView& a) {
  const std::string d = a.get_string("direction");
  if (d == "LEFT" || d == "RIGHT") return "";
  return "direction is \"" + d + "\", expected \"LEFT\" or \"RIGHT\"";
}

void infer_bit_shift(InferContext& ctx) {
  if (auto e = direction_error(ctx.attrs()); !e.empty()) ctx.fail(e);
  const int32_t elem = unify_all_input_elem_types(ctx);
  set_output_tensor(ctx, 0, elem, broadcast_input_shapes(ctx));
}

// Shifting by the type's width or more gives 0 (what the bits say; C++ leaves it undefined).
auto bit_shift_with = [](const NodeInfo& ctx) {
  if (auto e = direction_error(ctx.attrs()); !e.empty()) ctx.fail(e);
  const bool left = ctx.attrs().get_string("direction") == "LEFT";
  return [left](auto x, auto s) {
    using T = decltype(x);
    if (s >= static_cast<T>(std::numeric_limits<T>::digits)) return T{0};
    return static_cast<T>(left ? static_cast<uint64_t>(x) << s : x >> s);
  };
};

}  // namespace

void define_And(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(7)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  define_logical(op, [](bool a, bool b) { return a && b; });
}

void define_Or(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(7)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  define_logical(op, [](bool a, bool b) { return a || b; });
}

void define_Xor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(7)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  define_logical(op, [](bool a, bool b) { return a != b; });
}

void define_BitwiseAnd(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  define_bitwise(op, [](auto a, auto b) { return static_cast<decltype(a)>(a & b); });
}

void define_BitwiseOr(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  define_bitwise(op, [](auto a, auto b) { return static_cast<decltype(a)>(a | b); });
}

void define_BitwiseXor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  define_bitwise(op, [](auto a, auto b) { return static_cast<decltype(a)>(a ^ b); });
}

void define_BitShift(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr_required("direction", AttrType::s)
      .input("X", "T", D::non_differentiable)
      .input("Y", "T", D::non_differentiable)
      .output("Z", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(infer_bit_shift)
      .kernel(ew::binary_kernel_with<ew::UnsignedIntTypes>(bit_shift_with));
}

}  // namespace onnxtool::ops
