// SPDX-License-Identifier: Apache-2.0
// HammingWindow: the ai.onnx operator. a Hamming window, 25/46 - 21/46 cos(2 pi n / N), with N =
// size (periodic) or size - 1 (symmetric), in the output_datatype element type.
#include "ops/onnx/signal_common.h"

namespace onnxtool::ops {

namespace {

void hamming_window_kernel(KernelContext& ctx) {
  signal::window_kernel(ctx, {25.0 / 46.0, 21.0 / 46.0});
}

}  // namespace

void define_HammingWindow(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .is_function({17})
      .attr("output_datatype", AttrType::i, int64_t{1})
      .attr("periodic", AttrType::i, int64_t{1})
      .input("size", "T1", D::non_differentiable)
      .output("output", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(int32)", "tensor(int64)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(signal::infer_window).kernel(hamming_window_kernel);
}

}  // namespace onnxtool::ops
