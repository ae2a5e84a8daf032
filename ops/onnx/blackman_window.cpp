// SPDX-License-Identifier: Apache-2.0
// BlackmanWindow: the ai.onnx operator. a Blackman window, 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4
// pi n / N), with N = size (periodic) or size - 1 (symmetric), in the output_datatype element type.
#include "ops/onnx/signal_common.h"

namespace onnxtool::ops {

namespace {

void blackman_window_kernel(KernelContext& ctx) {
  signal::window_kernel(ctx, {0.42, 0.5, 0.08});
}

}  // namespace

namespace {
// BlackmanWindow-17 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kBlackmanWindowBody[] = R"onnx(
<domain: "", opset_import: ["" : 17]>
BlackmanWindow <periodic, output_datatype> (size) => (output) {
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
  two = Constant <value = float {2.0}> ()
  angle2 = Mul (angle, two)
  c1 = Cos (angle)
  c2 = Cos (angle2)
  a0 = Constant <value = float {0.42}> ()
  a1 = Constant <value = float {0.5}> ()
  a2 = Constant <value = float {0.08}> ()
  t1 = Mul (a1, c1)
  t2 = Mul (a2, c2)
  d = Sub (a0, t1)
  w = Add (d, t2)
  output = Cast <to: int = @output_datatype> (w)
}
)onnx";
}  // namespace

void define_BlackmanWindow(OpDef& op) {
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
  op.at(17).function(kBlackmanWindowBody, 17);
  op.all().infer(signal::infer_window).kernel(blackman_window_kernel);
}

}  // namespace onnxtool::ops
