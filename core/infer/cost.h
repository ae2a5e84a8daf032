// SPDX-License-Identifier: Apache-2.0
// How heavy a model is (onnxtool info --cost), from the shapes inference gives its values:
// per node of the main graph and in total, multiply-accumulates and floating-point operations,
// parameters, the bytes each node reads and writes, and the activation memory a run holds at
// its peak when each value lives from the node that makes it to the last node that reads it
// (the executor's lifetimes, node order as stored).
//
// Counting rules:
//   - an operator that declares its arithmetic (OpVersion::macs: Conv, ConvTranspose, Gemm,
//     MatMul, their integer and quantized forms, the recurrent networks, Attention) gives MACs,
//     and FLOPs are twice that;
//   - an operator that declares other floating-point work (OpVersion::flops) gives that:
//     pooling (every output element reads its window), reductions and global pools (one per
//     input element), normalisations and softmax (a few per input element; nn_common.h);
//   - any other operator counts one operation per output element (element-wise), the
//     convention of the tools that count FLOPs;
//   - parameters are the elements of the initializers a node reads (each initializer counted
//     once, for its first reader);
//   - a node whose shapes inference cannot tell counts nothing and is flagged `unknown`; bind
//     symbolic dims (InferOptions::dims, input_shapes) to count it.
// Nodes with subgraphs (If, Loop, Scan) count their own outputs only, and are flagged.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace onnxtool {

class Registry;
struct InferResult;

struct NodeCost {
  std::string location;  // graph.node[3] "conv1" (Conv)
  std::string op;        // Conv, or domain.Op
  double macs = 0, flops = 0;
  int64_t params = 0;
  uint64_t bytes_read = 0, bytes_written = 0;
  bool unknown = false;        // some input or output shape is not known
  bool has_subgraphs = false;  // its subgraphs' work is not counted
};

struct OpTypeCost {
  int64_t nodes = 0;
  double macs = 0, flops = 0;
  int64_t params = 0;
};

struct ModelCost {
  std::vector<NodeCost> nodes;              // main graph, in stored order
  std::map<std::string, OpTypeCost> by_op;  // by operator
  double macs = 0, flops = 0;
  int64_t params = 0;
  uint64_t param_bytes = 0;
  uint64_t bytes_read = 0, bytes_written = 0;
  uint64_t activation_bytes = 0;  // every node output's size, summed
  uint64_t peak_bytes = 0;        // largest sum of live values (inputs and node outputs)
  std::string peak_after;         // the node after which the peak is reached
  int64_t unknown_nodes = 0;
};

ModelCost estimate_cost(const Model& model, const InferResult& types, const Registry& registry);

}  // namespace onnxtool
