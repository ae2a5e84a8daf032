// SPDX-License-Identifier: Apache-2.0
// Shared by the test_exec_* suites: models built through the protobuf API, and a registry of
// small test operators (the real kernels live in ops/ and are written elsewhere), plus the real
// control-flow operators.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/model/model.h"
#include "core/registry/registry.h"
#include "core/types/value.h"
#include "onnx.pb.h"

namespace onnxtool::test {

// A model under construction (default domain at `opset`, IR 8).
class ModelBuilder {
 public:
  explicit ModelBuilder(int64_t opset = 13);
  onnx::GraphProto& graph() { return *proto_->mutable_graph(); }
  onnx::ModelProto& proto() { return *proto_; }

  // elem 1 = float; dims: numbers, or names for symbolic dims ("N"); {} a scalar, {"*"} any
  // rank.
  static void set_type(onnx::ValueInfoProto& v, int32_t elem, const std::vector<std::string>& dims);
  void input(const std::string& name, int32_t elem = 1, const std::vector<std::string>& dims = {});
  void output(const std::string& name, int32_t elem = 1, const std::vector<std::string>& dims = {});
  void initializer(const std::string& name, const std::vector<int64_t>& dims,
                   const std::vector<float>& values);
  static onnx::NodeProto& add_node(onnx::GraphProto& g, const std::string& op,
                                   const std::vector<std::string>& inputs,
                                   const std::vector<std::string>& outputs,
                                   const std::string& name = "");
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "") {
    return add_node(graph(), op, inputs, outputs, name);
  }
  Model build() const;

 private:
  std::shared_ptr<onnx::ModelProto> proto_;
};

void set_attr(onnx::NodeProto& n, const std::string& name, float v);
void set_attr(onnx::NodeProto& n, const std::string& name, int64_t v);
void set_attr(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v);
void set_attr(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g);

// Counts kernel calls of the test operators (reset by test_registry()).
struct KernelCounters {
  std::atomic<int> add{0}, neg{0}, constant{0};
};
KernelCounters& counters();

// Test operators, all in the default domain, version 1, float tensors:
//   Add(A, B) -> C          element-wise, same shapes
//   Neg(X) -> Y
//   Const() -> Y            a scalar from attribute value (float)
//   Fail(X) -> Y            ctx.fail("boom at index 7")
//   Throw(X) -> Y           throws std::runtime_error
//   Raise(X) -> Y           throws an onnxtool Error
//   NoKernel(X) -> Y        a schema without a kernel
//   Sum(X...) -> Y          variadic
//   Identity(X) -> Y        any type
//   Gemm(A, B) -> C         2-D, through blas::sgemm with the pool
// and the real If, Loop and Scan (all versions).
std::unique_ptr<Registry> test_registry();

Tensor floats(const std::vector<int64_t>& shape, const std::vector<float>& values);
std::vector<float> values_of(const Value& v);

}  // namespace onnxtool::test
