// SPDX-License-Identifier: Apache-2.0
// Shared by the tensor / data-movement operator tests (test_tensor_*.cpp): one-node models in
// the ONNX textual syntax, run through the real Session and inferred by the real engine with
// the standard registry.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "core/types/tensor.h"
#include "core/types/value.h"

namespace onnxtool::tensor_test {

// A model from its text; the header (IR 10, the default domain at `opset`) is added when the
// text starts with the graph.
Model model_of(const std::string& text, int64_t opset);

using Feeds = std::vector<std::pair<std::string, Value>>;
std::vector<Value> run_model(const std::string& text, const Feeds& feeds, int64_t opset,
                             int threads = 2);
// "location: message" of the error planning or running gives; "no error" when none.
std::string run_error(const std::string& text, const Feeds& feeds, int64_t opset);

// One node: op_type with attributes (as written between < >) over inputs x0, x1, ... (an
// undefined Tensor leaves that input out), giving `outputs` outputs y0, y1, ...
struct Op {
  std::string op;
  std::vector<Tensor> inputs;
  std::string attrs;
  int64_t opset = 21;
  int outputs = 1;
  int threads = 2;
};
std::string op_text(const Op& op);
std::vector<Tensor> run_op(const Op& op);
Tensor run1(const Op& op);
std::string op_error(const Op& op);

struct Inferred {
  std::shared_ptr<Model> model;
  InferResult result;
  std::vector<Diagnostic> diagnostics;
  std::string type(const std::string& value) const;    // "float[N,3]", "<none>"
  std::string values(const std::string& value) const;  // "[N,3]", "<none>"
  std::string messages() const;                        // "rule: message" lines
};
Inferred infer(const std::string& text, int64_t opset);

template <class T>
Tensor make(Shape shape, const std::vector<T>& values) {
  return Tensor::from_vector<T>(std::move(shape), values);
}
// 0, 1, 2, ... as float, in the shape.
Tensor iota_f(Shape shape);
Tensor iota_i64(Shape shape);
template <class T>
std::vector<T> elements(const Tensor& t) {
  if constexpr (std::is_same_v<T, std::string>) {
    return t.strings();
  } else {
    const auto s = t.span<T>();
    return {s.begin(), s.end()};
  }
}
// Every element of any type as text ("1", "a", "0x3c00" for narrow floats), for comparisons
// across types.
std::vector<std::string> texts(const Tensor& t);

}  // namespace onnxtool::tensor_test
