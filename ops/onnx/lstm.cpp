// SPDX-License-Identifier: Apache-2.0
// LSTM: the ai.onnx operator. One recurrent layer, forward, reverse or bidirectional, with
// variable sequence lengths; the shared time loop and the cell equations are in rnn_common.cpp.
#include "core/convert/adapter.h"
#include "ops/onnx/rnn_common.h"

namespace onnxtool::ops {

namespace {

void infer_lstm(InferContext& ctx) {
  rnn::infer(ctx, rnn::Cell::lstm);
}

rnn::RnnAttrs prepare_lstm(PrepareContext& ctx) {
  return rnn::prepare(ctx, rnn::Cell::lstm);
}

void lstm_kernel(KernelContext& ctx, const rnn::RnnAttrs& attrs) {
  rnn::kernel(ctx, attrs, rnn::Cell::lstm);
}

// ---- version adapters --------------------------------------------------------------------

// output_sequence (gone at 7) asked for Y, which later versions compute when it is named.
void output_sequence_from_outputs(AdapterContext& ctx) {
  if (ctx.has_output(0)) ctx.set_attribute("output_sequence", int64_t{1});
}

}  // namespace

void define_LSTM(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("activation_alpha", AttrType::floats)
      .attr_optional("activation_beta", AttrType::floats)
      .attr_optional("activations", AttrType::strings)
      .attr_optional("clip", AttrType::f)
      .attr("direction", AttrType::s, "forward")
      .attr_optional("hidden_size", AttrType::i)
      .attr("input_forget", AttrType::i, int64_t{0})
      .attr("output_sequence", AttrType::i, int64_t{0})
      .input("X", "T")
      .input("W", "T")
      .input("R", "T")
      .input_optional("B", "T")
      .input_optional("sequence_lens", "T1")
      .input_optional("initial_h", "T")
      .input_optional("initial_c", "T")
      .input_optional("P", "T")
      .output_optional("Y", "T")
      .output_optional("Y_h", "T")
      .output_optional("Y_c", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(int32)"});
  op.since(7)
      .attr_optional("activation_alpha", AttrType::floats)
      .attr_optional("activation_beta", AttrType::floats)
      .attr_optional("activations", AttrType::strings)
      .attr_optional("clip", AttrType::f)
      .attr("direction", AttrType::s, "forward")
      .attr_optional("hidden_size", AttrType::i)
      .attr("input_forget", AttrType::i, int64_t{0})
      .input("X", "T")
      .input("W", "T")
      .input("R", "T")
      .input_optional("B", "T")
      .input_optional("sequence_lens", "T1")
      .input_optional("initial_h", "T")
      .input_optional("initial_c", "T")
      .input_optional("P", "T")
      .output_optional("Y", "T")
      .output_optional("Y_h", "T")
      .output_optional("Y_c", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(int32)"});
  op.since(14)
      .attr_optional("activation_alpha", AttrType::floats)
      .attr_optional("activation_beta", AttrType::floats)
      .attr_optional("activations", AttrType::strings)
      .attr_optional("clip", AttrType::f)
      .attr("direction", AttrType::s, "forward")
      .attr_optional("hidden_size", AttrType::i)
      .attr("input_forget", AttrType::i, int64_t{0})
      .attr("layout", AttrType::i, int64_t{0})
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input("R", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .input_optional("sequence_lens", "T1", D::non_differentiable)
      .input_optional("initial_h", "T", D::non_differentiable)
      .input_optional("initial_c", "T", D::non_differentiable)
      .input_optional("P", "T", D::differentiable)
      .output_optional("Y", "T", D::differentiable)
      .output_optional("Y_h", "T", D::differentiable)
      .output_optional("Y_c", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(int32)"});
  op.since(22)
      .attr_optional("activation_alpha", AttrType::floats)
      .attr_optional("activation_beta", AttrType::floats)
      .attr_optional("activations", AttrType::strings)
      .attr_optional("clip", AttrType::f)
      .attr("direction", AttrType::s, "forward")
      .attr_optional("hidden_size", AttrType::i)
      .attr("input_forget", AttrType::i, int64_t{0})
      .attr("layout", AttrType::i, int64_t{0})
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input("R", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .input_optional("sequence_lens", "T1", D::non_differentiable)
      .input_optional("initial_h", "T", D::non_differentiable)
      .input_optional("initial_c", "T", D::non_differentiable)
      .input_optional("P", "T", D::differentiable)
      .output_optional("Y", "T", D::differentiable)
      .output_optional("Y_h", "T", D::differentiable)
      .output_optional("Y_c", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_lstm).kernel(prepared_kernel(prepare_lstm, lstm_kernel)).macs(rnn::macs);
  op.at(7)
      .upgrade(convert::drop_attribute("output_sequence"))
      .downgrade(output_sequence_from_outputs);
}

}  // namespace onnxtool::ops
