// SPDX-License-Identifier: Apache-2.0
// The checker's function, training-info and device-configuration passes.
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

struct Result {
  std::vector<Diagnostic> all;
  Rules rules() const {
    Rules out;
    for (const auto& d : all)
      if (d.severity == Severity::error) out.insert(d.rule);
    return out;
  }
  const Diagnostic* find(const std::string& rule) const {
    for (const auto& d : all)
      if (d.rule == rule) return &d;
    return nullptr;
  }
};

Result check(const std::string& text) {
  onnx::ModelProto m;
  REQUIRE_MESSAGE(google::protobuf::TextFormat::ParseFromString(text, &m), text);
  DiagSink sink;
  check_model(m, {}, sink);
  return {sink.diagnostics()};
}

// A model calling local.F on X; `functions` holds the FunctionProto entries.
std::string with_functions(const std::string& functions, int ir = 10) {
  return "ir_version: " + std::to_string(ir) + R"( opset_import { version: 21 }
    opset_import { domain: "local" version: 1 } )" +
         functions + R"( graph { name: "g"
      input { name: "X" type { tensor_type { elem_type: 1 shape { } } } }
      output { name: "Y" type { tensor_type { elem_type: 1 shape { } } } }
      node { domain: "local" op_type: "F" input: "X" output: "Y" } })";
}

std::string fn(const std::string& name, const std::string& body, const std::string& extra = "") {
  return R"(functions { name: ")" + name + R"(" domain: "local" input: "a" output: "b"
      opset_import { version: 21 } opset_import { domain: "local" version: 1 } )" +
         extra + " " + body + " } ";
}

const std::string kRelu = R"(node { op_type: "Relu" input: "a" output: "b" })";

}  // namespace

TEST_CASE("a valid function") {
  CHECK(check(with_functions(fn("F", kRelu))).all.empty());
}

TEST_CASE("function identity and signature") {
  CHECK(check(with_functions(fn("F", kRelu) + fn("F", kRelu))).rules() ==
        Rules{"function.duplicate"});
  // A different overload is a different function.
  CHECK(check(with_functions(fn("F", kRelu) + fn("F", kRelu, R"(overload: "x")"))).all.empty());
  CHECK(check(with_functions(fn("F", kRelu) + fn("", kRelu))).rules() ==
        Rules{"function.missing-name"});
  CHECK(check(with_functions(
                  R"(functions { name: "F" input: "a" output: "b" opset_import { version: 21 } )" +
                  kRelu + " }"))
            .rules() == Rules{"function.missing-domain"});
  CHECK(check(with_functions(fn("F", kRelu, R"(input: "a")"))).rules() ==
        Rules{"function.duplicate-input"});
  CHECK(check(with_functions(fn("F", kRelu, R"(output: "b")"))).rules() ==
        Rules{"function.duplicate-output"});
  CHECK(check(with_functions(fn("F", kRelu, R"(attribute: "k" attribute: "k")"))).rules() ==
        Rules{"function.duplicate-attribute"});
  CHECK(check(with_functions(
                  fn("F", kRelu, R"(attribute: "k" attribute_proto { name: "k" type: INT i: 1 })")))
            .rules() == Rules{"function.attribute-overlap"});
  CHECK(check(with_functions(fn("F", kRelu), 7)).rules() == Rules{"model.ir-version-too-old"});
}

TEST_CASE("function bodies") {
  SUBCASE("order and outputs") {
    auto r = check(with_functions(fn("F", R"(node { op_type: "Relu" input: "t" output: "b" }
                                           node { op_type: "Relu" input: "a" output: "t" })")));
    CHECK(r.rules() == Rules{"graph.not-topological"});
    CHECK(r.find("graph.not-topological")->location == "functions[0] \"local.F\": node[0] (Relu)");
    CHECK(check(with_functions(fn("F", R"(node { op_type: "Relu" input: "a" output: "c" })")))
              .rules() == Rules{"graph.output-not-produced"});
  }
  SUBCASE("attribute references") {
    const std::string leaky = R"(node { op_type: "LeakyRelu" input: "a" output: "b"
                                   attribute { name: "alpha" type: FLOAT ref_attr_name: "k" } })";
    CHECK(check(with_functions(fn("F", leaky, R"(attribute: "k")"))).all.empty());
    CHECK(check(with_functions(fn("F", leaky))).rules() == Rules{"attr.ref-unknown"});
    const std::string both = R"(node { op_type: "LeakyRelu" input: "a" output: "b"
                                  attribute { name: "alpha" type: FLOAT f: 1 ref_attr_name: "k" } })";
    CHECK(check(with_functions(fn("F", both, R"(attribute: "k")"))).rules() ==
          Rules{"attr.ref-with-value"});
  }
  SUBCASE("domains come from the function's own opset_import") {
    auto r = check(with_functions(R"(functions { name: "F" domain: "local" input: "a" output: "b"
        node { op_type: "Relu" input: "a" output: "b" } })"));
    CHECK(r.rules() == Rules{"node.domain-not-imported"});
  }
  SUBCASE("an opset import incompatible with the model's") {
    auto r = check(with_functions(R"(functions { name: "F" domain: "local" input: "a" output: "b"
        opset_import { version: 12 } node { op_type: "Relu" input: "a" output: "b" } })"));
    CHECK(r.rules() == Rules{"function.opset-mismatch"});
    // Relu is the same from 14 to 21: no conflict.
    CHECK(check(with_functions(R"(functions { name: "F" domain: "local" input: "a" output: "b"
        opset_import { version: 14 } node { op_type: "Relu" input: "a" output: "b" } })"))
              .all.empty());
  }
  SUBCASE("recursion, direct and through another function") {
    auto self = check(
        with_functions(fn("F", R"(node { domain: "local" op_type: "F" input: "a" output: "b" })")));
    CHECK(self.rules() == Rules{"function.recursive"});
    auto mutual = check(
        with_functions(fn("F", R"(node { domain: "local" op_type: "G" input: "a" output: "b" })") +
                       fn("G", R"(node { domain: "local" op_type: "F" input: "a" output: "b" })")));
    CHECK(mutual.rules() == Rules{"function.recursive", "function.recursive"});
  }
}

