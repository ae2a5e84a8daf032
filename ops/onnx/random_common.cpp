// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/random_common.h"

#include <memory>

namespace onnxtool::ops::rnd {

Generator prepare_generator(PrepareContext& ctx) {
  const auto seed = ctx.attrs().opt_float("seed");
  const uint64_t s =
      seed ? static_cast<uint64_t>(static_cast<int64_t>(*seed)) : std::random_device{}();
  Generator g{std::make_shared<Generator::Shared>()};
  g.shared->engine.seed(s);
  return g;
}

namespace {

bool allowed_type(int32_t t, std::span<const DataType> allowed) {
  for (DataType a : allowed)
    if (static_cast<int32_t>(a) == t) return true;
  return false;
}

}  // namespace

int32_t output_dtype(const InferContext& ctx, int32_t fallback, std::span<const DataType> allowed) {
  const auto d = ctx.attrs().opt_int("dtype");
  const int32_t t = d ? static_cast<int32_t>(*d) : fallback;
  if (t != 0 && !allowed_type(t, allowed))
    infer_fail("output type " + type_name_or_number(t) + " is not allowed here");
  return t;
}

DataType output_dtype(const KernelContext& ctx, DataType fallback,
                      std::span<const DataType> allowed) {
  const auto d = ctx.attrs().opt_int("dtype");
  const int32_t t = d ? static_cast<int32_t>(*d) : static_cast<int32_t>(fallback);
  if (!allowed_type(t, allowed))
    ctx.fail("output type " + type_name_or_number(t) + " is not allowed here");
  return static_cast<DataType>(t);
}

std::span<const DataType> float_outputs() {
  static constexpr DataType k[] = {DataType::float16, DataType::float32, DataType::float64,
                                   DataType::bfloat16};
  return k;
}

void infer_from_shape_attribute(InferContext& ctx) {
  const int32_t t = output_dtype(ctx, static_cast<int32_t>(DataType::float32), float_outputs());
  Dims shape;
  for (int64_t d : ctx.attrs().get_ints("shape")) {
    if (d < 0) infer_fail("shape has a negative dim " + std::to_string(d));
    shape.push_back(Dim::value(d));
  }
  set_output_tensor(ctx, 0, t, shape);
}

Shape shape_attribute(const KernelContext& ctx) {
  const Shape shape = ctx.attrs().get_ints("shape");
  for (int64_t d : shape)
    if (d < 0) ctx.fail("shape has a negative dim " + std::to_string(d));
  return shape;
}

}  // namespace onnxtool::ops::rnd
