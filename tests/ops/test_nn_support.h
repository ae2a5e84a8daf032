// SPDX-License-Identifier: Apache-2.0
// Helpers for the neural-network and reduction operator tests: run one node through the real
// executor (so the fast paths are what runs), infer one node's output types, make random
// tensors, compare with a tolerance.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/model.h"
#include "core/types/tensor.h"
#include "core/types/value.h"

namespace onnxtool::test::nn {

struct NodeCase {
  // One node in the ONNX textual syntax: "y = Conv <strides = [2, 2]> (x, w, b)".
  std::string node;
  int opset = 13;
  std::vector<std::pair<std::string, Tensor>> inputs;        // fed at run time
  std::vector<std::pair<std::string, Tensor>> initializers;  // constants of the graph
  int threads = 2;
};

// A model from the textual syntax, with these initializers added.
Model model_of(const std::string& text,
               const std::vector<std::pair<std::string, Tensor>>& constants);

// A model's outputs with the executor's fusions on (two threads, and one) and off, on the same
// feeds, and the nodes each plan runs. `disabled` leaves passes out of the fused runs.
struct FusedRuns {
  std::vector<Value> fused, unfused, fused_one_thread;
  int64_t fused_nodes = 0, unfused_nodes = 0;
};
FusedRuns run_fused_and_plain(const Model& m,
                              const std::vector<std::pair<std::string, Value>>& feeds,
                              const std::vector<std::string>& disabled = {});

// Runs the node; returns its outputs in the node's order. Throws what the executor throws.
std::vector<Value> run_node(const NodeCase& c);
// The same, twice on one session (the second run exercises per-node caches).
std::vector<Value> run_node_twice(const NodeCase& c);
// The message of the error the run raises ("" when it succeeds).
std::string run_error(const NodeCase& c);

// Infers the node with the given input types ("float[N,3,224,224]") and returns each output's
// type as text ("float[N,64,floor((H-1)/2)+1,?]"); an inference failure comes back as
// "error: MESSAGE" in place of the first output.
std::vector<std::string> infer_node(
    const std::string& node, int opset,
    const std::vector<std::pair<std::string, std::string>>& inputs,
    const std::vector<std::pair<std::string, Tensor>>& constants = {});

// Uniform values in [lo, hi), rounded to the element type.
Tensor random_tensor(DataType type, const Shape& shape, uint32_t seed, double lo = -1,
                     double hi = 1);
Tensor doubles(const Shape& shape, const std::vector<double>& values);
// Any numeric tensor's values, as double.
std::vector<double> values(const Tensor& t);
Tensor cast_to(const Tensor& t, DataType type);

// CHECKs shape equality and |got - want| <= atol + rtol * |want| element-wise (NaN equals NaN),
// reporting the first mismatch.
void check_close(const Tensor& got, const Tensor& want, double rtol = 1e-4, double atol = 1e-5);

}  // namespace onnxtool::test::nn
