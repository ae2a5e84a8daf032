// SPDX-License-Identifier: Apache-2.0
// The operator registry: lookup by opset, domain names, deprecated and experimental versions,
// canonical type strings, arity ranges, and a few signatures checked by hand against the spec.
// (tests/conformance/test_registry_complete.cpp holds every version against the Changelogs.)
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/registry/registry.h"
#include "core/registry/schema.h"

namespace onnxtool {
namespace {

const OpVersion& get(const std::string& domain, const std::string& op, int64_t opset) {
  const OpVersion* v = Registry::standard().lookup(domain, op, opset);
  REQUIRE_MESSAGE(v != nullptr, domain << "." << op << " at opset " << opset);
  return *v;
}

const AttrDef& attr(const OpVersion& v, const std::string& name) {
  const AttrDef* a = v.find_attribute(name);
  REQUIRE_MESSAGE(a != nullptr, v.id() << " has no attribute " << name);
  return *a;
}

std::vector<std::string> names(const std::vector<FormalParam>& ps) {
  std::vector<std::string> out;
  for (const auto& p : ps) out.push_back(p.name);
  return out;
}

TEST_CASE("lookup takes the greatest since version <= the opset") {
  const Registry& reg = Registry::standard();
  CHECK(reg.lookup("", "Abs", 0) == nullptr);  // before the operator existed
  CHECK(get("", "Abs", 1).since == 1);
  CHECK(get("", "Abs", 5).since == 1);
  CHECK(get("", "Abs", 6).since == 6);
  CHECK(get("", "Abs", 12).since == 6);
  CHECK(get("", "Abs", 13).since == 13);
  CHECK(get("", "Abs", 28).since == 13);
  CHECK(get("", "Abs", 1000).since == 13);
  CHECK(reg.lookup("", "BitCast", 25) == nullptr);
  CHECK(get("", "BitCast", 26).since == 26);
  CHECK(get("ai.onnx.ml", "LabelEncoder", 3).since == 2);
  CHECK(get("ai.onnx.ml", "LabelEncoder", 5).since == 4);
  CHECK(get("ai.onnx.preview.training", "Adam", 1).id() == "ai.onnx.preview.training.Adam-1");
  CHECK(get("ai.onnx.preview", "FlexAttention", 1).id() == "ai.onnx.preview.FlexAttention-1");

  const OpDef* conv = reg.find("", "Conv");
  REQUIRE(conv != nullptr);
  std::vector<int> sinces;
  for (const auto& v : conv->versions()) sinces.push_back(v.since);
  CHECK(sinces == std::vector<int>{1, 11, 22});
}

TEST_CASE("ai.onnx and the empty domain are the same; unknown names give nullptr") {
  const Registry& reg = Registry::standard();
  CHECK(reg.lookup("ai.onnx", "Relu", 14) == reg.lookup("", "Relu", 14));
  CHECK(reg.find("ai.onnx", "Relu") == reg.find("", "Relu"));
  CHECK(reg.find("", "Relu")->domain().empty());
  CHECK(normalize_domain("ai.onnx").empty());
  CHECK(normalize_domain("ai.onnx.ml") == "ai.onnx.ml");

  CHECK(reg.find("", "NoSuchOp") == nullptr);
  CHECK(reg.lookup("", "NoSuchOp", 13) == nullptr);
  CHECK(reg.lookup("", "relu", 13) == nullptr);  // names are case-sensitive
  CHECK(reg.lookup("com.example", "Relu", 13) == nullptr);
  CHECK(reg.lookup("ai.onnx.ml", "Relu", 13) == nullptr);  // right op, wrong domain
  CHECK(reg.lookup("", "Scaler", 1) == nullptr);
  CHECK(reg.lookup("ai.onnx.ml", "Scaler", 1) != nullptr);

  CHECK(reg.knows_domain(""));
  CHECK(reg.knows_domain("ai.onnx"));
  CHECK(reg.knows_domain("ai.onnx.ml"));
  CHECK(reg.knows_domain("ai.onnx.preview"));
  CHECK(reg.knows_domain("ai.onnx.preview.training"));
  CHECK_FALSE(reg.knows_domain("com.microsoft"));
  CHECK_FALSE(reg.knows_domain("ai.onnx.m"));
}

TEST_CASE("deprecated and experimental versions") {
  // Upsample: 7 and 9 are real versions; 10 deprecates the operator, so every later opset finds
  // the deprecated entry.
  CHECK_FALSE(get("", "Upsample", 9).deprecated);
  const OpVersion& up10 = get("", "Upsample", 10);
  CHECK(up10.since == 10);
  CHECK(up10.deprecated);
  CHECK(up10.inputs.empty());
  CHECK(up10.attributes.empty());
  CHECK(get("", "Upsample", 28).deprecated);
  CHECK(get("", "Scatter", 11).deprecated);
  CHECK_FALSE(get("", "Scatter", 10).deprecated);
  CHECK(get("", "GroupNormalization", 18).deprecated);
  CHECK_FALSE(get("", "GroupNormalization", 21).deprecated);
  CHECK(get("ai.onnx.ml", "TreeEnsembleRegressor", 5).deprecated);
  CHECK(get("ai.onnx.ml", "TreeEnsembleClassifier", 5).deprecated);
  CHECK_FALSE(get("ai.onnx.ml", "TreeEnsembleClassifier", 4).deprecated);

  CHECK(get("", "Upsample", 1).experimental);
  CHECK_FALSE(get("", "Upsample", 7).experimental);
  CHECK(get("ai.onnx.preview", "FlexAttention", 1).experimental);
  CHECK_FALSE(get("", "Conv", 22).experimental);

  // from() leaves deprecated versions out.
  OpDef op("", "X");
  op.since(1).input("x", "T");
  op.since(5).deprecated();
  CHECK(op.from(0).size() == 1);
}

TEST_CASE("canonical_type_string") {
  CHECK(canonical_type_string("tensor(float)") == "tensor(float)");
  CHECK(canonical_type_string(" tensor( float16 ) ") == "tensor(float16)");
  CHECK(canonical_type_string("seq(tensor(int64))") == "seq(tensor(int64))");
  CHECK(canonical_type_string("map(string, int64)") == "map(string,tensor(int64))");
  CHECK(canonical_type_string("map(int64, float)") == "map(int64,tensor(float))");
  CHECK(canonical_type_string("seq(map(int64, float))") == "seq(map(int64,tensor(float)))");
  CHECK(canonical_type_string("seq(map(string, float))") == "seq(map(string,tensor(float)))");
  CHECK(canonical_type_string("map(string,tensor(int64))") == "map(string,tensor(int64))");
  CHECK(canonical_type_string("map(int64, seq(tensor(double)))") ==
        "map(int64,seq(tensor(double)))");
  CHECK(canonical_type_string("optional(seq(tensor(uint8)))") == "optional(seq(tensor(uint8)))");
  CHECK(canonical_type_string("optional(tensor(bool))") == "optional(tensor(bool))");
  CHECK(canonical_type_string("sparse_tensor(float)") == "sparse_tensor(float)");
  CHECK(canonical_type_string("T") == "T");

  // The registry stores constraints canonically.
  const TypeConstraint* t = get("ai.onnx.ml", "ZipMap", 1).find_constraint("T");
  REQUIRE(t != nullptr);
  CHECK(t->allowed == std::vector<std::string>{"seq(map(string,tensor(float)))",
                                               "seq(map(int64,tensor(float)))"});
  const TypeConstraint* t1 = get("ai.onnx.ml", "CastMap", 1).find_constraint("T1");
  REQUIRE(t1 != nullptr);
  CHECK(t1->allowed ==
        std::vector<std::string>{"map(int64,tensor(string))", "map(int64,tensor(float))"});
}

TEST_CASE("arity ranges") {
  // Loop-13: M and cond optional, v_initial variadic with minimum 0.
  const OpVersion& loop = get("", "Loop", 13);
  CHECK(names(loop.inputs) == std::vector<std::string>{"M", "cond", "v_initial"});
  CHECK(loop.inputs[2].option == ParamOption::variadic);
  CHECK_FALSE(loop.inputs[2].homogeneous);
  CHECK(loop.inputs[2].min_arity == 0);
  CHECK(loop.min_inputs == 2);
  CHECK(loop.max_inputs == kUnbounded);
  CHECK(loop.min_outputs == 1);
  CHECK(loop.max_outputs == kUnbounded);
  // Loop-1 ("Inputs (3 - ∞)"): v_initial needed at least once.
  CHECK(get("", "Loop", 1).inputs[2].min_arity == 1);
  CHECK(get("", "Loop", 1).min_inputs == 3);

  const OpVersion& concat = get("", "Concat", 13);
  CHECK(concat.inputs.size() == 1);
  CHECK(concat.inputs[0].homogeneous);
  CHECK(concat.min_inputs == 1);
  CHECK(concat.max_inputs == kUnbounded);
  CHECK(concat.min_outputs == 1);
  CHECK(concat.max_outputs == 1);

  const OpVersion& clip = get("", "Clip", 13);
  CHECK(clip.min_inputs == 1);
  CHECK(clip.max_inputs == 3);
  CHECK(clip.inputs[1].option == ParamOption::optional);
  const OpVersion& clip6 = get("", "Clip", 6);
  CHECK(clip6.min_inputs == 1);
  CHECK(clip6.max_inputs == 1);

  const OpVersion& if13 = get("", "If", 13);
  CHECK(if13.min_inputs == 1);
  CHECK(if13.max_inputs == 1);
  CHECK(if13.min_outputs == 1);
  CHECK(if13.max_outputs == kUnbounded);
  CHECK_FALSE(if13.outputs[0].homogeneous);

  // Built by hand: optional parameters before a variadic one take a position; an explicit range
  // survives the outputs declared after it.
  OpDef op("", "X");
  OpVersion& v = op.since(1)
                     .input_optional("a", "T")
                     .input_variadic("b", "T", 2)
                     .input_range(1, 4)
                     .output("y", "T")
                     .output_optional("z", "T")
                     .get();
  CHECK(v.min_inputs == 1);
  CHECK(v.max_inputs == 4);
  CHECK(v.min_outputs == 1);
  CHECK(v.max_outputs == 2);
  OpVersion& w = op.since(2).input_optional("a", "T").input_variadic("b", "T", 2).get();
  CHECK(w.min_inputs == 3);
  CHECK(w.max_inputs == kUnbounded);
}

TEST_CASE("Conv-22 attributes, inputs and types") {
  const OpVersion& conv = get("", "Conv", 22);
  CHECK(conv.since == 22);
  CHECK(attr(conv, "auto_pad").type == AttrType::s);
  CHECK(std::get<std::string>(attr(conv, "auto_pad").default_value) == "NOTSET");
  CHECK(attr(conv, "group").type == AttrType::i);
  CHECK(std::get<int64_t>(attr(conv, "group").default_value) == 1);
  for (const char* name : {"dilations", "kernel_shape", "pads", "strides"}) {
    CAPTURE(name);
    CHECK(attr(conv, name).type == AttrType::ints);
    CHECK_FALSE(attr(conv, name).required);
    CHECK_FALSE(attr(conv, name).has_default());
  }
  CHECK(conv.attributes.size() == 6);
  CHECK(names(conv.inputs) == std::vector<std::string>{"X", "W", "B"});
  CHECK(conv.inputs[2].option == ParamOption::optional);
  CHECK(conv.inputs[0].differentiable == Differentiability::differentiable);
  CHECK(conv.min_inputs == 2);
  CHECK(conv.max_inputs == 3);
  CHECK(conv.find_constraint("T")->allowed ==
        std::vector<std::string>{"tensor(bfloat16)", "tensor(float16)", "tensor(float)",
                                 "tensor(double)"});
}

TEST_CASE("Resize-19 inputs and attributes") {
  const OpVersion& r = get("", "Resize", 19);
  CHECK(names(r.inputs) == std::vector<std::string>{"X", "roi", "scales", "sizes"});
  CHECK(r.inputs[0].option == ParamOption::single);
  for (int i = 1; i < 4; ++i) CHECK(r.inputs[i].option == ParamOption::optional);
  CHECK(r.inputs[1].type == "T2");
  CHECK(r.inputs[2].type == "tensor(float)");
  CHECK(r.inputs[3].type == "tensor(int64)");
  CHECK(r.inputs[3].differentiable == Differentiability::non_differentiable);
  CHECK(r.min_inputs == 1);
  CHECK(r.max_inputs == 4);
  CHECK(std::get<std::string>(attr(r, "mode").default_value) == "nearest");
  CHECK(std::get<std::string>(attr(r, "coordinate_transformation_mode").default_value) ==
        "half_pixel");
  CHECK(std::get<float>(attr(r, "cubic_coeff_a").default_value) == -0.75f);
  CHECK(std::get<int64_t>(attr(r, "antialias").default_value) == 0);
  CHECK(std::get<std::string>(attr(r, "keep_aspect_ratio_policy").default_value) == "stretch");
  CHECK_FALSE(attr(r, "axes").has_default());
}

TEST_CASE("recurrent activations: LSTM-22 has no default, RNN-22 defaults to Tanh, Tanh") {
  const OpVersion& lstm = get("", "LSTM", 22);
  CHECK(attr(lstm, "activations").type == AttrType::strings);
  CHECK_FALSE(attr(lstm, "activations").has_default());
  CHECK(std::get<std::string>(attr(lstm, "direction").default_value) == "forward");
  CHECK(std::get<int64_t>(attr(lstm, "input_forget").default_value) == 0);
  CHECK(names(lstm.outputs) == std::vector<std::string>{"Y", "Y_h", "Y_c"});
  CHECK(lstm.min_outputs == 0);
  CHECK(lstm.max_outputs == 3);
  CHECK(lstm.min_inputs == 3);
  CHECK(lstm.max_inputs == 8);

  const OpVersion& rnn = get("", "RNN", 22);
  CHECK(std::get<std::vector<std::string>>(attr(rnn, "activations").default_value) ==
        std::vector<std::string>{"Tanh", "Tanh"});
}

TEST_CASE("defaults the spec prints unusually") {
  // Clip-6: numeric_limits<float>::max()/lowest(), printed (3.402823e+38).
  const OpVersion& clip = get("", "Clip", 6);
  CHECK(std::get<float>(attr(clip, "max").default_value) == std::numeric_limits<float>::max());
  CHECK(std::get<float>(attr(clip, "min").default_value) == std::numeric_limits<float>::lowest());
  // MeanVarianceNormalization-9: a list of ints printed as strings, ['0', '2', '3'].
  CHECK(std::get<std::vector<int64_t>>(
            attr(get("", "MeanVarianceNormalization", 9), "axes").default_value) ==
        std::vector<int64_t>{0, 2, 3});
  // LabelEncoder-2: -0.0 keeps its sign.
  const float neg_zero =
      std::get<float>(attr(get("ai.onnx.ml", "LabelEncoder", 2), "default_float").default_value);
  CHECK(neg_zero == 0.0f);
  CHECK(std::signbit(neg_zero));
  CHECK(std::get<float>(attr(get("", "Selu", 6), "alpha").default_value) == 1.67326f);
  CHECK(std::get<float>(attr(get("", "LayerNormalization", 17), "epsilon").default_value) ==
        1e-05f);
  CHECK(attr(get("", "Cast", 25), "to").required);
}

TEST_CASE("function operators") {
  const OpVersion& ln = get("", "LayerNormalization", 17);
  CHECK(ln.is_function);
  CHECK(ln.function_opsets == std::vector<int>{17, 18});
  CHECK(ln.function_opset == 18);
  CHECK_FALSE(ln.function_body.empty());  // written in ops/onnx/layer_normalization.cpp
  // The table names the newest version; its body may use an older opset (Elu-22, opset 18).
  CHECK(get("", "Elu", 22).is_function);
  CHECK(get("", "Elu", 22).function_opsets == std::vector<int>{18});
  CHECK_FALSE(get("", "Elu", 6).is_function);
  CHECK_FALSE(get("", "Conv", 22).is_function);
  CHECK(get("ai.onnx.preview", "FlexAttention", 1).is_function);

  OpDef op("", "X");
  OpVersion& v = op.since(1).is_function({1, 5}).function("body", 3).get();
  CHECK(v.function_opset == 3);
  CHECK(v.function_body == "body");
  OpVersion& w = op.since(2).function("body", 2).is_function({2, 4}).get();
  CHECK(w.function_opset == 2);  // the written body's opset wins
  CHECK(w.function_opsets == std::vector<int>{2, 4});
}

TEST_CASE("every registered version is well formed") {
  int versions = 0;
  for (const OpDef* op : Registry::standard().all()) {
    int last = 0;
    for (const OpVersion& v : op->versions()) {
      CAPTURE(v.id());
      CHECK(v.since > last);
      last = v.since;
      ++versions;
      if (v.deprecated) continue;
      CHECK_FALSE(v.outputs.empty());
      // Every parameter's type is a declared constraint or a literal type.
      for (const auto* ps : {&v.inputs, &v.outputs})
        for (const auto& p : *ps)
          CHECK((p.type.find('(') != std::string::npos || v.find_constraint(p.type) != nullptr));
      for (const auto& c : v.constraints) CHECK_FALSE(c.allowed.empty());
    }
  }
  CHECK(versions > 600);
}

}  // namespace
}  // namespace onnxtool

