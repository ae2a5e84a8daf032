// SPDX-License-Identifier: Apache-2.0
// BatchNormalization: the ai.onnx operator.
//
// Inference: y = scale * (x - mean) / sqrt(var + epsilon) + B per channel, folded into
// y = a * x + b with a and b computed once per channel. Training (training_mode from 14; before
// that, asking for the statistics outputs, with is_test 0 before 7) normalises with the batch's
// own mean and population variance and returns the running statistics
// input * momentum + batch * (1 - momentum) (and the batch statistics, before 14).
// spatial = 0 (before 9) keeps statistics per activation (every element of X[1:]) rather than
// per channel.
#include <cmath>
#include <type_traits>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/kernels/vmath.h"
#include "core/registry/fusion.h"
#include "ops/onnx/nn_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

bool per_activation(int since, const AttrView& attrs) {
  return since < 9 && attrs.get_int("spatial", 1) == 0;
}

void infer_batch_norm(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const auto x = nn::shape_with_min_rank(ctx, 0, 2);
  set_output_tensor(ctx, 0, elem, x);
  std::optional<Dims> stats;
  if (x && !per_activation(ctx.schema().since, ctx.attrs()))
    stats = Dims{(*x)[1]};
  else if (x)
    stats = Dims(x->begin() + 1, x->end());
  for (std::size_t i = 1; i < 5; ++i)
    if (ctx.has_input(i) && ctx.input_type(i).has_shape() && stats)
      stats = unify_shapes(stats, ctx.input_type(i).shape, "the statistics' shape");
  // Outputs 1.. are the running and saved statistics, typed like the mean input.
  for (std::size_t i = 1; i < ctx.num_outputs(); ++i)
    if (ctx.has_output(i)) set_output_tensor(ctx, i, ctx.input_elem_type(i < 3 ? 3 : 1), stats);
}

bool training(const NodeInfo& ctx) {
  const int since = ctx.schema().since;
  if (since >= 14) return ctx.attrs().get_int("training_mode", 0) != 0;
  bool extra = false;
  for (std::size_t i = 1; i < ctx.listed_outputs(); ++i) extra = extra || ctx.names_output(i);
  if (since < 7) return extra && ctx.attrs().get_int("is_test", 0) == 0;
  return extra;
}

// X seen as [n, s, inner]: s statistics (channels, or every activation with spatial 0).
struct BnShape {
  int64_t n = 0, s = 0, inner = 0;
};

std::vector<double> param(const KernelContext& ctx, std::size_t i, int64_t s, const char* name) {
  const Tensor& t = ctx.input(i);
  if (t.numel() != s)
    ctx.fail(std::string(name) + " has shape " + shape_to_string(t.shape()) + ", expected " +
             std::to_string(s) + " values");
  std::vector<double> v(static_cast<std::size_t>(s));
  for (int64_t k = 0; k < s; ++k) v[static_cast<std::size_t>(k)] = nn::element_as_double(t, k);
  return v;
}

// Mean and population variance of each statistic over the batch and the inner dims.
template <class T>
void batch_statistics(const KernelContext& ctx, const BnShape& b, const T* x,
                      std::vector<double>& mean, std::vector<double>& var) {
  ctx.parallel_for(b.s, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t c = lo; c < hi; ++c) {
      double sum = 0, sq = 0;
      for (int64_t n = 0; n < b.n; ++n) {
        const T* p = x + (n * b.s + c) * b.inner;
        for (int64_t i = 0; i < b.inner; ++i) sum += static_cast<double>(nn::load<T>(p[i]));
      }
      const double count = static_cast<double>(b.n * b.inner);
      const double m = count > 0 ? sum / count : 0.0;
      for (int64_t n = 0; n < b.n; ++n) {
        const T* p = x + (n * b.s + c) * b.inner;
        for (int64_t i = 0; i < b.inner; ++i) {
          const double d = static_cast<double>(nn::load<T>(p[i])) - m;
          sq += d * d;
        }
      }
      mean[static_cast<std::size_t>(c)] = m;
      var[static_cast<std::size_t>(c)] = count > 0 ? sq / count : 0.0;
    }
  });
}

