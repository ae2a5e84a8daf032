// SPDX-License-Identifier: Apache-2.0
// What the random-number operators share (RandomNormal, RandomUniform, their *Like forms,
// Bernoulli, Multinomial): a per-node generator seeded once from the `seed` attribute (or from
// the system when absent) that carries on across runs, as onnxruntime's do; and the output type
// rules of the dtype attribute.
#pragma once

#include <memory>
#include <mutex>
#include <random>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::rnd {

// The node's generator: built and seeded by the prepare step, it carries on across runs.
// Concurrent runs of one session take turns drawing (Draws holds the lock).
struct Generator {
  struct Shared {
    std::mutex mutex;
    std::mt19937_64 engine;
  };
  std::shared_ptr<Shared> shared;
};
Generator prepare_generator(PrepareContext& ctx);

class Draws {
 public:
  explicit Draws(const Generator& g) : lock_(g.shared->mutex), engine_(g.shared->engine) {}
  std::mt19937_64& engine() { return engine_; }

 private:
  std::lock_guard<std::mutex> lock_;
  std::mt19937_64& engine_;
};

// dtype attribute, else the fallback (the input's type for the *Like operators); 0 when
// neither is known. Fails when the result is not one of `allowed` (when known).
int32_t output_dtype(const InferContext& ctx, int32_t fallback, std::span<const DataType> allowed);
DataType output_dtype(const KernelContext& ctx, DataType fallback,
                      std::span<const DataType> allowed);

// RandomNormal and RandomUniform: the output's type (dtype, float by default) and its shape from
// the `shape` attribute; and that shape checked for the kernel.
void infer_from_shape_attribute(InferContext& ctx);
Shape shape_attribute(const KernelContext& ctx);

// Float output types of the random generators (bfloat16 from version 22).
std::span<const DataType> float_outputs();

}  // namespace onnxtool::ops::rnd
