// SPDX-License-Identifier: Apache-2.0
// Shape inference held against what the executor computes, value by value: every node test and
// every pytorch-*, simple and light model runs as written (unfolded, unfused, one thread) on its
// first data set, with an observer that meets every value the main graph and its subgraphs
// produce; each value's runtime element type, rank and dims must agree with what inference said
// of it (an element type or dim inference left open agrees with anything). A contradiction is a
// bug in one of the two. Tests that do not run (their manifest xfails) are skipped and counted.
#include <doctest/doctest.h>

#include <iostream>
#include <map>
#include <string>

#include "core/exec/backend_test.h"
#include "core/exec/session.h"
#include "core/infer/engine.h"
#include "core/ir/location.h"
#include "core/model/model.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

// Why the runtime value contradicts the inferred type, or "".
std::string contradiction(const Type& inferred, const Tensor& t) {
  if (!inferred.is_tensor()) return "";
  if (inferred.elem != 0 && inferred.elem != static_cast<int32_t>(t.dtype()))
    return "element type: inferred " + inferred.to_string() + ", ran " +
           std::string(type_name(t.dtype()));
  if (!inferred.shape) return "";
  const Dims& dims = *inferred.shape;
  if (static_cast<int64_t>(dims.size()) != t.rank())
    return "rank: inferred " + inferred.to_string() + ", ran " + shape_to_string(t.shape());
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i].is_known() && dims[i].value() != t.shape()[i])
      return "dim " + std::to_string(i) + ": inferred " + inferred.to_string() + ", ran " +
             shape_to_string(t.shape());
  return "";
}

struct Tally {
  int models = 0, skipped = 0, values = 0;
  std::vector<std::string> contradictions;
};

// The graph inference knew by the observer's name for it ("" is the main graph).
const GraphResult* graph_named(const InferResult& r, const std::string& prefix) {
  const std::string want = prefix.empty() ? kMainGraphPrefix : prefix;
  for (const auto& g : r.graphs)
    if (g.prefix == want) return &g;
  return nullptr;
}

void check_model(const BackendTestCase& test, Tally& tally) {
  DiagSink sink;
  const Model model = load_model(test.model.string(), {}, sink);
  DiagSink infer_sink;
  const InferResult inferred = infer_model(model, {}, infer_sink);
  SessionOptions o;
  o.threads = 1;
  o.fold_constants = false;
  o.fuse = false;
  std::vector<std::string> found;
  int values = 0;
  const ValueObserver observer = [&](const ProducedValue& v) {
    if (v.node.empty() || !v.value.is_tensor()) return;  // fed inputs; sequences and maps
    const GraphResult* g = graph_named(inferred, v.graph);
    const ValueRecord* r = g ? g->find(v.name) : nullptr;
    if (!r) return;
    ++values;
    const std::string why = contradiction(r->type, v.value.tensor());
    if (!why.empty()) found.push_back(test.name + ": " + v.graph + v.name + " " + why);
  };
  try {
    Session session(model, o);
    if (test.data_sets.empty()) return;
    session.run(backend_feeds(session, test.data_sets.front()), &observer);
  } catch (const Error&) {
    ++tally.skipped;  // what the manifests list as failing to run
    return;
  }
  ++tally.models;
  tally.values += values;
  for (auto& f : found) tally.contradictions.push_back(std::move(f));
}

void check_folder(const fs::path& root, const char* folder, Tally& tally) {
  auto tests = find_backend_tests(root / folder);
  if (std::string(folder) == "light")
    std::erase_if(tests, [](const BackendTestCase& t) {
      return test::kSanitized && !test::light_model_in_sanitizer_slice(t.name);
    });
  for (const auto& t : tests) check_model(t, tally);
}

}  // namespace

TEST_CASE("shape inference agrees with every value the executor computes") {
  const fs::path root =
      test::require_shared_dir("the inference soundness test") / "onnx-backend-tests";
  Tally tally;
  for (const char* folder : {"node", "pytorch-converted", "pytorch-operator", "simple", "light"})
    check_folder(root, folder, tally);
  for (const auto& c : tally.contradictions) MESSAGE(c);
  CHECK(tally.contradictions.empty());
  CHECK(tally.models > 1300);
  std::cout << "inference against runtime: " << tally.values << " values of " << tally.models
            << " models agree (" << tally.skipped << " models do not run), "
            << tally.contradictions.size() << " contradictions\n";
}
