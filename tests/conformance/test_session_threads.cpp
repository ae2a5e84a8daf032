// SPDX-License-Identifier: Apache-2.0
// Sessions over whole models. One Session serves two threads at once: every light model of the
// backend suite, and every pytorch-converted and pytorch-operator model, runs two different
// inputs on two threads concurrently, and each thread's outputs have the same bytes as the same
// input run alone. The plan, the kernels' prepared state (packed weights, decoded attributes)
// and the folded constants are shared; each run has its own frame. And the executor's fusions
// change nothing but rounding: each model runs fused and as written, on the same inputs.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <thread>

#include "core/diag/diagnostic.h"
#include "core/exec/backend_test.h"
#include "core/exec/session.h"
#include "core/model/model.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

using Feeds = std::vector<std::pair<std::string, Value>>;

// The declared shape with symbolic dims set to 1.
Shape concrete_shape(const onnx::TypeProto& type) {
  Shape shape;
  for (const auto& d : type.tensor_type().shape().dim())
    shape.push_back(d.has_dim_value() ? d.dim_value() : 1);
  return shape;
}

// Float inputs of pseudo-random values in [-1, 1): a different stream per seed.
Feeds random_feeds(const Session& s, uint32_t seed) {
  Feeds feeds;
  for (const auto& port : s.inputs()) {
    if (port.has_initializer) continue;
    REQUIRE(port.type);
    REQUIRE(port.type->tensor_type().elem_type() == onnx::TensorProto::FLOAT);
    Tensor t(DataType::float32, concrete_shape(*port.type));
    uint32_t state = seed;
    for (float& v : t.mutable_span<float>()) {
      state = state * 1664525u + 1013904223u;
      v = static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1.0f;
    }
    feeds.emplace_back(port.name, Value(t));
  }
  return feeds;
}

// The data set's inputs, by the model's inputs that have no initializer, in order.
Feeds data_set_feeds(const Session& s, const BackendDataSet& ds) {
  Feeds feeds;
  std::size_t k = 0;
  for (const auto& port : s.inputs())
    if (!port.has_initializer && k < ds.inputs.size())
      feeds.emplace_back(port.name, read_value_pb(ds.inputs[k++].string()));
  return feeds;
}

// Float tensors scaled by -0.5 (other values kept): a second input that changes the outputs.
Feeds scaled(const Feeds& feeds) {
  Feeds out;
  for (const auto& [name, v] : feeds) {
    if (!v.is_tensor() || v.tensor().dtype() != DataType::float32) {
      out.emplace_back(name, v);
      continue;
    }
    Tensor t = v.tensor().clone();
    for (float& x : t.mutable_span<float>()) x *= -0.5f;
    out.emplace_back(name, Value(t));
  }
  return out;
}

bool same_bytes(const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_tensor() || !b[i].is_tensor()) return false;
    const Tensor &x = a[i].tensor(), &y = b[i].tensor();
    if (x.dtype() != y.dtype() || x.shape() != y.shape() ||
        std::memcmp(x.raw(), y.raw(), x.nbytes()) != 0)
      return false;
  }
  return true;
}

// Runs `first` and `second` alone, then both at once on two threads; each must give the bytes
// it gave alone. Returns whether the two inputs gave different outputs (the check means more).
bool check_two_threads(Session& session, const Feeds& first, const Feeds& second) {
  const std::vector<Value> alone_first = session.run(first);
  const std::vector<Value> alone_second = session.run(second);
  std::vector<Value> together_first, together_second;
  std::thread other([&] { together_second = session.run(second); });
  together_first = session.run(first);
  other.join();
  CHECK(same_bytes(together_first, alone_first));
  CHECK(same_bytes(together_second, alone_second));
  return !same_bytes(alone_first, alone_second);
}

SessionOptions two_threads() {
  SessionOptions options;
  options.threads = 2;
  return options;
}

}  // namespace

