// SPDX-License-Identifier: Apache-2.0
// The function bodies the registry holds for the operators the spec defines as functions: that
// each parses, calls only operators known at its opset, and computes what the operator's kernel
// computes on the ONNX backend data (with the executor forced through the body).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "core/exec/backend_test.h"
#include "core/exec/session.h"
#include "core/registry/registry.h"
#include "core/registry/schema.h"
#include "core/text/parser.h"
#include "onnx.pb.h"
#include "tests/support/support.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

std::vector<const OpVersion*> function_versions() {
  std::vector<const OpVersion*> out;
  for (const OpDef* op : Registry::standard().all())
    for (const OpVersion& v : op->versions())
      if (v.is_function) out.push_back(&v);
  return out;
}

int64_t body_opset(const onnx::FunctionProto& f, const std::string& domain, int64_t fallback) {
  for (const auto& o : f.opset_import())
    if (o.domain() == domain || (domain.empty() && o.domain() == "ai.onnx")) return o.version();
  return fallback;
}

// Every node of a body, including those of If/Loop branches.
void collect_nodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                   std::vector<const onnx::NodeProto*>& out) {
  for (const auto& n : nodes) {
    out.push_back(&n);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collect_nodes(a.g().node(), out);
      for (const auto& g : a.graphs()) collect_nodes(g.node(), out);
    }
  }
}

}  // namespace

TEST_CASE("every written function body parses and calls operators the registry has") {
  const Registry& reg = Registry::standard();
  const auto versions = function_versions();
  CHECK(versions.size() == 47);
  int written = 0;
  for (const OpVersion* v : versions) {
    CAPTURE(v->id());
    if (v->function_body.empty()) {
      MESSAGE("no body written yet for " << v->id());
      continue;
    }
    ++written;
    onnx::FunctionProto f;
    REQUIRE_NOTHROW(text::parse_function_text(v->function_body, f, v->id()));
    CHECK(f.name() == v->name);
    CHECK(f.domain() == v->domain);
    CHECK(body_opset(f, "", 0) == v->function_opset);
    CHECK(f.input_size() == static_cast<int>(v->inputs.size()));
    CHECK(f.output_size() == static_cast<int>(v->outputs.size()));
    // Attribute references must name attributes the operator declares.
    for (const auto& a : f.attribute()) CHECK_MESSAGE(v->find_attribute(a) != nullptr, a);
    std::vector<const onnx::NodeProto*> nodes;
    collect_nodes(f.node(), nodes);
    CHECK_FALSE(nodes.empty());
    for (const onnx::NodeProto* n : nodes) {
      CAPTURE(n->op_type());
      const OpVersion* callee =
          reg.lookup(n->domain(), n->op_type(), body_opset(f, n->domain(), v->function_opset));
      CHECK(callee != nullptr);
      if (callee) CHECK_FALSE(callee->deprecated);
      for (const auto& a : n->attribute())
        if (!a.ref_attr_name().empty())
          CHECK_MESSAGE(v->find_attribute(a.ref_attr_name()) != nullptr, a.name());
    }
  }
  MESSAGE(written << " of " << versions.size() << " function versions have a body");
  CHECK(written >= 35);
}

// For each backend node test of a function operator: pin the model's opset to the function
// version, run it with kernels, and where that passes run it again through the body. A test
// whose kernel run fails at that opset (an older signature, random outputs) says nothing about
// the body and is only counted.
TEST_CASE("function bodies match the backend node tests") {
  const auto shared = shared_dir();
  if (!shared) {
    MESSAGE("skipped: ../shared (ONNX backend data) is not there");
    return;
  }
  const fs::path node_dir = *shared / "onnx-backend-tests" / "node";
  if (!fs::exists(node_dir)) {
    MESSAGE("skipped: " << node_dir.string() << " is not there");
    return;
  }
  const Registry& reg = Registry::standard();
  std::map<std::string, const OpVersion*> by_name;  // the newest function version with a body
  for (const OpVersion* v : function_versions())
    if (v->domain.empty() && !v->function_body.empty()) by_name[v->name] = v;

  TempDir tmp;
  int compared = 0, inapplicable = 0;
  std::map<std::string, int> per_op;
  for (BackendTestCase test : find_backend_tests(node_dir)) {
    if (test.name.find("_expanded") != std::string::npos) continue;
    onnx::ModelProto model;
    if (!model.ParseFromString(read_file(test.model))) continue;
    const auto& graph_nodes = model.graph().node();
    if (graph_nodes.size() != 1 || !graph_nodes[0].domain().empty()) continue;
    const auto it = by_name.find(graph_nodes[0].op_type());
    if (it == by_name.end()) continue;
    const OpVersion& v = *it->second;
    CAPTURE(test.name);
    for (auto& o : *model.mutable_opset_import())
      if (o.domain().empty() || o.domain() == "ai.onnx") o.set_version(v.since);
    if (reg.lookup("", v.name, v.since) != &v) continue;
    const fs::path pinned = tmp / (test.name + ".onnx");
    write_file(pinned, model.SerializeAsString());
    test.model = pinned;

    BackendTestOptions o;
    o.threads = 1;
    o.isolate = true;
    o.timeout_seconds = 60;
    const BackendTestResult with_kernel = run_backend_test(test, o);
    if (!with_kernel.passed) {
      ++inapplicable;
      MESSAGE(test.name << " at opset " << v.since << " fails with the kernel too ("
                        << with_kernel.reason << "); not compared");
      continue;
    }
    o.prefer_function_bodies = true;
    const BackendTestResult with_body = run_backend_test(test, o);
    CHECK_MESSAGE(with_body.passed, v.id() << " body: " << with_body.reason);
    ++compared;
    ++per_op[v.id()];
  }
  std::string ops;
  for (const auto& [id, n] : per_op) ops += " " + id + ":" + std::to_string(n);
  MESSAGE(compared << " backend tests run through a body (" << inapplicable << " not comparable);"
                   << ops);
  CHECK(compared > 0);
}

TEST_CASE("the executor keeps a kernel over a body unless asked for bodies") {
  // LeakyRelu-16 is a function with a kernel: the kernel runs by default.
  ModelBuilder b(16);
  b.input("x", 1, {"3"});
  set_attr(b.node("LeakyRelu", {"x"}, {"y"}, "lr"), "alpha", 0.5f);
  b.output("y", 1, {"3"});
  Model m = b.build();
  const Value x(floats({3}, {-2, 0, 3}));
  for (bool bodies : {false, true}) {
    CAPTURE(bodies);
    SessionOptions opts;
    opts.threads = 1;
    opts.prefer_function_bodies = bodies;
    Session s(m, opts);
    CHECK(s.stats().function_calls == (bodies ? 1 : 0));
    CHECK(values_of(s.run({{"x", x}})[0]) == std::vector<float>{-1, 0, 3});
  }
}
