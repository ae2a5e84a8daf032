// SPDX-License-Identifier: Apache-2.0
// The checker's tensor pass: every storage form, sizes without reading or allocating from
// declared dims, sparse tensors (shape, range, order), UTF-8 strings.
#include <doctest/doctest.h>

#include <google/protobuf/text_format.h>

#include <set>
#include <string>

#include "core/check/check.h"
#include "onnx.pb.h"

// Shows rule sets in failure messages.
namespace doctest {
template <>
struct StringMaker<std::multiset<std::string>> {
  static String convert(const std::multiset<std::string>& s) {
    std::string out = "{";
    for (const auto& r : s) out += (out.size() > 1 ? ", " : "") + r;
    return (out + "}").c_str();
  }
};
}  // namespace doctest

using namespace onnxtool;

namespace {

using Rules = std::multiset<std::string>;

// The rules (errors) found for a model whose only content is one initializer `W` (given as
// the body of a TensorProto) returned as the graph output.
Rules check_initializer(const std::string& tensor_body, int ir = 10) {
  const std::string text =
      "ir_version: " + std::to_string(ir) +
      R"( opset_import { version: 21 } graph { name: "g"
      initializer { name: "W" )" +
      tensor_body + R"( } output { name: "W" type { tensor_type { elem_type: 0 shape { } } } } })";
  onnx::ModelProto m;
  REQUIRE_MESSAGE(google::protobuf::TextFormat::ParseFromString(text, &m), text);
  // The output's element type is left unset by the text above; take the tensor's so that only
  // the tensor itself is judged.
  auto* out = m.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type();
  out->set_elem_type(m.graph().initializer(0).data_type());
  out->clear_shape();
  auto* shape = out->mutable_shape();
  for (auto d : m.graph().initializer(0).dims()) {
    auto* dim = shape->add_dim();
    if (d >= 0) dim->set_dim_value(d);
  }
  if (out->elem_type() == 0 || out->elem_type() > 26) out->set_elem_type(1);
  DiagSink sink;
  check_model(m, {}, sink);
  Rules r;
  for (const auto& d : sink.diagnostics())
    if (d.severity == Severity::error) r.insert(d.rule);
  return r;
}

// A sparse initializer `S` (body of a SparseTensorProto).
Rules check_sparse(const std::string& body) {
  const std::string text =
      R"(ir_version: 10 opset_import { version: 21 } graph { name: "g"
      sparse_initializer { )" +
      body + R"( } output { name: "S" type { tensor_type { elem_type: 1 shape { dim { } } } } } })";
  onnx::ModelProto m;
  REQUIRE_MESSAGE(google::protobuf::TextFormat::ParseFromString(text, &m), text);
  DiagSink sink;
  check_model(m, {}, sink);
  Rules r;
  for (const auto& d : sink.diagnostics())
    if (d.severity == Severity::error) r.insert(d.rule);
  return r;
}

const std::string kValues =
    R"(values { name: "S" data_type: 1 dims: 2 float_data: 1 float_data: 2 } dims: 4)";

}  // namespace

TEST_CASE("tensor storage forms") {
  CHECK(check_initializer("data_type: 1 dims: 2 float_data: 1 float_data: 2").empty());
  CHECK(
      check_initializer(R"(data_type: 1 dims: 2 raw_data: "\000\000\200?\000\000\000@")").empty());
  CHECK(check_initializer("data_type: 7 dims: 0").empty());
  CHECK(check_initializer(R"(data_type: 8 dims: 2 string_data: "a" string_data: "b")").empty());
  CHECK(check_initializer("data_type: 22 dims: 3 int32_data: 33 int32_data: 7", 10).empty());
  CHECK(check_initializer("dims: 1 float_data: 1") == Rules{"tensor.unknown-type"});
  CHECK(check_initializer("data_type: 99 dims: 1 float_data: 1") == Rules{"tensor.unknown-type"});
  CHECK(check_initializer("data_type: 1 dims: -1") == Rules{"tensor.bad-dims"});
  CHECK(check_initializer("data_type: 1 dims: 2 float_data: 1") == Rules{"tensor.size-mismatch"});
  CHECK(check_initializer(R"(data_type: 1 dims: 1 float_data: 1 raw_data: "abcd")") ==
        Rules{"tensor.multiple-storage"});
  CHECK(check_initializer("data_type: 7 dims: 1 float_data: 1") ==
        Rules{"tensor.wrong-field-for-type"});
  CHECK(check_initializer(R"(data_type: 8 dims: 1 raw_data: "a")") ==
        Rules{"tensor.wrong-field-for-type"});
  CHECK(check_initializer("data_type: 2 dims: 1 int32_data: 300") ==
        Rules{"tensor.value-out-of-range"});
  CHECK(check_initializer(R"(data_type: 8 dims: 1 string_data: "\377")") ==
        Rules{"string.not-utf8"});
  CHECK(check_initializer("data_type: 1 dims: 0 float_data: 1") == Rules{"tensor.size-mismatch"});
}