template <class T>
void apply_affine(const KernelContext& ctx, const BnShape& b, const std::vector<double>& scale,
                  const std::vector<double>& shift, const T* x, T* y,
                  const kernels::Epilogue& epilogue = {}) {
  using A = nn::acc_t<T>;
  ctx.parallel_for(b.n * b.s, nn::grain_for(b.inner), [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const auto c = static_cast<std::size_t>(plane % b.s);
      const A a = static_cast<A>(scale[c]), sh = static_cast<A>(shift[c]);
      const T* src = x + plane * b.inner;
      T* dst = y + plane * b.inner;
      if constexpr (std::is_same_v<T, float>) {
        // One pass, the activation included, in vectors.
        kernels::affine_f32(src, a, sh, dst, b.inner, epilogue);
        continue;
      }
      for (int64_t i = 0; i < b.inner; ++i) dst[i] = nn::store<T>(a * nn::load<T>(src[i]) + sh);
      if constexpr (std::is_floating_point_v<T>) epilogue.apply(dst, b.inner);
    }
  });
}

void write_stats(KernelContext& ctx, std::size_t out, const Tensor& like,
                 const std::vector<double>& v) {
  if (out >= ctx.num_outputs() || !ctx.has_output(out)) return;
  Tensor& t = ctx.output(out, like.dtype(), like.shape());
  nn::visit_float(ctx, t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* p = t.mutable_data<T>();
    for (std::size_t i = 0; i < v.size(); ++i) p[i] = nn::store<T>(static_cast<nn::acc_t<T>>(v[i]));
  });
}

// What BatchNormalization decodes once per node; in inference with constant statistics (every
// exported model), also the per-channel y = a * x + shift, computed as a run would.
struct BatchNormState {
  bool spatial = true, train = false;
  double eps = 1e-5, momentum = 0.9;
  std::vector<double> a, shift;  // empty unless precomputed
  kernels::Epilogue epilogue;    // from a fusion (core/exec/passes/fuse_epilogue.h)
};

// y = a * x + shift per statistic, from the inputs' statistics (inference) or the batch's.
void affine_from(const std::vector<double>& scale, const std::vector<double>& bias,
                 const std::vector<double>& mean, const std::vector<double>& var, double eps,
                 std::vector<double>& a, std::vector<double>& shift) {
  a.resize(scale.size());
  shift.resize(scale.size());
  for (std::size_t c = 0; c < scale.size(); ++c) {
    a[c] = scale[c] / std::sqrt(var[c] + eps);
    shift[c] = bias[c] - mean[c] * a[c];
  }
}

std::vector<double> constant_values(const PrepareContext& ctx, std::size_t i, int64_t s) {
  const Tensor* t = ctx.constant_tensor(i);
  if (!t || t->numel() != s || !is_float(t->dtype())) return {};
  return nn::doubles_of(*t);
}

BatchNormState prepare_batch_norm(PrepareContext& ctx) {
  BatchNormState st;
  st.spatial = !per_activation(ctx.schema().since, ctx.attrs());
  st.eps = ctx.attrs().get_float("epsilon", 1e-5f);
  st.momentum = ctx.attrs().get_float("momentum", 0.9f);
  st.train = training(ctx);
  st.epilogue = epilogue_of(ctx.attrs());
  const Tensor* scale = ctx.constant_tensor(1);
  if (st.train || !scale || scale->rank() != 1) return st;
  const int64_t s = scale->numel();
  const auto sc = constant_values(ctx, 1, s), b = constant_values(ctx, 2, s),
             mean = constant_values(ctx, 3, s), var = constant_values(ctx, 4, s);
  const auto n = static_cast<std::size_t>(s);
  if (sc.size() == n && b.size() == n && mean.size() == n && var.size() == n)
    affine_from(sc, b, mean, var, st.eps, st.a, st.shift);
  return st;
}

