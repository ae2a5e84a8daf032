// SPDX-License-Identifier: Apache-2.0
// CastMap: the ai.onnx.ml operator. A map from int64 keys to strings or floats as a [1, n]
// tensor of cast_to's type: the values in key order (DENSE), or at the position of their key in
// a tensor of max_map elements (SPARSE; absent keys are 0 or "").
#include <algorithm>
#include <numeric>

#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

DataType cast_target(const std::string& to, bool& ok) {
  ok = true;
  if (to == "TO_FLOAT") return DataType::float32;
  if (to == "TO_STRING") return DataType::string;
  if (to == "TO_INT64") return DataType::int64;
  ok = false;
  return DataType::undefined;
}

void infer_cast_map(InferContext& ctx) {
  bool ok = false;
  const DataType t = cast_target(ctx.attrs().get_string("cast_to", "TO_FLOAT"), ok);
  if (!ok) infer_fail("cast_to must be TO_FLOAT, TO_STRING or TO_INT64");
  const std::string form = ctx.attrs().get_string("map_form", "DENSE");
  if (form != "DENSE" && form != "SPARSE") infer_fail("map_form must be DENSE or SPARSE");
  const Dim n = form == "SPARSE" ? Dim::value(ctx.attrs().get_int("max_map", 1)) : Dim();
  set_output_tensor(ctx, 0, static_cast<int32_t>(t), Dims{Dim::value(1), n});
  if (form == "DENSE") ctx.explain(0, "a dense cast has as many values as the map has keys");
}

// One map value (string or float) as the target type.
void put(const Tensor& values, std::size_t from, Tensor& out, std::size_t to, DataType t) {
  const bool from_string = values.dtype() == DataType::string;
  if (t == DataType::string) {
    out.mutable_strings()[to] =
        from_string ? values.strings()[from] : std::to_string(values.data<float>()[from]);
    return;
  }
  const double v = from_string ? std::strtod(values.strings()[from].c_str(), nullptr)
                               : static_cast<double>(values.data<float>()[from]);
  if (t == DataType::float32)
    out.mutable_data<float>()[to] = static_cast<float>(v);
  else
    out.mutable_data<int64_t>()[to] = static_cast<int64_t>(v);
}

void cast_map_kernel(KernelContext& ctx) {
  const Value& m = ctx.input_value(0);
  if (!m.is_map()) ctx.fail("X must be a map, got " + m.describe());
  if (m.map_keys().dtype() != DataType::int64) ctx.fail("the map's keys must be int64");
  const Tensor& values = m.map_values();
  if (values.dtype() != DataType::string && values.dtype() != DataType::float32)
    ctx.fail("the map's values must be strings or floats");
  bool ok = false;
  const DataType t = cast_target(ctx.attrs().get_string("cast_to", "TO_FLOAT"), ok);
  if (!ok) ctx.fail("cast_to must be TO_FLOAT, TO_STRING or TO_INT64");
  const std::string form = ctx.attrs().get_string("map_form", "DENSE");
  const int64_t* keys = m.map_keys().data<int64_t>();
  std::vector<std::size_t> order(static_cast<std::size_t>(m.map_keys().numel()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  if (form == "DENSE") {
    Tensor& out = ctx.output(0, t, {1, static_cast<int64_t>(order.size())});
    for (std::size_t i = 0; i < order.size(); ++i) put(values, order[i], out, i, t);
    return;
  }
  if (form != "SPARSE") ctx.fail("map_form must be DENSE or SPARSE");
  const int64_t max_map = ctx.attrs().get_int("max_map", 1);
  if (max_map < 0) ctx.fail("max_map must be >= 0");
  Tensor& out = ctx.output(0, t, {1, max_map});
  for (std::size_t i : order) {
    if (keys[i] < 0 || keys[i] >= max_map)
      ctx.fail("key " + std::to_string(keys[i]) + " is outside [0, max_map)");
    put(values, i, out, static_cast<std::size_t>(keys[i]), t);
  }
}

}  // namespace

void define_ml_CastMap(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("cast_to", AttrType::s, "TO_FLOAT")
      .attr("map_form", AttrType::s, "DENSE")
      .attr("max_map", AttrType::i, int64_t{1})
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"map(int64, string)", "map(int64, float)"})
      .constraint("T2", {"tensor(string)", "tensor(float)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_cast_map).kernel(cast_map_kernel);
}

}  // namespace onnxtool::ops
