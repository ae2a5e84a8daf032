// SPDX-License-Identifier: Apache-2.0
#include "tests/ops/test_tensor_support.h"

#include <numeric>

#include "core/diag/error.h"
#include "core/exec/session.h"
#include "core/text/parser.h"
#include "onnx.pb.h"

namespace onnxtool::tensor_test {

Model model_of(const std::string& text, int64_t opset) {
  std::string full = text;
  const auto first = full.find_first_not_of(" \n");
  if (first != std::string::npos && full[first] != '<')
    full = "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + full;
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(full, *proto);
  return model_from_proto(std::move(proto), "test.onnxtxt", ".");
}

std::vector<Value> run_model(const std::string& text, const Feeds& feeds, int64_t opset,
                             int threads) {
  const Model m = model_of(text, opset);
  SessionOptions options;
  options.threads = threads;
  Session s(m, options);
  return s.run(feeds);
}

std::string run_error(const std::string& text, const Feeds& feeds, int64_t opset) {
  try {
    run_model(text, feeds, opset);
  } catch (const Error& e) {
    return (e.location().empty() ? "" : e.location() + ": ") + e.message();
  }
  return "no error";
}

namespace {

std::string type_text(const Tensor& t) {
  std::string dims;
  for (int64_t d : t.shape()) dims += (dims.empty() ? "" : ",") + std::to_string(d);
  return std::string(type_name(t.dtype())) + (t.rank() ? "[" + dims + "]" : "");
}

Feeds feeds_of(const std::vector<Tensor>& inputs) {
  Feeds feeds;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].defined()) feeds.emplace_back("x" + std::to_string(i), Value(inputs[i]));
  return feeds;
}

}  // namespace

std::string op_text(const Op& op) {
  std::string decls, args, outs, results;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const std::string name = "x" + std::to_string(i);
    args += std::string(i ? ", " : "") + (op.inputs[i].defined() ? name : "\"\"");
    if (op.inputs[i].defined())
      decls += std::string(decls.empty() ? "" : ", ") + type_text(op.inputs[i]) + " " + name;
  }
  for (int i = 0; i < op.outputs; ++i) {
    outs += std::string(i ? ", " : "") + "y" + std::to_string(i);
    results += std::string(i ? ", " : "") + "y" + std::to_string(i);
  }
  return "g (" + decls + ") => (" + results + ") {\n  [n] " + outs + " = " + op.op +
         (op.attrs.empty() ? "" : " <" + op.attrs + ">") + " (" + args + ")\n}\n";
}

std::vector<Tensor> run_op(const Op& op) {
  std::vector<Tensor> out;
  for (const Value& v : run_model(op_text(op), feeds_of(op.inputs), op.opset, op.threads))
    out.push_back(v.tensor());
  return out;
}

Tensor run1(const Op& op) {
  return run_op(op).at(0);
}

std::string op_error(const Op& op) {
  return run_error(op_text(op), feeds_of(op.inputs), op.opset);
}

std::string Inferred::type(const std::string& value) const {
  const ValueRecord* r = result.find(value);
  return r ? r->type.to_string() : "<none>";
}

std::string Inferred::values(const std::string& value) const {
  const ValueRecord* r = result.find(value);
  return r && r->values ? dims_to_string(*r->values) : "<none>";
}

std::string Inferred::messages() const {
  std::string s;
  for (const Diagnostic& d : diagnostics) s += d.rule + ": " + d.message + "\n";
  return s;
}

Inferred infer(const std::string& text, int64_t opset) {
  Inferred r;
  r.model = std::make_shared<Model>(model_of(text, opset));
  DiagSink sink;
  r.result = infer_model(*r.model, InferOptions{}, sink);
  r.diagnostics = sink.diagnostics();
  return r;
}

Tensor iota_f(Shape shape) {
  Tensor t(DataType::float32, std::move(shape));
  auto s = t.mutable_span<float>();
  std::iota(s.begin(), s.end(), 0.0f);
  return t;
}

Tensor iota_i64(Shape shape) {
  Tensor t(DataType::int64, std::move(shape));
  auto s = t.mutable_span<int64_t>();
  std::iota(s.begin(), s.end(), int64_t{0});
  return t;
}

std::vector<std::string> texts(const Tensor& t) {
  std::vector<std::string> out;
  if (t.dtype() == DataType::string) return t.strings();
  const auto w = static_cast<std::size_t>(type_info(t.dtype()).mem_bytes);
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::string hex = "0x";
    for (std::size_t b = w; b-- > 0;) {
      const auto byte = static_cast<unsigned>(t.raw()[static_cast<std::size_t>(i) * w + b]);
      const char* digits = "0123456789abcdef";
      hex += digits[byte >> 4];
      hex += digits[byte & 15];
    }
    out.push_back(hex);
  }
  return out;
}

}  // namespace onnxtool::tensor_test