// Whether the node normalises per channel in inference mode and writes Y alone.
bool inference_per_channel(const FusionNode& n) {
  const int since = n.schema.since;
  if (per_activation(since, n.attrs) || n.constants.size() != 5 || n.writes_other_outputs)
    return false;
  return since < 14 || n.attrs.get_int("training_mode", 0) == 0;
}

// For the executor's fusion (core/registry/fusion.h): y = a * x + shift per channel when the
// node normalises with constant statistics (inference, per channel) and writes Y alone.
bool batch_norm_channel_affine(const FusionNode& n, ChannelAffine& out) {
  if (!inference_per_channel(n)) return false;
  std::vector<double> stats[4];
  for (std::size_t i = 1; i < 5; ++i) {
    const Tensor* t = n.constants[i];
    if (!t || t->rank() != 1 || !is_float(t->dtype()) || t->numel() != n.constants[1]->numel())
      return false;
    stats[i - 1] = nn::doubles_of(*t);
  }
  affine_from(stats[0], stats[1], stats[2], stats[3], n.attrs.get_float("epsilon", 1e-5f),
              out.scale, out.shift);
  return true;
}

// For the executor's fusion: a per-channel y' = s * y + t after the node (Mul, Add by
// constants) folds into its scale and B: s * scale and s * B + t, rounded to float once.
bool batch_norm_absorb_channel_affine(const FusionNode& n, const ChannelAffine& affine,
                                      ReplacedInputs& out) {
  if (!inference_per_channel(n)) return false;
  const Tensor *scale = n.constants[1], *bias = n.constants[2];
  if (!scale || !bias || scale->dtype() != DataType::float32 ||
      bias->dtype() != DataType::float32 || scale->rank() != 1 || bias->numel() != scale->numel())
    return false;
  const int64_t c = scale->numel();
  if (!affine.fits(c, n.output_rank)) return false;
  Tensor s2 = Tensor::uninitialized(DataType::float32, {c});
  Tensor b2 = Tensor::uninitialized(DataType::float32, {c});
  for (int64_t i = 0; i < c; ++i) {
    const double s = affine.scale_at(i);
    s2.mutable_data<float>()[i] = static_cast<float>(s * scale->data<float>()[i]);
    b2.mutable_data<float>()[i] =
        static_cast<float>(s * bias->data<float>()[i] + affine.shift_at(i));
  }
  out.inputs.emplace_back(1, std::move(s2));
  out.inputs.emplace_back(2, std::move(b2));
  return true;
}

// For the executor's fusion (core/registry/fusion.h): the node with its epilogue as a
// transform a consumer applies to its input: the float32 a and shift apply_affine takes, the
// product and sum rounded as affine_f32 rounds them. Inference per channel, float32 Y.
bool batch_norm_transforms_input(const FusionNode& n, InputTransform& out) {
  ChannelAffine affine;
  if (n.output_elem != 1 || !batch_norm_channel_affine(n, affine)) return false;
  out.scale.assign(affine.scale.begin(), affine.scale.end());  // each rounded to float
  out.shift.assign(affine.shift.begin(), affine.shift.end());
  out.activation = epilogue_of(n.attrs);
  // A reader packing its input applies clamps only (kernels::Epilogue::in_registers).
  return out.activation.in_registers();
}

// Epilogues (Relu...) on a float output in inference mode, applied to each plane as it is made.
bool batch_norm_takes_epilogue(const FusionNode& n) {
  return inference_per_channel(n) && n.output_elem == 1;  // TensorProto::FLOAT
}

