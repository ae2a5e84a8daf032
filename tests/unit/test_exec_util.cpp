// SPDX-License-Identifier: Apache-2.0
#include "tests/unit/test_exec_util.h"

#include <cctype>
#include <stdexcept>

#include "core/diag/error.h"
#include "core/exec/blas.h"
#include "core/exec/kernel.h"
#include "core/registry/schema.h"

namespace onnxtool::ops {
void define_If(OpDef& op);
void define_Loop(OpDef& op);
void define_Scan(OpDef& op);
}  // namespace onnxtool::ops

namespace onnxtool::test {

ModelBuilder::ModelBuilder(int64_t opset) : proto_(std::make_shared<onnx::ModelProto>()) {
  proto_->set_ir_version(8);
  auto* o = proto_->add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  proto_->mutable_graph()->set_name("g");
}

void ModelBuilder::set_type(onnx::ValueInfoProto& v, int32_t elem,
                            const std::vector<std::string>& dims) {
  auto* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem);
  if (dims == std::vector<std::string>{"*"}) return;  // rank unknown
  auto* shape = t->mutable_shape();
  for (const auto& d : dims) {
    auto* dim = shape->add_dim();
    if (!d.empty() && (std::isdigit(static_cast<unsigned char>(d[0])) != 0))
      dim->set_dim_value(std::stoll(d));
    else
      dim->set_dim_param(d);
  }
}

void ModelBuilder::input(const std::string& name, int32_t elem,
                         const std::vector<std::string>& dims) {
  auto* v = graph().add_input();
  v->set_name(name);
  set_type(*v, elem, dims);
}

void ModelBuilder::output(const std::string& name, int32_t elem,
                          const std::vector<std::string>& dims) {
  auto* v = graph().add_output();
  v->set_name(name);
  set_type(*v, elem, dims);
}

void ModelBuilder::initializer(const std::string& name, const std::vector<int64_t>& dims,
                               const std::vector<float>& values) {
  auto* t = graph().add_initializer();
  t->set_name(name);
  t->set_data_type(1);
  for (auto d : dims) t->add_dims(d);
  for (auto x : values) t->add_float_data(x);
}

onnx::NodeProto& ModelBuilder::add_node(onnx::GraphProto& g, const std::string& op,
                                        const std::vector<std::string>& inputs,
                                        const std::vector<std::string>& outputs,
                                        const std::string& name) {
  auto* n = g.add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return *n;
}

Model ModelBuilder::build() const {
  return model_from_proto(std::make_shared<onnx::ModelProto>(*proto_), "test.onnx", ".");
}

void set_attr(onnx::NodeProto& n, const std::string& name, float v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

void set_attr(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void set_attr(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (auto x : v) a->add_ints(x);
}

void set_attr(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = g;
}

KernelCounters& counters() {
  static KernelCounters c;
  return c;
}

Tensor floats(const std::vector<int64_t>& shape, const std::vector<float>& values) {
  return Tensor::from_vector<float>(shape, values);
}

std::vector<float> values_of(const Value& v) {
  const auto s = v.tensor().span<float>();
  return {s.begin(), s.end()};
}

namespace {

void add_kernel(KernelContext& ctx) {
  ++counters().add;
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (a.shape() != b.shape()) ctx.fail("shapes differ");
  Tensor& c = ctx.output(0, DataType::float32, a.shape());
  float* out = c.mutable_data<float>();
  const float* x = a.data<float>();
  const float* y = b.data<float>();
  ctx.parallel_for(a.numel(), 1024, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) out[i] = x[i] + y[i];
  });
}

void neg_kernel(KernelContext& ctx) {
  ++counters().neg;
  const Tensor& x = ctx.input(0);
  Tensor& y = ctx.output(0, DataType::float32, x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) y.mutable_data<float>()[i] = -x.data<float>()[i];
}

void sum_kernel(KernelContext& ctx) {
  Tensor acc = ctx.input(0).clone();
  for (std::size_t k = 1; k < ctx.num_inputs(); ++k)
    for (int64_t i = 0; i < acc.numel(); ++i)
      acc.mutable_data<float>()[i] += ctx.input(k).data<float>()[i];
  ctx.set_output(0, Value(acc));
}

void gemm_kernel(KernelContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  const int64_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  Tensor& c = ctx.output(0, DataType::float32, {m, n});
  blas::sgemm(ctx, false, false, m, n, k, 1.0f, a.data<float>(), k, b.data<float>(), n, 0.0f,
              c.mutable_data<float>(), n);
}

const std::vector<std::string> kFloat = {"tensor(float)"};

VersionBuilder unary(Registry& r, const std::string& op) {
  return r.add("", op).since(1).input("X", "T").output("Y", "T").constraint("T", kFloat);
}

}  // namespace

std::unique_ptr<Registry> test_registry() {
  counters().add = 0;
  counters().neg = 0;
  counters().constant = 0;
  auto r = std::make_unique<Registry>();
  r->add("", "Add")
      .since(1)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", kFloat)
      .kernel(add_kernel);
  unary(*r, "Neg").kernel(neg_kernel);
  r->add("", "Const")
      .since(1)
      .attr("value", AttrType::f, 0.0f)
      .output("Y", "T")
      .constraint("T", kFloat)
      .kernel([](KernelContext& ctx) {
        ++counters().constant;
        ctx.set_output(0, Value(Tensor::scalar<float>(ctx.attrs().get_float("value"))));
      });
  unary(*r, "Fail").kernel([](KernelContext& ctx) { ctx.fail("boom at index 7"); });
  unary(*r, "Throw").kernel([](KernelContext&) { throw std::runtime_error("bad state"); });
  unary(*r, "Raise").kernel([](KernelContext&) {
    throw_invalid("tensor.bad-shape", "", "", "raised from the kernel");
  });
  unary(*r, "NoKernel");
  r->add("", "Sum")
      .since(1)
      .input_variadic("X", "T", 1)
      .output("Y", "T")
      .constraint("T", kFloat)
      .kernel(sum_kernel);
  r->add("", "Identity").since(1).input("X", "T").output("Y", "T").kernel([](KernelContext& ctx) {
    ctx.set_output(0, ctx.input_value(0));
  });
  r->add("", "Gemm")
      .since(1)
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", kFloat)
      .kernel(gemm_kernel);
  ops::define_If(r->add("", "If"));
  ops::define_Loop(r->add("", "Loop"));
  ops::define_Scan(r->add("", "Scan"));
  return r;
}

}  // namespace onnxtool::test
