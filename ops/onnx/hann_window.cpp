// SPDX-License-Identifier: Apache-2.0
// HannWindow: the ai.onnx operator. a Hann window, 0.5 - 0.5 cos(2 pi n / N), with N = size
// (periodic) or size - 1 (symmetric), in the output_datatype element type.
#include "ops/onnx/signal_common.h"

namespace onnxtool::ops {

namespace {

void hann_window_kernel(KernelContext& ctx) {
  signal::window_kernel(ctx, {0.5, 0.5});
}

}  // namespace

namespace {
// HannWindow-17 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kHannWindowBody[] = R"onnx(
<domain: "", opset_import: ["" : 17]>
HannWindow <periodic, output_datatype> (size) => (output) {
  n_total = Cast <to = 1> (size)
  periodic_i = Constant <value_int: int = @periodic> ()
  periodic_f = Cast <to = 1> (periodic_i)
  one = Constant <value = float {1.0}> ()
  zero = Constant <value = float {0.0}> ()
  symmetric = Sub (one, periodic_f)
  denominator = Sub (n_total, symmetric)
  n = Range (zero, n_total, one)
  two_pi = Constant <value = float {6.2831853}> ()
  step = Div (two_pi, denominator)
  angle = Mul (n, step)
  c = Cos (angle)
  half = Constant <value = float {0.5}> ()
  hc = Mul (half, c)
  w = Sub (half, hc)
  output = Cast <to: int = @output_datatype> (w)
}
)onnx";
}  // namespace

void define_HannWindow(OpDef& op) {
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
  op.at(17).function(kHannWindowBody, 17);
  op.all().infer(signal::infer_window).kernel(hann_window_kernel);
}

}  // namespace onnxtool::ops