TEST_CASE("one Session runs the light models from two threads at once, with the same outputs") {
  const fs::path shared = require_shared_dir("the two-thread Session test");
  auto tests = find_backend_tests(shared / "onnx-backend-tests" / "light");
  REQUIRE(tests.size() >= 9);
  if (kSanitized) {
    std::erase_if(tests,
                  [](const BackendTestCase& t) { return !light_model_in_sanitizer_slice(t.name); });
    MESSAGE("sanitizer build: " << tests.size() << " light models; the release build runs all");
    REQUIRE(!tests.empty());
  }
  for (const auto& test : tests) {
    CAPTURE(test.name);
    DiagSink sink;
    const Model model = load_model(test.model.string(), {}, sink);
    Session session(model, two_threads());
    // The light models' outputs hardly depend on their inputs; the pytorch models below do.
    check_two_threads(session, random_feeds(session, 1), random_feeds(session, 2));
  }
  std::cout << "session threads: " << tests.size() << " light models, two runs at once each\n";
}

TEST_CASE("one Session runs the pytorch models from two threads at once, with the same outputs") {
  const fs::path shared = require_shared_dir("the two-thread Session test");
  int models = 0, input_dependent = 0;
  for (const char* folder : {"pytorch-converted", "pytorch-operator"}) {
    for (const auto& test : find_backend_tests(shared / "onnx-backend-tests" / folder)) {
      CAPTURE(test.name);
      DiagSink sink;
      const Model model = load_model(test.model.string(), {}, sink);
      Session session(model, two_threads());
      REQUIRE(!test.data_sets.empty());
      const Feeds feeds = data_set_feeds(session, test.data_sets.front());
      input_dependent += check_two_threads(session, feeds, scaled(feeds)) ? 1 : 0;
      ++models;
    }
  }
  CHECK(models == 117);
  // Most of them compute something from a float input: the concurrent runs had work to mix up.
  CHECK(input_dependent >= 100);
  std::cout << "session threads: " << models << " pytorch models (" << input_dependent
            << " with input-dependent outputs), two runs at once each\n";
}

namespace {

// Every float output element of `fused` within 1e-4 relative (1e-5 absolute) of `plain`; other
// values identical.
bool close_outputs(const std::vector<Value>& fused, const std::vector<Value>& plain) {
  if (fused.size() != plain.size()) return false;
  for (std::size_t i = 0; i < fused.size(); ++i) {
    if (!fused[i].is_tensor() || !plain[i].is_tensor()) return false;
    const Tensor &a = fused[i].tensor(), &b = plain[i].tensor();
    if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
    if (a.dtype() != DataType::float32) {
      if (std::memcmp(a.raw(), b.raw(), a.nbytes()) != 0) return false;
      continue;
    }
    const auto x = a.span<float>(), y = b.span<float>();
    for (std::size_t k = 0; k < x.size(); ++k) {
      if (std::isnan(x[k]) && std::isnan(y[k])) continue;
      if (!(std::abs(x[k] - y[k]) <= 1e-5 + 1e-4 * std::abs(y[k]))) return false;
    }
  }
  return true;
}

struct FusionCount {
  int models = 0, fused = 0;
  int64_t nodes_before = 0, nodes_after = 0;
};

// Runs the model fused and as written on the same inputs; counts what fusion removed.
void check_fused_against_plain(const Model& model, const Feeds& feeds, FusionCount& count) {
  SessionOptions plain_options = two_threads();
  plain_options.fuse = false;
  Session fused(model, two_threads()), plain(model, plain_options);
  CHECK(close_outputs(fused.run(feeds), plain.run(feeds)));
  CHECK(fused.stats().nodes <= plain.stats().nodes);
  ++count.models;
  count.fused += fused.stats().nodes < plain.stats().nodes ? 1 : 0;
  count.nodes_before += plain.stats().nodes;
  count.nodes_after += fused.stats().nodes;
}

}  // namespace