namespace onnxtool {

TEST_CASE("operators declare their traits in their own files") {
  const Registry& reg = Registry::standard();
  std::set<std::string> nondeterministic, attribute_value;
  for (const OpDef* op : reg.all())
    for (const OpVersion& v : op->versions()) {
      if (v.has(Trait::nondeterministic)) nondeterministic.insert(op->name());
      if (v.has(Trait::attribute_value)) attribute_value.insert(op->name());
    }
  CHECK(nondeterministic == std::set<std::string>{"Bernoulli", "Dropout", "Multinomial",
                                                  "RandomNormal", "RandomNormalLike",
                                                  "RandomUniform", "RandomUniformLike"});
  CHECK(attribute_value == std::set<std::string>{"Constant"});
  for (const char* op : {"Relu", "Add", "Sum", "Equal", "And", "BitwiseAnd", "Sqrt", "Sigmoid"}) {
    INFO(op);
    REQUIRE(reg.lookup("", op, 18));
    CHECK(reg.lookup("", op, 18)->has(Trait::elementwise));
  }
  for (const char* op : {"Conv", "MatMul", "Reshape", "Softmax"}) {
    INFO(op);
    REQUIRE(reg.lookup("", op, 18));
    CHECK(!reg.lookup("", op, 18)->has(Trait::elementwise));
  }
}

}  // namespace onnxtool
