// SPDX-License-Identifier: Apache-2.0
// Attention: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Attention(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(23)
      .attr("is_causal", AttrType::i, int64_t{0})
      .attr_optional("kv_num_heads", AttrType::i)
      .attr_optional("q_num_heads", AttrType::i)
      .attr("qk_matmul_output_mode", AttrType::i, int64_t{0})
      .attr_optional("scale", AttrType::f)
      .attr("softcap", AttrType::f, 0.0f)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T2")
      .input_optional("attn_mask", "U")
      .input_optional("past_key", "T1")
      .input_optional("past_value", "T2")
      .output("Y", "T1")
      .output_optional("present_key", "T1")
      .output_optional("present_value", "T2")
      .output_optional("qk_matmul_output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("U", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bool)"});
  op.since(24)
      .attr("is_causal", AttrType::i, int64_t{0})
      .attr_optional("kv_num_heads", AttrType::i)
      .attr_optional("q_num_heads", AttrType::i)
      .attr("qk_matmul_output_mode", AttrType::i, int64_t{0})
      .attr_optional("scale", AttrType::f)
      .attr("softcap", AttrType::f, 0.0f)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T2")
      .input_optional("attn_mask", "U")
      .input_optional("past_key", "T1")
      .input_optional("past_value", "T2")
      .input_optional("nonpad_kv_seqlen", "tensor(int64)")
      .output("Y", "T1")
      .output_optional("present_key", "T1")
      .output_optional("present_value", "T2")
      .output_optional("qk_matmul_output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("U", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bool)"});
  op.since(25)
      .is_function({25})
      .attr("is_causal", AttrType::i, int64_t{0})
      .attr_optional("kv_num_heads", AttrType::i)
      .attr("left_window_size", AttrType::i, int64_t{-1})
      .attr_optional("q_num_heads", AttrType::i)
      .attr("qk_matmul_output_mode", AttrType::i, int64_t{0})
      .attr("right_window_size", AttrType::i, int64_t{-1})
      .attr_optional("scale", AttrType::f)
      .attr("softcap", AttrType::f, 0.0f)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T2")
      .input_optional("attn_mask", "U")
      .input_optional("past_key", "T1")
      .input_optional("past_value", "T2")
      .input_optional("nonpad_kv_seqlen", "tensor(int64)")
      .output("Y", "T1")
      .output_optional("present_key", "T1")
      .output_optional("present_value", "T2")
      .output_optional("qk_matmul_output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("U", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
