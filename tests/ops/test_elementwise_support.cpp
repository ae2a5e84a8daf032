// SPDX-License-Identifier: Apache-2.0
#include "tests/ops/test_elementwise_support.h"

#include "core/diag/error.h"
#include "core/exec/session.h"
#include "core/text/parser.h"
#include "onnx.pb.h"

namespace onnxtool::test {

Model parse_model(const std::string& text, int64_t opset) {
  std::string full = text;
  if (full.find_first_not_of(" \n") != std::string::npos &&
      full[full.find_first_not_of(" \n")] != '<')
    full = "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + full;
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(full, *proto);
  return model_from_proto(std::move(proto), "test.onnxtxt", ".");
}

std::vector<Tensor> run_model(const std::string& text, const Feeds& feeds, int64_t opset,
                              int threads) {
  const Model m = parse_model(text, opset);
  SessionOptions options;
  options.threads = threads;
  Session s(m, options);
  std::vector<std::pair<std::string, Value>> values;
  for (const auto& [name, t] : feeds) values.emplace_back(name, Value(t));
  std::vector<Tensor> out;
  for (const Value& v : s.run(values)) out.push_back(v.tensor());
  return out;
}

Tensor run1(const std::string& text, const Feeds& feeds, int64_t opset) {
  return run_model(text, feeds, opset).at(0);
}

std::string run_error(const std::string& text, const Feeds& feeds, int64_t opset) {
  try {
    run_model(text, feeds, opset);
  } catch (const Error& e) {
    return (e.location().empty() ? "" : e.location() + ": ") + e.message();
  }
  return "no error";
}

std::string op_model(const std::string& op, const std::vector<Tensor>& inputs,
                     const std::string& attrs) {
  std::string decls, args;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = "x" + std::to_string(i);
    args += std::string(i ? ", " : "") + (inputs[i].defined() ? name : "\"\"");
    if (!inputs[i].defined()) continue;
    std::string dims;
    for (int64_t d : inputs[i].shape()) dims += (dims.empty() ? "" : ",") + std::to_string(d);
    const std::string shape = inputs[i].rank() ? "[" + dims + "]" : "";  // bare: a scalar
    decls += std::string(decls.empty() ? "" : ", ") + std::string(type_name(inputs[i].dtype())) +
             shape + " " + name;
  }
  const std::string out_type =
      inputs.empty() || !inputs[0].defined() ? "float" : std::string(type_name(inputs[0].dtype()));
  return "g (" + decls + ") => (" + out_type + "[] y) {\n  [n] y = " + op +
         (attrs.empty() ? "" : " <" + attrs + ">") + " (" + args + ")\n}\n";
}

namespace {
Feeds feeds_of(const std::vector<Tensor>& inputs) {
  Feeds feeds;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].defined()) feeds.emplace_back("x" + std::to_string(i), inputs[i]);
  return feeds;
}
}  // namespace

Tensor run_op(const std::string& op, const std::vector<Tensor>& inputs, const std::string& attrs,
              int64_t opset) {
  return run1(op_model(op, inputs, attrs), feeds_of(inputs), opset);
}

std::string op_error(const std::string& op, const std::vector<Tensor>& inputs,
                     const std::string& attrs, int64_t opset) {
  return run_error(op_model(op, inputs, attrs), feeds_of(inputs), opset);
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
  r.model = std::make_shared<Model>(parse_model(text, opset));
  DiagSink sink;
  r.result = infer_model(*r.model, InferOptions{}, sink);
  r.diagnostics = sink.diagnostics();
  return r;
}

}  // namespace onnxtool::test
