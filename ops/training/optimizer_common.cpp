// SPDX-License-Identifier: Apache-2.0
#include "ops/training/optimizer_common.h"

namespace onnxtool::ops::training {

namespace {

// Inputs 2.. hold `groups` lists of n tensors each.
std::size_t tensors_per_group(std::size_t inputs, int groups,
                              const std::function<void(const std::string&)>& fail) {
  const auto g = static_cast<std::size_t>(groups);
  if (inputs < 2 + g || (inputs - 2) % g != 0)
    fail("expected R, T and " + std::to_string(groups) +
         " lists of the same number of tensors, got " + std::to_string(inputs) + " inputs");
  return (inputs - 2) / g;
}

}  // namespace

void infer_optimizer(InferContext& ctx, int groups) {
  const std::size_t n =
      tensors_per_group(ctx.num_inputs(), groups, [](const std::string& m) { infer_fail(m); });
  if (ctx.num_outputs() != n * static_cast<std::size_t>(groups - 1))
    infer_fail("expected " + std::to_string(n * static_cast<std::size_t>(groups - 1)) +
               " outputs, got " + std::to_string(ctx.num_outputs()));
  const Dims* r = misc::input_dims(ctx, 0);
  const Dims* t = misc::input_dims(ctx, 1);
  if ((r && !r->empty()) || (t && !t->empty())) infer_fail("R and T must be scalars");
  for (std::size_t i = 0; i < n; ++i) {
    // X_new like X; each state output like its state input (group 2 on; G has no output).
    ctx.set_output_type(i, ctx.input_type(2 + i));
    for (int g = 2; g < groups; ++g)
      ctx.set_output_type(static_cast<std::size_t>(g - 1) * n + i,
                          ctx.input_type(2 + static_cast<std::size_t>(g) * n + i));
  }
}

void run_optimizer(KernelContext& ctx, int groups, const Update& update) {
  const std::size_t n =
      tensors_per_group(ctx.num_inputs(), groups, [&](const std::string& m) { ctx.fail(m); });
  const double r = misc::value_at<double>(ctx, ctx.input(0), 0, "R");
  const int64_t t = misc::value_at<int64_t>(ctx, ctx.input(1), 0, "T");
  const auto ug = static_cast<std::size_t>(groups);
  for (std::size_t i = 0; i < n; ++i) {
    const Tensor& x = ctx.input(2 + i);
    misc::require_float(ctx, x, "X");
    std::vector<std::vector<double>> in;
    for (std::size_t g = 0; g < ug; ++g) {
      const Tensor& v = ctx.input(2 + g * n + i);
      if (v.shape() != x.shape())
        ctx.fail("input " + std::to_string(2 + g * n + i) + " has shape " +
                 shape_to_string(v.shape()) + ", X " + shape_to_string(x.shape()));
      in.push_back(misc::values_as<double>(ctx, v, "optimizer input"));
    }
    std::vector<std::vector<double>> out(ug - 1, std::vector<double>(in[0].size()));
    std::vector<double> e_in(ug), e_out(ug - 1);
    for (std::size_t k = 0; k < in[0].size(); ++k) {
      for (std::size_t g = 0; g < ug; ++g) e_in[g] = in[g][k];
      update(r, t, e_in.data(), e_out.data());
      for (std::size_t g = 0; g + 1 < ug; ++g) out[g][k] = e_out[g];
    }
    for (std::size_t g = 0; g + 1 < ug; ++g) {
      const std::size_t o = g * n + i;
      if (o < ctx.num_outputs() && ctx.has_output(o))
        misc::write_output<double>(ctx, o, ctx.input(2 + (g == 0 ? 0 : g + 1) * n + i).dtype(),
                                   x.shape(), out[g]);
    }
  }
}

}  // namespace onnxtool::ops::training
