// SPDX-License-Identifier: Apache-2.0
#include "tests/ops/test_misc_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "core/diag/diagnostic.h"
#include "core/diag/error.h"
#include "core/exec/session.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "core/text/parser.h"
#include "core/types/float_formats.h"
#include "onnx.pb.h"

namespace onnxtool::test::misc {

namespace {

Model parse(const std::string& text) {
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(text, *proto);
  return model_from_proto(proto, "test.onnx", {});
}

}  // namespace

std::vector<Value> run(const std::string& model_text, const Feeds& feeds, int threads) {
  Model m = parse(model_text);
  SessionOptions o;
  o.threads = threads;
  Session s(m, o);
  return s.run(feeds);
}

std::string run_error(const std::string& model_text, const Feeds& feeds) {
  try {
    run(model_text, feeds);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

std::map<std::string, std::string> infer(const std::string& model_text) {
  Model m = parse(model_text);
  DiagSink sink;
  InferResult r = infer_model(m, InferOptions{}, sink);
  std::map<std::string, std::string> out;
  for (const Diagnostic& d : sink.diagnostics())
    if (d.severity == Severity::error && !out.count("error")) out["error"] = d.message;
  for (const GraphResult& g : r.graphs)
    for (const ValueRecord& v : g.values) out.emplace(v.name, v.type.to_string());
  return out;
}

Tensor f32(const Shape& shape, const std::vector<float>& v) {
  return Tensor::from_vector<float>(shape, v);
}
Tensor f64(const Shape& shape, const std::vector<double>& v) {
  return Tensor::from_vector<double>(shape, v);
}
Tensor i64(const Shape& shape, const std::vector<int64_t>& v) {
  return Tensor::from_vector<int64_t>(shape, v);
}
Tensor i32(const Shape& shape, const std::vector<int32_t>& v) {
  return Tensor::from_vector<int32_t>(shape, v);
}
Tensor strs(const Shape& shape, const std::vector<std::string>& v) {
  return Tensor::from_strings(shape, v);
}

std::vector<double> vals(const Tensor& t) {
  std::vector<double> out(static_cast<std::size_t>(t.numel()));
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_narrow_float_v<T>) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = to_float(t.data<T>()[i]);
    } else if constexpr (std::is_arithmetic_v<T>) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(t.data<T>()[i]);
    } else if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> ||
                         std::is_same_v<T, Int2> || std::is_same_v<T, UInt2>) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = t.data<T>()[i].value;
    }
  });
  return out;
}

Tensor cast(const Tensor& t, DataType type) {
  const std::vector<double> v = vals(t);
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

void check_close(const Tensor& got, const Shape& shape, const std::vector<double>& want,
                 double rtol, double atol) {
  REQUIRE(shape_to_string(got.shape()) == shape_to_string(shape));
  const std::vector<double> g = vals(got);
  REQUIRE(g.size() == want.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(g[i]) && std::isnan(want[i])) continue;
    if (std::isinf(want[i]) && g[i] == want[i]) continue;
    if (!(std::abs(g[i] - want[i]) <= atol + rtol * std::abs(want[i]))) {
      INFO("element " << i << " of " << g.size() << ": got " << g[i] << ", want " << want[i]);
      CHECK(false);
      return;
    }
  }
}

}  // namespace onnxtool::test::misc