TEST_CASE("fused and as written: the light and pytorch models compute the same, up to rounding") {
  const fs::path shared = require_shared_dir("the fusion comparison");
  FusionCount light, pytorch;
  // Under the sanitizers the light models (whole CNNs, seconds a run there) are left to the
  // release run; the fusions' code paths are the same on the small models of test_nn_fusion.
  if (kSanitized) MESSAGE("sanitizer build: the light models are left to the release run");
  const auto light_tests = kSanitized ? std::vector<BackendTestCase>{}
                                      : find_backend_tests(shared / "onnx-backend-tests" / "light");
  for (const auto& test : light_tests) {
    CAPTURE(test.name);
    DiagSink sink;
    const Model model = load_model(test.model.string(), {}, sink);
    Session probe(model, two_threads());
    check_fused_against_plain(model, random_feeds(probe, 3), light);
  }
  for (const char* folder : {"pytorch-converted", "pytorch-operator"}) {
    for (const auto& test : find_backend_tests(shared / "onnx-backend-tests" / folder)) {
      CAPTURE(test.name);
      DiagSink sink;
      const Model model = load_model(test.model.string(), {}, sink);
      Session probe(model, two_threads());
      REQUIRE(!test.data_sets.empty());
      check_fused_against_plain(model, data_set_feeds(probe, test.data_sets.front()), pytorch);
    }
  }
  if (!kSanitized) {
    CHECK(light.models == 9);
    // Each light model has a Relu right after a Conv, at least.
    CHECK(light.fused == 9);
  }
  std::cout << "fusion: light models " << light.nodes_before << " -> " << light.nodes_after
            << " nodes run (" << light.fused << " of " << light.models << " fused); pytorch models "
            << pytorch.nodes_before << " -> " << pytorch.nodes_after << " (" << pytorch.fused
            << " of " << pytorch.models << ")\n";
}

namespace {

// The model with its main graph's nodes in a pseudo-random order (a fixed Fisher-Yates
// shuffle): what an export that ignores IR.md's order gives.
Model shuffled(const Model& model, uint32_t seed) {
  auto proto = std::make_shared<onnx::ModelProto>(*model.proto);
  auto& nodes = *proto->mutable_graph()->mutable_node();
  uint32_t state = seed;
  for (int i = nodes.size() - 1; i > 0; --i) {
    state = state * 1664525u + 1013904223u;
    nodes.SwapElements(i, static_cast<int>((state >> 8) % static_cast<uint32_t>(i + 1)));
  }
  Model out = model;
  out.proto = proto;
  return out;
}

// The shuffled model plans with one warning exec.not-topological (when the shuffle moved a
// reader before its producer) and gives the stored order's bytes as written, and, fused, the
// same up to rounding (fusions may pair nodes differently in another valid order).
bool check_shuffled(const Model& model, const Feeds& feeds) {
  const Model mixed = shuffled(model, 7);
  SessionOptions plain_options = two_threads();
  plain_options.fuse = false;
  Session stored(model, plain_options), plain(mixed, plain_options), fused(mixed, two_threads());
  const bool moved = !plain.warnings().empty();
  if (moved) CHECK(plain.warnings().front().rule == "exec.not-topological");
  const std::vector<Value> want = stored.run(feeds);
  CHECK(same_bytes(plain.run(feeds), want));
  CHECK(close_outputs(fused.run(feeds), want));
  return moved;
}

}  // namespace

TEST_CASE("models with their nodes shuffled run by their data, as stored") {
  const fs::path shared = require_shared_dir("the shuffled-order test");
  // Two light models (their branches and concatenations; the others add only planning time)
  // and the pytorch-converted ones.
  auto light = find_backend_tests(shared / "onnx-backend-tests" / "light");
  std::erase_if(light,
                [](const BackendTestCase& t) { return !light_model_in_sanitizer_slice(t.name); });
  REQUIRE(light.size() == 2);
  for (const auto& test : light) {
    CAPTURE(test.name);
    DiagSink sink;
    const Model model = load_model(test.model.string(), {}, sink);
    Session probe(model, two_threads());
    CHECK(check_shuffled(model, random_feeds(probe, 4)));
  }
  int models = 0, moved = 0;
  for (const auto& test : find_backend_tests(shared / "onnx-backend-tests" / "pytorch-converted")) {
    CAPTURE(test.name);
    DiagSink sink;
    const Model model = load_model(test.model.string(), {}, sink);
    Session probe(model, two_threads());
    REQUIRE(!test.data_sets.empty());
    moved += check_shuffled(model, data_set_feeds(probe, test.data_sets.front())) ? 1 : 0;
    ++models;
  }
  // Most are one or two nodes: the shuffle leaves those in order.
  CHECK(moved >= 5);
  std::cout << "shuffled order: 2 light models and " << models << " pytorch-converted ones ("
            << moved << " with readers moved before their producers) run as stored\n";
}