namespace {

std::string training(const std::string& info) {
  return R"(ir_version: 8 opset_import { version: 17 } graph { name: "g"
      input { name: "X" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } } } } }
      output { name: "Y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } } } } }
      initializer { name: "W" data_type: 1 dims: 1 float_data: 1 }
      node { op_type: "Add" input: "X" input: "W" output: "Y" } }
    training_info { )" +
         info + " }";
}

const std::string kInit = R"(initialization { name: "init" output { name: "W0" }
    node { op_type: "Constant" output: "W0" attribute { name: "value_floats" type: FLOATS floats: 0 } } })";
const std::string kAlgo = R"(algorithm { name: "algo" output { name: "W1" }
    node { op_type: "Add" input: "W" input: "Y" output: "W1" } })";

}  // namespace

TEST_CASE("training info") {
  CHECK(check(training(kInit + " " + kAlgo +
                       R"( initialization_binding { key: "W" value: "W0" }
                           update_binding { key: "W" value: "W1" })"))
            .all.empty());
  CHECK(check(training(kAlgo + R"( initialization_binding { key: "W" value: "W0" })")).rules() ==
        Rules{"training.missing-initialization"});
  CHECK(check(training(kInit + R"( initialization_binding { key: "W" value: "W0" }
                                   initialization_binding { key: "W" value: "W0" })"))
            .rules() == Rules{"training.duplicate-binding"});
  CHECK(check(training(kInit + R"( initialization_binding { key: "X" value: "W0" })")).rules() ==
        Rules{"training.binding-unknown-key"});
  CHECK(check(training(kAlgo + R"( update_binding { key: "W" value: "nope" })")).rules() ==
        Rules{"training.binding-unknown-value"});
  auto old = check(training(kAlgo));
  CHECK(old.rules().empty());
}

namespace {

std::string devices(const std::string& configs, const std::string& node_config) {
  return R"(ir_version: 11 opset_import { version: 23 } )" + configs + R"( graph { name: "g"
      input { name: "X" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } dim { dim_value: 4 } } } } }
      output { name: "Y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } dim { dim_value: 4 } } } } }
      node { op_type: "Relu" input: "X" output: "Y" )" +
         node_config + " } }";
}

const std::string kTwo = R"(configuration { name: "two" num_devices: 2 })";

std::string spec(const std::string& body) {
  return R"(device_configurations { configuration_id: "two" sharding_spec { tensor_name: "X" )" +
         body + " } }";
}

}  // namespace

TEST_CASE("device configurations and sharding") {
  const std::string split =
      R"(device: 0 device: 1 sharded_dim { axis: 0 simple_sharding { num_shards: 2 } })";
  CHECK(check(devices(kTwo, spec(split))).all.empty());
  // Replication through a device group.
  CHECK(
      check(devices(kTwo,
                    spec(R"(device: -1 index_to_device_group_map { key: -1 value: 0 value: 1 })")))
          .all.empty());
  CHECK(check(devices(R"(configuration { num_devices: 2 })", "")).rules() ==
        Rules{"device.missing-name"});
  CHECK(check(devices(kTwo + " " + kTwo, "")).rules() == Rules{"device.duplicate-name"});
  CHECK(check(devices(R"(configuration { name: "z" num_devices: 0 })", "")).rules() ==
        Rules{"device.bad-num-devices"});
  CHECK(
      check(devices(R"(configuration { name: "d" num_devices: 2 device: "gpu0" })", "")).rules() ==
      Rules{"device.device-count"});
  CHECK(check(devices(kTwo, R"(device_configurations { configuration_id: "three" })")).rules() ==
        Rules{"device.unknown-configuration"});
  CHECK(
      check(
          devices(
              kTwo,
              R"(device_configurations { configuration_id: "two" sharding_spec { tensor_name: "Q" } })"))
          .rules() == Rules{"sharding.unknown-tensor"});
  CHECK(
      check(
          devices(
              kTwo,
              spec(
                  R"(device: 0 device: 5 sharded_dim { axis: 0 simple_sharding { num_shards: 2 } })")))
          .rules() == Rules{"sharding.device-out-of-range"});
  CHECK(
      check(
          devices(
              kTwo,
              spec(
                  R"(device: 0 device: 1 sharded_dim { axis: 2 simple_sharding { num_shards: 2 } })")))
          .rules() == Rules{"sharding.bad-axis"});
  CHECK(
      check(
          devices(
              kTwo,
              spec(
                  R"(device: 0 device: 1 sharded_dim { axis: 0 simple_sharding { num_shards: 0 } })")))
          .rules() == Rules{"sharding.bad-num-shards"});
  CHECK(
      check(
          devices(
              kTwo,
              spec(
                  R"(device: 0 device: 1 sharded_dim { axis: 0 simple_sharding { num_shards: 4 } })")))
          .rules() == Rules{"sharding.shard-count"});
  auto old = devices(kTwo, "");
  old.replace(old.find("ir_version: 11"), 14, "ir_version: 10");
  CHECK(check(old).rules() == Rules{"model.ir-version-too-old"});
}
