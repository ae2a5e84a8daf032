// SPDX-License-Identifier: Apache-2.0
// Dropout: the ai.onnx operator.
//
// Inference (the usual case) is the identity: the output shares the input's storage and the
// mask is all ones (true from 10, 1 in T before). Training zeroes each element with probability
// `ratio` and scales the rest by 1 / (1 - ratio): before 7 when is_test is 0, from 12 when the
// training_mode input is true. The random stream is std::mt19937_64, seeded by `seed` when given
// (results then repeat from run to run, but cannot match another runtime's generator).
#include <random>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_dropout(InferContext& ctx) {
  propagate_elem_type(ctx, 0, 0);
  propagate_shape(ctx, 0, 0);
  if (ctx.num_outputs() < 2 || !ctx.has_output(1)) return;
  const int32_t mask =
      ctx.schema().since >= 10 ? static_cast<int32_t>(DataType::boolean) : ctx.input_elem_type(0);
  set_output_tensor(ctx, 1, mask, ctx.input_type(0).shape);
}

struct DropoutMode {
  bool training = false;
  double ratio = 0.5;
};

DropoutMode dropout_mode(const KernelContext& ctx) {
  DropoutMode m;
  const int since = ctx.schema().since;
  if (since < 12) {
    m.ratio = ctx.attrs().get_float("ratio", 0.5f);
    m.training = since < 7 && ctx.attrs().get_int("is_test", 0) == 0;
    return m;
  }
  if (ctx.has_input(1)) {
    const Tensor& r = ctx.input(1);
    if (r.numel() != 1) ctx.fail("ratio must be a scalar, has shape " + shape_to_string(r.shape()));
    m.ratio = nn::element_as_double(r, 0);
  }
  if (ctx.has_input(2)) {
    const Tensor& t = ctx.input(2);
    if (t.numel() != 1 || t.dtype() != DataType::boolean)
      ctx.fail("training_mode must be a bool scalar");
    m.training = t.data<bool>()[0];
  }
  return m;
}

void fill_mask_ones(KernelContext& ctx, const Tensor& x) {
  if (ctx.num_outputs() < 2 || !ctx.has_output(1)) return;
  if (ctx.schema().since >= 10) {
    Tensor& mask = ctx.output(1, DataType::boolean, x.shape());
    std::fill_n(mask.mutable_data<bool>(), mask.numel(), true);
    return;
  }
  Tensor& mask = ctx.output(1, x.dtype(), x.shape());
  nn::visit_float(
      ctx, x.dtype(),
      [&](auto tag) {
        using T = decltype(tag);
        std::fill_n(mask.mutable_data<T>(), mask.numel(), nn::store<T>(1));
      },
      true);
}

void dropout_train(KernelContext& ctx, const Tensor& x, double ratio) {
  if (ratio < 0 || ratio > 1) ctx.fail("ratio must be in [0, 1], got " + std::to_string(ratio));
  auto seed = ctx.attrs().opt_int("seed");
  std::mt19937_64 rng(seed ? static_cast<uint64_t>(*seed) : std::random_device{}());
  std::bernoulli_distribution keep(1.0 - ratio);
  std::vector<bool> kept(static_cast<std::size_t>(x.numel()));
  for (std::size_t i = 0; i < kept.size(); ++i) kept[i] = ratio < 1 && keep(rng);
  const double scale = ratio < 1 ? 1.0 / (1.0 - ratio) : 0.0;
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  const bool want_mask = ctx.num_outputs() > 1 && ctx.has_output(1);
  const bool bool_mask = ctx.schema().since >= 10;
  Tensor* mask =
      want_mask ? &ctx.output(1, bool_mask ? DataType::boolean : x.dtype(), x.shape()) : nullptr;
  nn::visit_float(
      ctx, x.dtype(),
      [&](auto tag) {
        using T = decltype(tag);
        using A = nn::acc_t<T>;
        const T* src = x.data<T>();
        T* dst = y.mutable_data<T>();
        for (std::size_t i = 0; i < kept.size(); ++i)
          dst[i] = nn::store<T>(kept[i] ? nn::load<T>(src[i]) * static_cast<A>(scale) : A(0));
        if (mask && bool_mask)
          for (std::size_t i = 0; i < kept.size(); ++i) mask->mutable_data<bool>()[i] = kept[i];
        else if (mask)
          for (std::size_t i = 0; i < kept.size(); ++i)
            mask->mutable_data<T>()[i] = nn::store<T>(kept[i] ? A(1) : A(0));
      },
      true);
}

