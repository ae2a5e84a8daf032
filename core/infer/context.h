// SPDX-License-Identifier: Apache-2.0
// What an operator's inference function sees and does. The engine (core/infer/engine.h)
// implements it; operator files only call it.
//
//   void infer_relu(InferContext& ctx) { ctx.set_output_type(0, ctx.input_type(0)); }
//
// An inference function reads input types (and, where known, constant input values or
// propagated shape data), reads attributes through attrs(), and sets output types. It reports
// a contradiction with fail(), which records an error at the node and stops only this node.
// Operators that compute shapes (Shape, Gather, Concat, Slice, arithmetic on int64 vectors...)
// also set output *values* with set_output_values() so that a later Reshape or Expand sees
// known or symbolic dims: data propagation.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/infer/dim.h"
#include "core/infer/type.h"
#include "core/registry/attrs.h"
#include "core/types/tensor.h"

namespace onnx {
class NodeProto;
class GraphProto;
}  // namespace onnx

namespace onnxtool {

struct OpVersion;

class InferContext {
 public:
  virtual ~InferContext() = default;

  virtual const onnx::NodeProto& node() const = 0;
  virtual const OpVersion& schema() const = 0;
  // The opset version in effect for the node's domain.
  virtual int64_t opset() const = 0;
  virtual const AttrView& attrs() const = 0;

  // Inputs: "present" means named in the node (optional inputs may be omitted with "").
  virtual std::size_t num_inputs() const = 0;
  virtual bool has_input(std::size_t i) const = 0;
  // The input's type; an unknown Type when absent or not known.
  virtual const Type& input_type(std::size_t i) const = 0;
  // The input's value when it is a constant (initializer, Constant, folded): else nullptr.
  virtual const Tensor* input_constant(std::size_t i) const = 0;
  // The input's values when it is an integer scalar or 1-D tensor whose elements are known or
  // symbolic (data propagation, e.g. the output of Shape); else nullptr. Constants appear here too.
  virtual const Dims* input_values(std::size_t i) const = 0;

  // A tensor-valued attribute of the node, decoded (Constant's value, ConstantOfShape's value);
  // nullopt when absent or undecodable.
  virtual std::optional<Tensor> tensor_attribute(std::string_view name) const;

  virtual std::size_t num_outputs() const = 0;
  virtual bool has_output(std::size_t i) const = 0;
  virtual void set_output_type(std::size_t i, Type type) = 0;
  // What this node's inference has set for output i so far (unknown before that).
  virtual const Type& output_type(std::size_t i) const;
  // Records the output's values (integer scalar when `scalar`, else 1-D) for data propagation.
  virtual void set_output_values(std::size_t i, Dims values, bool scalar = false) = 0;

  // Infers a subgraph (If branches, Loop/Scan bodies) given its inputs' types; returns its
  // outputs' types. Outer-scope values are visible to it.
  virtual std::vector<Type> infer_graph(const onnx::GraphProto& graph,
                                        const std::vector<Type>& input_types) = 0;

  // A subgraph that can never run (the If branch a constant condition leaves out): its values
  // are typed where they can be, but nothing it finds is reported, since what it would compute
  // for these inputs cannot fail the model. The default infers it as usual.
  virtual void infer_unreachable_graph(const onnx::GraphProto& graph);

  // Publishes output i's whole value when inference can compute it (Constant, folded shape
  // computations): later nodes see it through input_constant(), and input_values() when it is an
  // integer scalar or vector. The default ignores it.
  virtual void set_output_constant(std::size_t i, const Tensor& value);

  // Two dims that must be equal (MatMul's inner dims, a loop's carried shape): returns what both
  // say, fails on two different known values. The engine also binds a symbol that meets a
  // known value (N meets 3: N is 3 everywhere), reporting a symbol bound to two values.
  virtual Dim unify_dims(const Dim& a, const Dim& b, const std::string& what);

  // Why output i's dims are unknown or symbolic when the inputs do not explain it ("output size
  // depends on the input's values"): shown by `shape-infer --explain`. The default ignores it.
  virtual void explain(std::size_t output, const std::string& reason);

  // Records an error at the node (rule "infer.<...>") and abandons this node's inference.
  [[noreturn]] virtual void fail(const std::string& message) const = 0;
  virtual void warn(const std::string& message) = 0;

  // Conveniences built on the above.
  bool input_is_tensor_with_shape(std::size_t i) const;
  int32_t input_elem_type(std::size_t i) const;  // 0 when unknown
  // Input i's rank, or fail() when the input's shape is needed but unknown: returns -1 then.
  int64_t input_rank(std::size_t i) const;
  // Normalises an axis attribute against a rank, failing with a clear message when out of range.
  int64_t normalize_axis(int64_t axis, int64_t rank, const char* what = "axis") const;
};

// Thrown by fail(); caught by the engine around each node.
struct InferFailure {
  std::string message;
};

}  // namespace onnxtool
