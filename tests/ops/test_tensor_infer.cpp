// SPDX-License-Identifier: Apache-2.0
// Type and shape inference of the tensor operators through the real engine: symbolic dims
// carried and combined (N, N*3, N-1), and integer values propagated through shape
// computations (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, Slice of a shape, Range of
// constants) so that Reshape, Expand, Tile and ConstantOfShape get known or symbolic dims.
#include <doctest/doctest.h>

#include "tests/ops/test_tensor_support.h"

using namespace onnxtool;
using namespace onnxtool::tensor_test;

namespace {
bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("Shape -> Gather -> Unsqueeze -> Concat -> Reshape keeps the batch symbol") {
  const Inferred r = infer(R"(
g (float[N,3,4] x) => (y) {
  s = Shape (x)
  zero = Constant <value = int64 {0}> ()
  n = Gather (s, zero)
  axes = Constant <value = int64[1] {0}> ()
  u = Unsqueeze (n, axes)
  rest = Constant <value = int64[1] {-1}> ()
  c = Concat <axis = 0> (u, rest)
  y = Reshape (x, c)
}
)",
                           21);
  CHECK(r.messages() == "");
  CHECK(r.values("s") == "[N,3,4]");
  CHECK(r.type("n") == "int64");
  CHECK(r.values("n") == "[N]");
  CHECK(r.values("u") == "[N]");
  CHECK(r.values("c") == "[N,-1]");
  CHECK(r.type("y") == "float[N,12]");
}

TEST_CASE("a chain through a symbolic dim gives N*3; slices of shapes and Flatten stay symbolic") {
  const Inferred r = infer(R"(
g (float[N,3] x, float[B,10,W] z) => (y, f, t, sl, sq) {
  m1 = Constant <value = int64[1] {-1}> ()
  y = Reshape (x, m1)
  f = Flatten <axis = 0> (x)
  s = Shape (z)
  st = Constant <value = int64[1] {1}> ()
  en = Constant <value = int64[1] {9223372036854775807}> ()
  tail = Slice (s, st, en)
  t = Reshape (z, tail)
  sl = Slice (z, st, en, st)
  ax = Constant <value = int64[1] {0}> ()
  g0 = Gather (s, ax)
  sq = Squeeze (g0, ax)
}
)",
                           21);
  CHECK(r.messages() == "");
  CHECK(r.type("y") == "float[\"N*3\"]");
  CHECK(r.type("f") == "float[1,\"N*3\"]");
  CHECK(r.values("tail") == "[10,W]");
  CHECK(r.type("t") == "float[10,W]");
  CHECK(r.type("sl") == "float[B,9,W]");
  CHECK(r.type("sq") == "int64");
  CHECK(r.values("sq") == "[B]");
}

TEST_CASE("Expand, Tile and ConstantOfShape take shapes from propagated values") {
  const Inferred r = infer(R"(
g (float[N,3,4] x, float[1] one, float[N,2] p) => (e, t, c, rg) {
  s = Shape (x)
  e = Expand (one, s)
  reps = Constant <value = int64[2] {3, 1}> ()
  t = Tile (p, reps)
  c = ConstantOfShape (s)
  a = Constant <value = int64 {0}> ()
  b = Constant <value = int64 {5}> ()
  d = Constant <value = int64 {1}> ()
  rg = Range (a, b, d)
}
)",
                           21);
  CHECK(r.messages() == "");
  CHECK(r.type("e") == "float[N,3,4]");
  CHECK(r.type("t") == "float[\"N*3\",2]");
  CHECK(r.type("c") == "float[N,3,4]");
  CHECK(r.type("rg") == "int64[5]");
  CHECK(r.values("rg") == "[0,1,2,3,4]");
}

TEST_CASE("layout operators keep symbols: Transpose, Concat, Split, Pad, Resize, DepthToSpace") {
  const Inferred r = infer(R"(
g (float[N,C,H,W] x, float[N,8,H,W] d, float[N,6] v) => (tr, cc, s0, s1, pd, rs, dts, gt, nz) {
  tr = Transpose <perm = [0, 2, 3, 1]> (x)
  cc = Concat <axis = 1> (x, x)
  s0, s1 = Split <axis = 1, num_outputs = 2> (v)
  pads = Constant <value = int64[4] {1, 0, 1, 2}> ()
  pd = Pad (v, pads)
  scales = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()
  rs = Resize <mode = "nearest"> (x, , scales)
  dts = DepthToSpace <blocksize = 2> (d)
  idx = Constant <value = int64[2,3] {0, 1, 2, 3, 4, 5}> ()
  gt = Gather <axis = 1> (v, idx)
  nz = NonZero (v)
}
)",
                           21);
  CHECK(r.messages() == "");
  CHECK(r.type("tr") == "float[N,H,W,C]");
  CHECK(r.type("cc") == "float[N,\"C*2\",H,W]");
  CHECK(r.type("s0") == "float[N,3]");
  CHECK(r.type("pd") == "float[\"N+2\",8]");
  CHECK(r.type("rs") == "float[N,C,\"H*2\",\"W*2\"]");
  CHECK(r.type("dts") == "float[N,2,\"H*2\",\"W*2\"]");
  CHECK(r.type("gt") == "float[N,2,3]");
  CHECK(r.type("nz") == "int64[2,?]");
}

TEST_CASE("versions: attribute axes and split (11), Slice-1 and Reshape-1 attributes (opset 4)") {
  const Inferred r = infer(R"(
g (float[N,3] x) => (u, q, a, b) {
  u = Unsqueeze <axes = [0, -1]> (x)
  q = Squeeze <axes = [0]> (u)
  a, b = Split <axis = 1, split = [1, 2]> (x)
}
)",
                           11);
  CHECK(r.messages() == "");
  CHECK(r.type("u") == "float[1,N,3,1]");
  CHECK(r.type("q") == "float[N,3,1]");
  CHECK(r.type("b") == "float[N,2]");
  const Inferred old = infer(R"(
g (float[N,3] x) => (sl, rs, cc) {
  sl = Slice <starts = [1], ends = [3], axes = [1]> (x)
  rs = Reshape <shape = [3, -1]> (x)
  cc = Concat <axis = 1> (x, x)
}
)",
                             4);
  CHECK(old.messages() == "");
  CHECK(old.type("sl") == "float[N,2]");
  CHECK(old.type("rs") == "float[3,N]");
  CHECK(old.type("cc") == "float[N,6]");
}

TEST_CASE("contradictions are reported at the node") {
  const Inferred r = infer(R"(
g (float[2,3] x) => (y, z, w) {
  s = Shape (x)
  i = Constant <value = int64[1] {5}> ()
  y = Gather (s, i)
  t = Constant <value = int64[1] {4}> ()
  z = Reshape (x, t)
  w = Squeeze <axes = [0]> (x)
}
)",
                           11);
  CHECK(has(r.messages(), "out of range"));
  CHECK(has(r.messages(), "cannot reshape [2,3] (6 elements) to [4]"));
  CHECK(has(r.messages(), "cannot squeeze axis 0"));
}

TEST_CASE("unknown values give the right rank with unknown dims and an explanation") {
  const Inferred r = infer(R"(
g (float[N,3] x, int64[2] shp, int64[1] k) => (y, t, tk) {
  y = Reshape (x, shp)
  t = Tile (x, shp)
  tk, ti = TopK (x, k)
}
)",
                           21);
  CHECK(r.type("y") == "float[?,?]");
  CHECK(r.type("t") == "float[?,?]");
  CHECK(r.type("tk") == "float[N,?]");
  CHECK(r.type("ti") == "int64[N,?]");
}
