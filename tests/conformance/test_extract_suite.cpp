// SPDX-License-Identifier: Apache-2.0
// `extract` against the backend node tests: each test's model is set inside a bigger one (its
// inputs become intermediate values behind Identity nodes, its outputs feed more nodes, an
// unrelated branch and a constant sit beside it), and the test's nodes are cut back out by
// naming its inputs and outputs. The piece must hold exactly the test's nodes (less those whose
// results nothing reads, which some expanded tests carry), take and give
// exactly its inputs and outputs, and pass the test's data wherever the original passes
// (tests/conformance/node.manifest).
#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <set>

#include "core/diag/error.h"
#include "core/edit/extract.h"
#include "core/exec/backend_test.h"
#include "core/exec/blas.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

// The node tests the manifest lists as passing.
std::set<std::string> passing_node_tests() {
  std::set<std::string> pass;
  std::ifstream in(test::source_dir() / "tests" / "conformance" / "node.manifest");
  for (std::string line; std::getline(in, line);) {
    const auto space = line.find(' ');
    if (space != std::string::npos && line.substr(space + 1) == "pass")
      pass.insert(line.substr(0, space));
  }
  return pass;
}

onnx::NodeProto node(const char* op, const std::string& in, const std::string& out) {
  onnx::NodeProto n;
  n.set_op_type(op);
  if (!in.empty()) n.add_input(in);
  n.add_output(out);
  return n;
}

struct Enlarged {
  onnx::ModelProto model;
  std::vector<std::string> cut_inputs, cut_outputs;
};

// The test's graph behind Identity nodes on both sides, with a branch and a constant beside it.
Enlarged enlarge(const onnx::ModelProto& original) {
  Enlarged e{original, {}, {}};
  onnx::GraphProto& g = *e.model.mutable_graph();
  std::set<std::string> initializers;
  for (const auto& t : g.initializer()) initializers.insert(t.name());
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  std::string first_outer;
  for (int i = 0; i < g.input_size(); ++i) {
    onnx::ValueInfoProto& v = *g.mutable_input(i);
    if (initializers.count(v.name())) continue;
    e.cut_inputs.push_back(v.name());
    *g.add_value_info() = v;
    const std::string outer = "enlarged_in_" + std::to_string(i);
    *nodes.Add() = node("Identity", outer, v.name());
    v.set_name(outer);
    if (first_outer.empty()) first_outer = outer;
  }
  for (const auto& n : g.node()) *nodes.Add() = n;
  for (int i = 0; i < g.output_size(); ++i) {
    onnx::ValueInfoProto& v = *g.mutable_output(i);
    e.cut_outputs.push_back(v.name());
    *g.add_value_info() = v;
    const std::string outer = "enlarged_out_" + std::to_string(i);
    *nodes.Add() = node("Identity", v.name(), outer);
    v.set_name(outer);
  }
  if (!first_outer.empty()) {
    *nodes.Add() = node("Identity", first_outer, "enlarged_branch");
    onnx::ValueInfoProto out = g.input(0);
    for (const auto& v : g.input())
      if (v.name() == first_outer) out = v;
    out.set_name("enlarged_branch");
    *g.add_output() = out;
  }
  onnx::NodeProto c = node("Constant", "", "enlarged_constant");
  onnx::AttributeProto& a = *c.add_attribute();
  a.set_name("value");
  a.set_type(onnx::AttributeProto::TENSOR);
  a.mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  a.mutable_t()->add_float_data(1.5f);
  *nodes.Add() = c;
  onnx::ValueInfoProto cv;
  cv.set_name("enlarged_constant");
  cv.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  cv.mutable_type()->mutable_tensor_type()->mutable_shape();
  *g.add_output() = cv;
  g.mutable_node()->Swap(&nodes);
  return e;
}

// Every name a node reads, its subgraphs included (captures are among them).
void collect_reads(const onnx::NodeProto& n, std::set<std::string>& reads) {
  reads.insert(n.input().begin(), n.input().end());
  for (const auto& a : n.attribute()) {
    std::vector<const onnx::GraphProto*> graphs;
    if (a.has_g()) graphs.push_back(&a.g());
    for (const auto& g : a.graphs()) graphs.push_back(&g);
    for (const auto* g : graphs) {
      for (const auto& inner : g->node()) collect_reads(inner, reads);
      for (const auto& o : g->output()) reads.insert(o.name());
    }
  }
}