void dropout_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const DropoutMode m = dropout_mode(ctx);
  if (m.training && m.ratio != 0) return dropout_train(ctx, x, m.ratio);
  ctx.set_output(0, Value(x));
  fill_mask_ones(ctx, x);
}

// ---- version adapters --------------------------------------------------------------------

// Up to 7: is_test=0 (the default) dropped at random; version 7 and later, with no way to ask
// for training, are read as inference (the output is the input).
void dropout_drop_is_test(AdapterContext& ctx) {
  const int64_t is_test = ctx.int_attribute("is_test").value_or(0);
  if (is_test == 0)
    ctx.approximate("is_test=0 dropped values at random; " + ctx.to().id() +
                    " is read as inference (the output is the input)");
  ctx.remove_attribute("is_test");
  ctx.describe("is_test=" + std::to_string(is_test) + " dropped");
}

// Down from 12: training_mode must be absent or a constant false, and the seed (which only
// training reads) goes.
void dropout_inference_only(AdapterContext& ctx) {
  if (ctx.has_input(2)) {
    const auto t = ctx.constant_input(2);
    const bool off = t && t->dtype() == DataType::boolean && t->numel() == 1 && !t->data<bool>()[0];
    if (!off)
      ctx.refuse("training_mode (input 2) is not a constant false, and " + ctx.to().id() +
                 " has no training mode");
    ctx.truncate_inputs(2);
    ctx.describe("training_mode (false) dropped");
  }
  if (ctx.has_attribute("seed")) {
    ctx.remove_attribute("seed");
    ctx.describe("seed dropped (only training reads it)");
  }
}

}  // namespace

void define_Dropout(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr("is_test", AttrType::i, int64_t{0})
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("is_test", AttrType::i, int64_t{0})
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(10)
      .attr("ratio", AttrType::f, 0.5f)
      .input("data", "T")
      .output("output", "T")
      .output_optional("mask", "T1")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(12)
      .attr_optional("seed", AttrType::i)
      .input("data", "T")
      .input_optional("ratio", "T1")
      .input_optional("training_mode", "T2")
      .output("output", "T")
      .output_optional("mask", "T2")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(13)
      .attr_optional("seed", AttrType::i)
      .input("data", "T", D::differentiable)
      .input_optional("ratio", "T1", D::non_differentiable)
      .input_optional("training_mode", "T2", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output_optional("mask", "T2", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(22)
      .attr_optional("seed", AttrType::i)
      .input("data", "T", D::differentiable)
      .input_optional("ratio", "T1", D::non_differentiable)
      .input_optional("training_mode", "T2", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output_optional("mask", "T2", D::non_differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)"})
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  // Draws differ from run to run (a fresh mask in training mode): never folded at load.
  op.all().infer(infer_dropout).kernel(dropout_kernel).trait(Trait::nondeterministic);
  // Inference mode gives the data back: before 7 when is_test says so, 7 to 11 always, from 12
  // when no training_mode input is given.
  op.from(1, 6).passes_through([](const AttrView& attrs, const std::vector<bool>&, int32_t) {
    return attrs.get_int("is_test", 0) != 0;
  });
  op.from(7, 11).passes_through(
      [](const AttrView&, const std::vector<bool>&, int32_t) { return true; });
  op.from(12).passes_through([](const AttrView&, const std::vector<bool>& named, int32_t) {
    return named.size() < 3 || !named[2];
  });
  convert::bridge_dropped_attribute(op, "consumed_inputs");
  op.at(7).upgrade(dropout_drop_is_test).downgrade(convert::set_attribute_if_absent("is_test", 1));
  op.at(12)
      .upgrade(convert::float_attribute_to_input("ratio", 1))
      .downgrade(
          convert::all_of({dropout_inference_only, convert::input_to_float_attribute("ratio", 1)}));
}

}  // namespace onnxtool::ops
