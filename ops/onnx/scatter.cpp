// SPDX-License-Identifier: Apache-2.0
// Scatter: the ai.onnx operator.
#include "core/convert/adapter.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

void scatter_to_scatter_elements(AdapterContext& ctx) {
  ctx.set_op_type("ScatterElements");
  ctx.describe("Scatter -> ScatterElements (the same inputs)");
}

}  // namespace

void define_Scatter(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr("axis", AttrType::i, int64_t{0})
      .input("data", "T")
      .input("indices", "Tind")
      .input("updates", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(11).deprecated();
  // END SIGNATURES
  // clang-format on
  // Scatter-9 is ScatterElements-11 under its old name (no reduction); Scatter-11 is deprecated.
  op.all().infer(infer_scatter_elements).kernel(scatter_elements_kernel);
  // From 11 Scatter is ScatterElements, which says the same.
  op.at(11).upgrade(scatter_to_scatter_elements);
}

}  // namespace onnxtool::ops