// The piece's nodes are the original's in order, less nodes whose outputs nothing in the piece
// reads (the expanded tests carry such dead nodes).
bool same_live_nodes(const onnx::GraphProto& piece, const onnx::GraphProto& original,
                     std::string& why) {
  std::set<std::string> reads;
  for (const auto& n : piece.node()) collect_reads(n, reads);
  for (const auto& o : piece.output()) reads.insert(o.name());
  int p = 0;
  for (const auto& n : original.node()) {
    // Bytes, not MessageDifferencer: NaN in a tensor attribute must compare equal to itself.
    if (p < piece.node_size() && n.SerializeAsString() == piece.node(p).SerializeAsString()) {
      ++p;
      continue;
    }
    for (const auto& out : n.output())
      if (!out.empty() && reads.count(out)) {
        why = "a node the piece needs is missing: it computes " + out;
        return false;
      }
  }
  if (p != piece.node_size()) {
    why = "piece node " + std::to_string(p) + " is not one of the original's, in order";
    return false;
  }
  return true;
}

std::vector<std::string> names(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& vs,
                               const std::set<std::string>& skip = {}) {
  std::vector<std::string> out;
  for (const auto& v : vs)
    if (!skip.count(v.name())) out.push_back(v.name());
  return out;
}

// A slice under the sanitizers (every 8th test): the release build cuts every one.
bool in_slice(std::size_t index) {
  return !test::kSanitized || index % 8 == 0;
}

}  // namespace

TEST_CASE("extract: every node test's nodes cut back out of a bigger model pass its data") {
  const fs::path root =
      test::require_shared_dir("the ONNX backend test data") / "onnx-backend-tests" / "node";
  const auto tests = find_backend_tests(root);
  REQUIRE(tests.size() > 1400);
  const std::set<std::string> passing = passing_node_tests();
  REQUIRE(passing.size() > 1300);
  blas::info();
  test::TempDir tmp;
  BackendTestOptions opt;
  opt.threads = 1;
  int cut = 0, ran = 0, passed = 0;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (!in_slice(i)) continue;
    const BackendTestCase& t = tests[i];
    INFO(t.name);
    DiagSink load_sink;
    Model original = load_model(t.model.string(), {}, load_sink);
    Enlarged big = enlarge(*original.proto);
    Model m = model_from_proto(std::make_shared<onnx::ModelProto>(big.model), t.name,
                               t.model.parent_path());
    DiagSink infer_sink;
    const InferResult types = infer_model(m, {}, infer_sink);
    ExtractSummary s;
    try {
      s = extract_model(m, {big.cut_inputs, big.cut_outputs}, types);
    } catch (const Error& e) {
      FAIL_CHECK("extract refused: " << e.what());
      continue;
    }
    ++cut;
    std::string why;
    CHECK_MESSAGE(same_live_nodes(m.proto->graph(), original.proto->graph(), why), why);
    std::set<std::string> initializers;
    for (const auto& init : original.proto->graph().initializer()) initializers.insert(init.name());
    CHECK(names(m.proto->graph().input(), initializers) ==
          names(original.proto->graph().input(), initializers));
    CHECK(names(m.proto->graph().output()) == names(original.proto->graph().output()));
    if (!passing.count(t.name)) continue;
    const fs::path piece = tmp / (t.name + ".onnx");
    save_model(m, piece.string());
    ++ran;
    const BackendTestResult r = run_backend_test({t.name, piece, t.data_sets}, opt);
    passed += r.passed ? 1 : 0;
    CHECK_MESSAGE(r.passed, "the piece fails where the original passes: " << r.reason);
  }
  std::cout << "extract: " << cut << " node tests cut out of bigger models; " << passed << " of "
            << ran << " pieces pass where the original passes"
            << (test::kSanitized ? " (every 8th test under the sanitizers)" : "") << "\n";
}
