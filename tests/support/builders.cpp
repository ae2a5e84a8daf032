// SPDX-License-Identifier: Apache-2.0
#include "tests/support/builders.h"

#include <cstring>

namespace onnxtool::test {

void set_tensor_type(onnx::ValueInfoProto& v, int32_t elem_type,
                     const std::vector<std::string>& dims) {
  auto* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem_type);
  auto* shape = t->mutable_shape();
  for (const auto& d : dims) {
    auto* dim = shape->add_dim();
    if (!d.empty() && (std::isdigit(static_cast<unsigned char>(d[0])) != 0))
      dim->set_dim_value(std::stoll(d));
    else if (!d.empty() && d != "?")
      dim->set_dim_param(d);
  }
}

onnx::TensorProto float_tensor(const std::string& name, const std::vector<int64_t>& dims,
                               const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t.add_dims(d);
  t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
  return t;
}

void make_external(onnx::TensorProto& t, const std::string& location, int64_t offset,
                   int64_t length) {
  t.clear_raw_data();
  t.clear_float_data();
  auto add = [&](const char* k, const std::string& v) {
    auto* kv = t.add_external_data();
    kv->set_key(k);
    kv->set_value(v);
  };
  add("location", location);
  if (offset >= 0) add("offset", std::to_string(offset));
  if (length >= 0) add("length", std::to_string(length));
  t.set_data_location(onnx::TensorProto::EXTERNAL);
}

onnx::ModelProto tiny_model() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("onnxtool-tests");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("tiny");
  set_tensor_type(*g->add_input(), onnx::TensorProto::FLOAT, {"N", "4"});
  set_tensor_type(*g->add_output(), onnx::TensorProto::FLOAT, {"N", "3"});
  g->mutable_input(0)->set_name("X");
  g->mutable_output(0)->set_name("Y");
  std::vector<float> w(12), b(3);
  for (int i = 0; i < 12; ++i) w[i] = 0.5f * static_cast<float>(i);
  for (int i = 0; i < 3; ++i) b[i] = -1.0f * static_cast<float>(i);
  *g->add_initializer() = float_tensor("W", {4, 3}, w);
  *g->add_initializer() = float_tensor("B", {3}, b);
  auto* mm = g->add_node();
  mm->set_op_type("MatMul");
  mm->set_name("matmul");
  mm->add_input("X");
  mm->add_input("W");
  mm->add_output("XW");
  auto* add = g->add_node();
  add->set_op_type("Add");
  add->set_name("bias");
  add->add_input("XW");
  add->add_input("B");
  add->add_output("Y");
  return m;
}

std::string serialize(const onnx::ModelProto& m) {
  std::string s;
  m.SerializeToString(&s);
  return s;
}

}  // namespace onnxtool::test