TEST_CASE("declared sizes are never trusted") {
  // 2^40 elements with no data: rejected without allocating a byte for them.
  CHECK(check_initializer("data_type: 1 dims: 1099511627776") == Rules{"tensor.missing-data"});
  CHECK(check_initializer(R"(data_type: 1 dims: 1099511627776 raw_data: "abcd")") ==
        Rules{"tensor.size-mismatch"});
  // dims whose product overflows int64.
  CHECK(check_initializer("data_type: 1 dims: 4294967296 dims: 4294967296 dims: 4") ==
        Rules{"tensor.bad-dims"});
  // External data is never read; its type and dims are still checked.
  CHECK(check_initializer(R"(data_type: 1 dims: -3 data_location: EXTERNAL
                             external_data { key: "location" value: "w.bin" })") ==
        Rules{"tensor.bad-dims"});
}

TEST_CASE("element types newer than the IR version") {
  CHECK(check_initializer("data_type: 22 dims: 2 int32_data: 33", 9) ==
        Rules{"model.ir-version-too-old"});
}

TEST_CASE("sparse tensors") {
  CHECK(check_sparse(kValues + R"( indices { data_type: 7 dims: 2 int64_data: 0 int64_data: 3 })")
            .empty());
  CHECK(check_sparse(kValues +
                     R"( indices { data_type: 7 dims: 2 dims: 1 int64_data: 1 int64_data: 2 })")
            .empty());
  // Without values the sparse initializer has no name either, and defines nothing.
  CHECK(check_sparse("dims: 4").count("sparse.missing-values") == 1);
  CHECK(
      check_sparse(R"(values { name: "S" data_type: 1 dims: 1 dims: 1 float_data: 1 } dims: 4)") ==
      Rules{"sparse.values-rank"});
  CHECK(check_sparse(R"(values { name: "S" data_type: 1 dims: 1 float_data: 1 } dims: 0)") ==
        Rules{"sparse.bad-dims"});
  CHECK(check_sparse(R"(values { name: "S" data_type: 1 dims: 1 float_data: 1 })") ==
        Rules{"sparse.bad-dims"});
  CHECK(check_sparse(kValues) == Rules{"sparse.missing-indices"});
  CHECK(
      check_sparse(kValues + R"( indices { data_type: 6 dims: 2 int32_data: 0 int32_data: 3 })") ==
      Rules{"sparse.indices-type"});
  CHECK(check_sparse(
            kValues +
            R"( indices { data_type: 7 dims: 3 int64_data: 0 int64_data: 1 int64_data: 2 })") ==
        Rules{"sparse.indices-shape"});
  CHECK(
      check_sparse(kValues + R"( indices { data_type: 7 dims: 2 int64_data: 0 int64_data: 4 })") ==
      Rules{"sparse.index-out-of-range"});
  CHECK(
      check_sparse(kValues + R"( indices { data_type: 7 dims: 2 int64_data: 3 int64_data: 1 })") ==
      Rules{"sparse.indices-unsorted"});
  CHECK(
      check_sparse(kValues + R"( indices { data_type: 7 dims: 2 int64_data: 1 int64_data: 1 })") ==
      Rules{"sparse.indices-unsorted"});
  CHECK(check_sparse(kValues +
                     R"( indices { data_type: 7 dims: 2 dims: 1 int64_data: 1 int64_data: -1 })") ==
        Rules{"sparse.index-out-of-range"});
}
