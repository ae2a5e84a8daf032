// SPDX-License-Identifier: Apache-2.0
#include "tests/ops/test_nn_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <sstream>

#include "core/diag/diagnostic.h"
#include "core/exec/session.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "core/text/parser.h"
#include "core/types/float_formats.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

namespace onnxtool::test::nn {

namespace {

// A scalar is the bare element type; "float[]" would mean any rank.
std::string type_text(DataType t, const std::string& dims, bool scalar) {
  return std::string(type_name(t)) + (scalar ? "" : "[" + dims + "]");
}

std::string dims_text(const Shape& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out;
}

// The node's output names: what stands left of its first '='.
std::vector<std::string> output_names(const std::string& node) {
  std::vector<std::string> names;
  std::stringstream lhs(node.substr(0, node.find('=')));
  std::string name;
  while (std::getline(lhs, name, ',')) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    names.push_back(name);
  }
  return names;
}

std::shared_ptr<onnx::ModelProto> proto_of(
    const std::string& text, const std::vector<std::pair<std::string, Tensor>>& constants) {
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(text, *proto);
  for (const auto& [name, t] : constants) {
    onnx::TensorProto* init = proto->mutable_graph()->add_initializer();
    tensor_to_proto(t, *init);
    init->set_name(name);
  }
  return proto;
}

Model build_model(const std::string& node, int opset,
                  const std::vector<std::pair<std::string, std::string>>& inputs,
                  const std::vector<std::pair<std::string, Tensor>>& constants) {
  std::string text = "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n";
  text += "g (";
  for (std::size_t i = 0; i < inputs.size(); ++i)
    text += (i ? ", " : "") + inputs[i].second + " " + inputs[i].first;
  text += ") => () {\n  " + node + "\n}\n";
  auto proto = proto_of(text, constants);
  for (const std::string& out : output_names(node))
    if (!out.empty()) proto->mutable_graph()->add_output()->set_name(out);
  return model_from_proto(proto, "test.onnx", {});
}

std::vector<std::pair<std::string, std::string>> declared_inputs(const NodeCase& c) {
  std::vector<std::pair<std::string, std::string>> decl;
  for (const auto& [name, t] : c.inputs)
    decl.emplace_back(name, type_text(t.dtype(), dims_text(t.shape()), t.rank() == 0));
  return decl;
}

std::vector<std::pair<std::string, Value>> feeds(const NodeCase& c) {
  std::vector<std::pair<std::string, Value>> f;
  for (const auto& [name, t] : c.inputs) f.emplace_back(name, Value(t));
  return f;
}

}  // namespace

Model model_of(const std::string& text,
               const std::vector<std::pair<std::string, Tensor>>& constants) {
  return model_from_proto(proto_of(text, constants), "test.onnx", {});
}

FusedRuns run_fused_and_plain(const Model& m,
                              const std::vector<std::pair<std::string, Value>>& feeds,
                              const std::vector<std::string>& disabled) {
  SessionOptions on;
  on.threads = 2;
  on.disabled_passes = disabled;
  SessionOptions off = on, one = on;
  off.fuse = false;
  one.threads = 1;
  Session a(m, on), b(m, off), c(m, one);
  FusedRuns r;
  r.fused = a.run(feeds);
  r.unfused = b.run(feeds);
  r.fused_one_thread = c.run(feeds);
  r.fused_nodes = a.stats().nodes;
  r.unfused_nodes = b.stats().nodes;
  return r;
}

std::vector<Value> run_node(const NodeCase& c) {
  Model m = build_model(c.node, c.opset, declared_inputs(c), c.initializers);
  SessionOptions o;
  o.threads = c.threads;
  Session s(m, o);
  return s.run(feeds(c));
}

std::vector<Value> run_node_twice(const NodeCase& c) {
  Model m = build_model(c.node, c.opset, declared_inputs(c), c.initializers);
  SessionOptions o;
  o.threads = c.threads;
  Session s(m, o);
  s.run(feeds(c));
  return s.run(feeds(c));
}

std::string run_error(const NodeCase& c) {
  try {
    run_node(c);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

std::vector<std::string> infer_node(const std::string& node, int opset,
                                    const std::vector<std::pair<std::string, std::string>>& inputs,
                                    const std::vector<std::pair<std::string, Tensor>>& constants) {
  Model m = build_model(node, opset, inputs, constants);
  DiagSink sink;
  InferResult r = infer_model(m, InferOptions{}, sink);
  std::vector<std::string> out;
  for (const Diagnostic& d : sink.diagnostics())
    if (d.severity == Severity::error) return {"error: " + d.message};
  for (const std::string& name : output_names(node)) {
    const ValueRecord* v = r.find(name);
    out.push_back(v ? v->type.to_string() : "missing");
  }
  return out;
}

Tensor random_tensor(DataType type, const Shape& shape, uint32_t seed, double lo, double hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  Tensor t(DataType::float64, shape);
  for (double& v : t.mutable_span<double>()) v = dist(rng);
  return cast_to(t, type);
}

Tensor doubles(const Shape& shape, const std::vector<double>& v) {
  return Tensor::from_vector<double>(shape, v);
}

std::vector<double> values(const Tensor& t) {
  std::vector<double> out(static_cast<std::size_t>(t.numel()));
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_narrow_float_v<T>) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = to_float(t.data<T>()[i]);
    } else if constexpr (std::is_arithmetic_v<T>) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(t.data<T>()[i]);
    }
  });
  return out;
}

Tensor cast_to(const Tensor& t, DataType type) {
  const std::vector<double> v = values(t);
  Tensor out(type, t.shape());
  visit_type(type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_narrow_float_v<T>) {
      for (std::size_t i = 0; i < v.size(); ++i) out.mutable_data<T>()[i] = narrow_float<T>(v[i]);
    } else if constexpr (std::is_arithmetic_v<T>) {
      for (std::size_t i = 0; i < v.size(); ++i) out.mutable_data<T>()[i] = static_cast<T>(v[i]);
    }
  });
  return out;
}

void check_close(const Tensor& got, const Tensor& want, double rtol, double atol) {
  REQUIRE(shape_to_string(got.shape()) == shape_to_string(want.shape()));
  const std::vector<double> g = values(got), w = values(want);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const bool both_nan = std::isnan(g[i]) && std::isnan(w[i]);
    const bool same_inf = std::isinf(w[i]) && g[i] == w[i];
    if (both_nan || same_inf) continue;
    if (!(std::abs(g[i] - w[i]) <= atol + rtol * std::abs(w[i]))) {
      INFO("element " << i << " of " << g.size() << ": got " << g[i] << ", want " << w[i]);
      CHECK(false);
      return;
    }
  }
}

}  // namespace onnxtool::test::nn
