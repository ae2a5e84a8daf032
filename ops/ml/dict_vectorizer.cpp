// SPDX-License-Identifier: Apache-2.0
// DictVectorizer: the ai.onnx.ml operator. A map as a [1, V] tensor of its value type: the value
// of each vocabulary entry's key at the entry's position, 0 (or "") for keys the map lacks.
#include <unordered_map>

#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

int64_t vocabulary_size(const AttrView& attrs) {
  if (attrs.has("string_vocabulary"))
    return static_cast<int64_t>(attrs.get_strings("string_vocabulary").size());
  return static_cast<int64_t>(attrs.get_ints("int64_vocabulary", {}).size());
}

void infer_dict_vectorizer(InferContext& ctx) {
  const Type& m = ctx.input_type(0);
  const int32_t elem = m.kind == Type::Kind::map ? m.element().elem : 0;
  set_output_tensor(ctx, 0, elem, Dims{Dim::value(1), Dim::value(vocabulary_size(ctx.attrs()))});
}

void dict_vectorizer_kernel(KernelContext& ctx) {
  const Value& m = ctx.input_value(0);
  if (!m.is_map()) ctx.fail("X must be a map, got " + m.describe());
  const Tensor& keys = m.map_keys();
  const Tensor& values = m.map_values();
  const int64_t size = vocabulary_size(ctx.attrs());
  Tensor out(values.dtype(), {1, size});
  std::unordered_map<std::string, int64_t> by_string;
  std::unordered_map<int64_t, int64_t> by_int;
  if (ctx.attrs().has("string_vocabulary")) {
    if (keys.dtype() != DataType::string) ctx.fail("string_vocabulary needs string keys");
    const auto vocab = ctx.attrs().get_strings("string_vocabulary");
    for (std::size_t i = 0; i < vocab.size(); ++i)
      by_string.emplace(vocab[i], static_cast<int64_t>(i));
  } else {
    if (keys.dtype() != DataType::int64) ctx.fail("int64_vocabulary needs int64 keys");
    const auto vocab = ctx.attrs().get_ints("int64_vocabulary", {});
    for (std::size_t i = 0; i < vocab.size(); ++i)
      by_int.emplace(vocab[i], static_cast<int64_t>(i));
  }
  for (int64_t i = 0; i < keys.numel(); ++i) {
    int64_t at = -1;
    if (keys.dtype() == DataType::string) {
      const auto it = by_string.find(keys.strings()[static_cast<std::size_t>(i)]);
      if (it != by_string.end()) at = it->second;
    } else {
      const auto it = by_int.find(keys.data<int64_t>()[i]);
      if (it != by_int.end()) at = it->second;
    }
    if (at < 0) continue;  // keys outside the vocabulary are dropped
    if (values.dtype() == DataType::string) {
      out.mutable_strings()[static_cast<std::size_t>(at)] =
          values.strings()[static_cast<std::size_t>(i)];
    } else {
      const int64_t w = type_info(values.dtype()).mem_bytes;
      std::copy_n(values.raw() + i * w, w, out.mutable_raw() + at * w);
    }
  }
  ctx.set_output(0, out);
}

}  // namespace

void define_ml_DictVectorizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("int64_vocabulary", AttrType::ints)
      .attr_optional("string_vocabulary", AttrType::strings)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"map(string, int64)", "map(int64, string)", "map(int64, float)",
                         "map(int64, double)", "map(string, float)", "map(string, double)"})
      .constraint("T2", {"tensor(int64)", "tensor(float)", "tensor(double)", "tensor(string)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_dict_vectorizer).kernel(dict_vectorizer_kernel);
}

}  // namespace onnxtool::ops
