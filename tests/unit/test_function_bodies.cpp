// SPDX-License-Identifier: Apache-2.0
// The function bodies the registry holds for the operators the spec defines as functions: that
// each parses, calls only operators known at its opset, and computes what the operator's kernel
// computes on the ONNX backend data (with the executor forced through the body); and that every
// function version without a body says why (its spec body is built per call site).
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
  int written = 0, noted = 0;
  for (const OpVersion* v : versions) {
    CAPTURE(v->id());
    // A version whose spec body is built per call site carries a note saying why instead.
    CHECK_MESSAGE(v->function_body.empty() != v->function_body_note.empty(),
                  v->id() << " needs either a body or a note on why it has none");
    if (v->function_body.empty()) {
      if (!v->function_body_note.empty()) ++noted;
      MESSAGE("no body for " << v->id() << ": " << v->function_body_note);
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
  MESSAGE(written << " of " << versions.size() << " function versions have a body, " << noted
                  << " a note");
  CHECK(written >= 42);
  CHECK(written + noted == static_cast<int>(versions.size()));
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
    // Bernoulli's outputs are random draws: the kernel matching a test's data is a coincidence
    // of its generator (test_bernoulli_double), and the body draws from RandomUniformLike's.
    if (v.name == "Bernoulli") {
      ++inapplicable;
      MESSAGE(test.name << ": random outputs; not compared");
      continue;
    }
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

// CausalConvWithState has no backend node tests: compare its body with the kernel on a small
// case with every optional input (past state, bias, SiLU) and on one with none of them.
TEST_CASE("the CausalConvWithState body matches the kernel") {
  for (bool full : {true, false}) {
    CAPTURE(full);
    ModelBuilder b(27);
    b.input("x", 1, {"2", "3", "4"});
    b.input("w", 1, {"3", "1", "3"});
    std::vector<std::string> inputs{"x", "w"};
    if (full) {
      b.input("bias", 1, {"3"});
      b.input("past", 1, {"2", "3", "2"});
      inputs.insert(inputs.end(), {"bias", "past"});
    }
    auto& n = b.node("CausalConvWithState", inputs, {"y", "state"}, "conv");
    if (full) {
      auto* a = n.add_attribute();
      a->set_name("activation");
      a->set_type(onnx::AttributeProto::STRING);
      a->set_s("silu");
    }
    b.output("y", 1, {"2", "3", "4"});
    b.output("state", 1, {"2", "3", "2"});
    Model m = b.build();
    std::vector<float> xs(24), ws(9), past(12);
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 0.25f * static_cast<float>(i % 7) - 0.6f;
    for (std::size_t i = 0; i < ws.size(); ++i) ws[i] = 0.5f - 0.125f * static_cast<float>(i);
    for (std::size_t i = 0; i < past.size(); ++i) past[i] = 0.1f * static_cast<float>(i) - 0.5f;
    std::vector<std::pair<std::string, Value>> feeds{{"x", Value(floats({2, 3, 4}, xs))},
                                                     {"w", Value(floats({3, 1, 3}, ws))}};
    if (full) {
      feeds.emplace_back("bias", Value(floats({3}, {0.5f, -1.0f, 0.25f})));
      feeds.emplace_back("past", Value(floats({2, 3, 2}, past)));
    }
    std::vector<std::vector<float>> results[2];
    for (bool bodies : {false, true}) {
      SessionOptions opts;
      opts.threads = 1;
      opts.prefer_function_bodies = bodies;
      Session s(m, opts);
      CHECK(s.stats().function_calls == (bodies ? 1 : 0));
      for (const Value& v : s.run(feeds)) results[bodies].push_back(values_of(v));
    }
    REQUIRE(results[0].size() == 2);
    REQUIRE(results[1].size() == 2);
    for (std::size_t o = 0; o < 2; ++o) {
      REQUIRE(results[0][o].size() == results[1][o].size());
      for (std::size_t i = 0; i < results[0][o].size(); ++i)
        CHECK(results[1][o][i] == doctest::Approx(results[0][o][i]).epsilon(1e-5));
    }
  }
}

// LinearAttention has no backend node tests either: compare its body with the kernel for each
// update rule, with grouped query heads, a past state, and per-key or per-head decay.
TEST_CASE("the LinearAttention body matches the kernel") {
  // B = 2, T = 3, q heads 4, kv heads 2, d_k = 3, d_v = 2.
  const auto ramp = [](std::size_t n, float step, float from) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = from + step * static_cast<float>((i * 7) % 11) - 0.05f * static_cast<float>(i % 3);
    return v;
  };
  for (const char* rule : {"linear", "gated", "delta", "gated_delta"})
    for (bool per_key : {true, false}) {
      CAPTURE(rule);
      CAPTURE(per_key);
      ModelBuilder b(27);
      b.input("q", 1, {"2", "3", "12"});
      b.input("k", 1, {"2", "3", "6"});
      b.input("v", 1, {"2", "3", "4"});
      b.input("past", 1, {"2", "2", "3", "2"});
      b.input("decay", 1, {"2", "3", per_key ? "6" : "2"});
      b.input("beta", 1, {"2", "3", per_key ? "2" : "1"});
      auto& n =
          b.node("LinearAttention", {"q", "k", "v", "past", "decay", "beta"}, {"y", "state"}, "la");
      set_attr(n, "q_num_heads", int64_t{4});
      set_attr(n, "kv_num_heads", int64_t{2});
      auto* a = n.add_attribute();
      a->set_name("update_rule");
      a->set_type(onnx::AttributeProto::STRING);
      a->set_s(rule);
      if (!per_key) set_attr(n, "scale", 0.75f);
      b.output("y", 1, {"2", "3", "8"});
      b.output("state", 1, {"2", "2", "3", "2"});
      Model m = b.build();
      const std::vector<std::pair<std::string, Value>> feeds{
          {"q", Value(floats({2, 3, 12}, ramp(72, 0.1f, -0.4f)))},
          {"k", Value(floats({2, 3, 6}, ramp(36, 0.08f, -0.3f)))},
          {"v", Value(floats({2, 3, 4}, ramp(24, 0.12f, -0.5f)))},
          {"past", Value(floats({2, 2, 3, 2}, ramp(24, 0.05f, -0.2f)))},
          {"decay", Value(floats({2, 3, per_key ? 6 : 2}, ramp(per_key ? 36 : 12, -0.03f, -0.1f)))},
          {"beta", Value(floats({2, 3, per_key ? 2 : 1}, ramp(per_key ? 12 : 6, 0.07f, 0.2f)))}};
      std::vector<std::vector<float>> results[2];
      for (bool bodies : {false, true}) {
        SessionOptions opts;
        opts.threads = 1;
        opts.prefer_function_bodies = bodies;
        Session s(m, opts);
        CHECK(s.stats().function_calls == (bodies ? 1 : 0));
        for (const Value& v : s.run(feeds)) results[bodies].push_back(values_of(v));
      }
      REQUIRE(results[0].size() == 2);
      REQUIRE(results[1].size() == 2);
      for (std::size_t o = 0; o < 2; ++o) {
        REQUIRE(results[0][o].size() == results[1][o].size());
        for (std::size_t i = 0; i < results[0][o].size(); ++i)
          CHECK(results[1][o][i] == doctest::Approx(results[0][o][i]).epsilon(1e-4));
      }
    }
}