void batch_norm_kernel(KernelContext& ctx, const BatchNormState& st) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2)
    ctx.fail("X has shape " + shape_to_string(x.shape()) + "; expected [N, C, D1, ...]");
  BnShape b;
  b.n = x.shape()[0];
  b.s = st.spatial ? x.shape()[1] : nn::product(x.shape(), 1, x.shape().size());
  b.inner = st.spatial ? nn::product(x.shape(), 2, x.shape().size()) : 1;
  if (!st.a.empty() && static_cast<int64_t>(st.a.size()) == b.s) {
    Tensor& y = ctx.output_uninitialized(0, x.dtype(), x.shape());
    nn::visit_float(ctx, x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      apply_affine(ctx, b, st.a, st.shift, x.data<T>(), y.mutable_data<T>(), st.epilogue);
    });
    return;
  }
  const double eps = st.eps, momentum = st.momentum;
  const std::vector<double> scale = param(ctx, 1, b.s, "scale"), bias = param(ctx, 2, b.s, "B");
  std::vector<double> mean = param(ctx, 3, b.s, "mean"), var = param(ctx, 4, b.s, "var");
  Tensor& y = ctx.output_uninitialized(0, x.dtype(), x.shape());
  const bool train = st.train;
  std::vector<double> batch_mean(mean.size()), batch_var(var.size());
  if (train)
    nn::visit_float(ctx, x.dtype(), [&](auto tag) {
      batch_statistics(ctx, b, x.data<decltype(tag)>(), batch_mean, batch_var);
    });
  std::vector<double> a, shift;
  affine_from(scale, bias, train ? batch_mean : mean, train ? batch_var : var, eps, a, shift);
  nn::visit_float(ctx, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    apply_affine(ctx, b, a, shift, x.data<T>(), y.mutable_data<T>(), st.epilogue);
  });
  if (!train) return;
  std::vector<double> running_mean(mean.size()), running_var(var.size());
  for (std::size_t c = 0; c < mean.size(); ++c) {
    running_mean[c] = mean[c] * momentum + batch_mean[c] * (1 - momentum);
    running_var[c] = var[c] * momentum + batch_var[c] * (1 - momentum);
  }
  write_stats(ctx, 1, ctx.input(3), running_mean);
  write_stats(ctx, 2, ctx.input(4), running_var);
  write_stats(ctx, 3, ctx.input(3), batch_mean);
  write_stats(ctx, 4, ctx.input(4), batch_var);
}

// ---- version adapters --------------------------------------------------------------------

bool bn_training_outputs(const AdapterContext& ctx) {
  for (std::size_t i = 1; i < ctx.num_outputs(); ++i)
    if (ctx.has_output(i)) return true;
  return false;
}

// BatchNormalization-1 requires consumed_inputs; its value changes nothing.
void bn_consumed_inputs_back(AdapterContext& ctx) {
  ctx.set_attribute("consumed_inputs", std::vector<int64_t>{0, 0});
  ctx.describe("consumed_inputs=[0,0] (required, with no effect)");
}

// Up to 7: test or training mode is no longer an attribute but the number of outputs. is_test=0
// (the default) with Y alone used the batch's statistics; version 7 with Y alone uses the
// running ones.
void bn_drop_is_test(AdapterContext& ctx) {
  const int64_t is_test = ctx.int_attribute("is_test").value_or(0);
  if (is_test == 0 && !bn_training_outputs(ctx))
    ctx.approximate("is_test=0 normalized with the batch's statistics; " + ctx.to().id() +
                    " with Y alone uses the running mean and variance");
  ctx.remove_attribute("is_test");
  ctx.describe("is_test=" + std::to_string(is_test) + " dropped (the outputs say the mode)");
}

void bn_is_test_from_outputs(AdapterContext& ctx) {
  const bool training = bn_training_outputs(ctx);
  ctx.set_attribute("is_test", int64_t{training ? 0 : 1});
  ctx.describe(std::string("is_test=") + (training ? "0" : "1") + " (from the outputs used)");
}

// Up to 14: training mode becomes training_mode=1, with running mean and variance as outputs 1
// and 2; the saved mean and variance (outputs 3, 4) no longer exist.
void bn_training_mode_from_outputs(AdapterContext& ctx) {
  if (!bn_training_outputs(ctx)) return;
  if (ctx.has_output(3) || ctx.has_output(4))
    ctx.refuse("saved_mean and saved_var have no equivalent in " + ctx.to().id());
  ctx.truncate_outputs(3);
  ctx.set_attribute("training_mode", int64_t{1});
  ctx.describe("training mode (outputs used): training_mode=1");
}

