// SPDX-License-Identifier: Apache-2.0
// Every model of the ONNX backend suite goes through the editable graph (ir::ModelGraph), built
// from the proto (from_proto) and as a view of it (view), and back, unedited, and must come back
// exactly: equal field for field (MessageDifferencer, floats
// by bits, unknown fields included) and the same bytes when serialized deterministically. The
// suite's graphs are all in topological order, which the graph's own order check must agree with
// (subgraph captures included), and sorting them must move nothing.
#include <doctest/doctest.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include "core/diag/error.h"
#include "core/ir/graph.h"
#include "onnx.pb.h"
#include "tests/support/support.h"
#include "tests/unit/test_text_support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

// Whether the main graph and every subgraph are seen as sorted, and toposort keeps their order.
bool sorted_and_stable(ir::Graph& g) {
  const std::vector<ir::Node*> before = g.node_list();
  if (!g.is_topologically_sorted() || !g.toposort() || g.node_list() != before) return false;
  for (ir::Node* n : before)
    for (const auto& sub : n->subgraphs())
      if (!sorted_and_stable(*sub.graph)) return false;
  return true;
}

bool sorted_and_stable(const ir::ModelGraph& m) {
  return !m.graph() || sorted_and_stable(*m.graph());
}

}  // namespace

TEST_CASE("every backend model round-trips through the editable graph exactly") {
  const fs::path shared = require_shared_dir("round trip of the backend models through ir::Graph");
  const auto models = backend_models(shared);
  REQUIRE(models.size() > 1500);
  int equal = 0, with_problems = 0, sorted = 0;
  std::vector<std::string> failures;
  double graph_ms = 0;
  for (const auto& path : models) {
    const std::string name = fs::relative(path, shared).string();
    onnx::ModelProto original;
    REQUIRE_MESSAGE(original.ParseFromString(read_file(path)), name);
    try {
      const auto t0 = std::chrono::steady_clock::now();
      ir::ModelGraph graph = ir::ModelGraph::from_proto(original);
      const onnx::ModelProto back = graph.to_proto();
      graph_ms += ms_since(t0);
      if (!graph.problems().empty()) ++with_problems;
      if (sorted_and_stable(graph))
        ++sorted;
      else
        failures.push_back(name + ": not seen as topologically sorted, or sorting moved nodes");
      const auto stored = std::make_shared<const onnx::ModelProto>(original);
      const onnx::ModelProto viewed_back = ir::ModelGraph::view(stored).to_proto();
      std::string diff;
      if (!exactly_equal(original, back, &diff))
        failures.push_back(name + ": " + diff.substr(0, 400));
      else if (deterministic_bytes(original) != deterministic_bytes(back))
        failures.push_back(name + ": equal messages, different bytes");
      else if (!exactly_equal(original, viewed_back, &diff))
        failures.push_back(name + " (view): " + diff.substr(0, 400));
      else if (deterministic_bytes(original) != deterministic_bytes(viewed_back))
        failures.push_back(name + " (view): equal messages, different bytes");
      else
        ++equal;
    } catch (const Error& e) {
      failures.push_back(name + ": " + e.what());
    }
  }
  std::cout << "graph round trip of " << models.size() << " backend models: " << equal
            << " exact from the proto and as a view (" << static_cast<int>(graph_ms)
            << " ms in from_proto + to_proto; " << with_problems
            << " models with structural problems reported); " << sorted
            << " found topologically sorted\n";
  for (std::size_t i = 0; i < failures.size() && i < 20; ++i) MESSAGE(failures[i]);
  CHECK(failures.empty());
  CHECK(equal == static_cast<int>(models.size()));
  CHECK(sorted == static_cast<int>(models.size()));
}
