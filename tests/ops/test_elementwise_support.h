// SPDX-License-Identifier: Apache-2.0
// Shared by the element-wise operator tests: one-node (or few-node) models written in the ONNX
// textual syntax, run through the real Session and inferred by the real engine with the
// standard registry.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "core/types/tensor.h"
#include "core/types/value.h"

namespace onnxtool::test {

// A model from its text; `opset` fills the header when the text has none (it starts with a
// graph name rather than '<').
Model parse_model(const std::string& text, int64_t opset = 21);

using Feeds = std::vector<std::pair<std::string, Tensor>>;

// Runs the model (2 threads) and returns its outputs' tensors.
std::vector<Tensor> run_model(const std::string& text, const Feeds& feeds, int64_t opset = 21,
                              int threads = 2);
Tensor run1(const std::string& text, const Feeds& feeds, int64_t opset = 21);
// The error planning or running gives, as "location: message"; "no error" when there is none.
std::string run_error(const std::string& text, const Feeds& feeds, int64_t opset = 21);

// One node `op` (attributes as written between < and >, e.g. "alpha = 0.5") over inputs x0, x1,
// ... declared with the tensors' types and shapes, giving y. An undefined Tensor leaves that
// optional input out ("").
std::string op_model(const std::string& op, const std::vector<Tensor>& inputs,
                     const std::string& attrs = "");
Tensor run_op(const std::string& op, const std::vector<Tensor>& inputs,
              const std::string& attrs = "", int64_t opset = 21);
std::string op_error(const std::string& op, const std::vector<Tensor>& inputs,
                     const std::string& attrs = "", int64_t opset = 21);

struct Inferred {
  std::shared_ptr<Model> model;  // the result points into it
  InferResult result;
  std::vector<Diagnostic> diagnostics;

  // "float[N,3]"; "<none>" when the value is unknown.
  std::string type(const std::string& value) const;
  // "[N,3]"; "<none>" when no values were propagated.
  std::string values(const std::string& value) const;
  // Every diagnostic as "rule: message", one per line.
  std::string messages() const;
};
Inferred infer(const std::string& text, int64_t opset = 21);

template <class T>
Tensor make(Shape shape, const std::vector<T>& values) {
  return Tensor::from_vector<T>(std::move(shape), values);
}
template <class T>
std::vector<T> elements(const Tensor& t) {
  if constexpr (std::is_same_v<T, std::string>) {
    return t.strings();
  } else {
    const auto s = t.span<T>();
    return {s.begin(), s.end()};
  }
}

}  // namespace onnxtool::test