void bn_outputs_from_training_mode(AdapterContext& ctx) {
  const int64_t training = ctx.int_attribute("training_mode").value_or(0);
  if (training != 0 && !bn_training_outputs(ctx))
    ctx.refuse("training_mode=1 with Y alone has no equivalent in " + ctx.to().id() +
               ", where Y alone means test mode");
  if (training == 0 && bn_training_outputs(ctx))
    ctx.refuse("running_mean and running_var outside training mode have no equivalent in " +
               ctx.to().id());
  if (ctx.has_attribute("training_mode")) {
    ctx.remove_attribute("training_mode");
    ctx.describe("training_mode dropped (the outputs say the mode)");
  }
}

}  // namespace

void define_BatchNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("consumed_inputs", AttrType::ints)
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("is_test", AttrType::i, int64_t{0})
      .attr("momentum", AttrType::f, 0.9f)
      .attr("spatial", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("scale", "T")
      .input("B", "T")
      .input("mean", "T")
      .input("var", "T")
      .output("Y", "T")
      .output_optional("mean", "T")
      .output_optional("var", "T")
      .output_optional("saved_mean", "T")
      .output_optional("saved_var", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("is_test", AttrType::i, int64_t{0})
      .attr("momentum", AttrType::f, 0.9f)
      .attr("spatial", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("scale", "T")
      .input("B", "T")
      .input("mean", "T")
      .input("var", "T")
      .output("Y", "T")
      .output_optional("mean", "T")
      .output_optional("var", "T")
      .output_optional("saved_mean", "T")
      .output_optional("saved_var", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("momentum", AttrType::f, 0.9f)
      .attr("spatial", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("scale", "T")
      .input("B", "T")
      .input("mean", "T")
      .input("var", "T")
      .output("Y", "T")
      .output_optional("mean", "T")
      .output_optional("var", "T")
      .output_optional("saved_mean", "T")
      .output_optional("saved_var", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("momentum", AttrType::f, 0.9f)
      .input("X", "T", D::differentiable)
      .input("scale", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .input("mean", "T", D::differentiable)
      .input("var", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .output_optional("mean", "T", D::non_differentiable)
      .output_optional("var", "T", D::non_differentiable)
      .output_optional("saved_mean", "T", D::non_differentiable)
      .output_optional("saved_var", "T", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(14)
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("momentum", AttrType::f, 0.9f)
      .attr("training_mode", AttrType::i, int64_t{0})
      .input("X", "T", D::differentiable)
      .input("scale", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .input("input_mean", "U", D::differentiable)
      .input("input_var", "U", D::differentiable)
      .output("Y", "T", D::differentiable)
      .output_optional("running_mean", "U", D::non_differentiable)
      .output_optional("running_var", "U", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("U", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  op.since(15)
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("momentum", AttrType::f, 0.9f)
      .attr("training_mode", AttrType::i, int64_t{0})
      .input("X", "T", D::differentiable)
      .input("scale", "T1", D::differentiable)
      .input("B", "T1", D::differentiable)
      .input("input_mean", "T2", D::differentiable)
      .input("input_var", "T2", D::differentiable)
      .output("Y", "T", D::differentiable)
      .output_optional("running_mean", "T2", D::non_differentiable)
      .output_optional("running_var", "T2", D::non_differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(infer_batch_norm)
      .kernel(prepared_kernel(prepare_batch_norm, batch_norm_kernel))
      .channel_affine(batch_norm_channel_affine)
      .absorb_channel_affine(batch_norm_absorb_channel_affine)
      .takes_epilogue(batch_norm_takes_epilogue)
      .transforms_input(batch_norm_transforms_input);
  op.at(6).upgrade(convert::drop_attribute("consumed_inputs")).downgrade(bn_consumed_inputs_back);
  op.at(7).upgrade(bn_drop_is_test).downgrade(bn_is_test_from_outputs);
  op.at(9)
      .upgrade(convert::drop_attribute_if("spatial", 1, "per-activation statistics"))
      .downgrade(convert::unchanged(""));
  op.at(14).upgrade(bn_training_mode_from_outputs).downgrade(bn_outputs_from_training_mode);
  op.all().flops(nn::input_flops(2));
}

}  // namespace onnxtool::ops
