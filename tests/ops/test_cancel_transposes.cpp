// SPDX-License-Identifier: Apache-2.0
// cancel-transposes (core/exec/passes/cancel_transposes.h): pairs of permutations that undo
// each other go, others merge into one, the first stays while something else reads it, and
// the outputs are those of the graph as written.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/diag/error.h"
#include "core/exec/session.h"
#include "core/model/model.h"
#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;

namespace {

void check_same(const FusedRuns& r) {
  REQUIRE(r.fused.size() == r.unfused.size());
  for (std::size_t i = 0; i < r.fused.size(); ++i) {
    INFO("output ", i);
    CHECK(r.fused[i].tensor().shape() == r.unfused[i].tensor().shape());
    CHECK(values(r.fused[i].tensor()) == values(r.unfused[i].tensor()));
    CHECK(values(r.fused_one_thread[i].tensor()) == values(r.unfused[i].tensor()));
  }
}

FusedRuns run(const char* text, const Shape& x_shape) {
  return run_fused_and_plain(model_of(text, {}),
                             {{"x", Value(random_tensor(DataType::float32, x_shape, 3))}});
}

}  // namespace

TEST_CASE("NHWC -> NCHW -> NHWC: both transposes go, the reader reads the input") {
  const FusedRuns r = run(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,3,4,5] x) => (float[1,3,4,5] y) {
  a = Transpose <perm = [0, 2, 3, 1]> (x)
  b = Transpose <perm = [0, 3, 1, 2]> (a)
  y = Neg (b)
})",
                          {1, 3, 4, 5});
  CHECK(r.unfused_nodes == 3);
  CHECK(r.fused_nodes == 1);
  check_same(r);
}

TEST_CASE("two permutations that do not undo each other become one") {
  const FusedRuns r = run(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3,4] x) => (float[3,4,2] y) {
  a = Transpose <perm = [1, 0, 2]> (x)
  y = Transpose <perm = [0, 2, 1]> (a)
})",
                          {2, 3, 4});
  CHECK(r.unfused_nodes == 2);
  CHECK(r.fused_nodes == 1);
  check_same(r);
}

TEST_CASE("the default permutation (axes reversed) twice, and one that changes nothing") {
  const FusedRuns r = run(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3,4] x) => (float[2,3,4] y) {
  a = Transpose (x)
  b = Transpose (a)
  c = Transpose <perm = [0, 1, 2]> (b)
  y = Neg (c)
})",
                          {2, 3, 4});
  CHECK(r.unfused_nodes == 4);
  CHECK(r.fused_nodes == 1);
  check_same(r);
}

TEST_CASE("a first transpose that something else reads stays; a graph output keeps its node") {
  // a is a graph output: its Transpose stays, and b's reads x directly. y's node must keep
  // making y, so it stays too, permuting x by the composed (identity) permutation.
  const FusedRuns r = run(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,3,4,5] x) => (float[1,4,5,3] a, float[1,3,4,5] y, float[1,3,4,5] z) {
  a = Transpose <perm = [0, 2, 3, 1]> (x)
  y = Transpose <perm = [0, 3, 1, 2]> (a)
  b = Transpose <perm = [0, 3, 1, 2]> (a)
  z = Neg (b)
})",
                          {1, 3, 4, 5});
  CHECK(r.unfused_nodes == 4);
  CHECK(r.fused_nodes == 3);  // a's Transpose, y's (reading x), z's Neg (reading x)
  check_same(r);
}

TEST_CASE("an invalid permutation is left to the kernel, which reports it") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3,4] x) => (float[2,3,4] y) {
  a = Transpose <perm = [0, 0, 1]> (x)
  y = Transpose <perm = [0, 2, 1]> (a)
})";
  SessionOptions o;
  o.threads = 2;
  const Model m = model_of(text, {});
  std::string message;
  try {
    Session s(m, o);
    s.run({{"x", Value(random_tensor(DataType::float32, {2, 3, 4}, 1))}});
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK(message.find("perm is not a permutation") != std::string::npos);
}
