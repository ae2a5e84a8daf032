// SPDX-License-Identifier: Apache-2.0
// `info --cost`: per-node MACs and FLOPs, parameters, bytes, the peak of live activations, and
// symbolic dims counted once --dim binds them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/support/cli_run.h"
#include "tests/support/support.h"

using namespace onnxtool::test;

namespace {

// x[N,4] . w[4,2] -> Relu: 8N MACs, then 2N element-wise operations.
const char* kSmall = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[N,4] x) => (float[N,2] y)
<float[4,2] w = {1, 2, 3, 4, 5, 6, 7, 8}>
{
  [mm] m = MatMul (x, w)
  [act] y = Relu (m)
}
)";

}  // namespace

TEST_CASE("info --cost counts a bound model exactly and says what it cannot count") {
  TempDir dir;
  const std::string model = (dir / "m.onnxtxt").string();
  write_file(model, kSmall);
  auto r = run_cli({"--json", "info", "--cost", model, "--dim", "N=3"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  auto c = nlohmann::json::parse(r.out)["cost"];
  CHECK(c["macs"] == 24.0);
  CHECK(c["flops"] == 2 * 24.0 + 6);
  CHECK(c["params"] == 8);
  CHECK(c["param_bytes"] == 32);
  CHECK(c["unknown_nodes"] == 0);
  REQUIRE(c["nodes"].size() == 2);
  CHECK(c["nodes"][0]["bytes_read"] == 48 + 32);
  CHECK(c["nodes"][0]["bytes_written"] == 24);
  CHECK(c["by_op"]["MatMul"]["macs"] == 24.0);
  CHECK(c["by_op"]["Relu"]["flops"] == 6.0);
  // x (48 B) and m (24 B) are live together after the MatMul; then x is freed.
  CHECK(c["peak_bytes"] == 72);
  CHECK(c["peak_after"] == "graph.node[0] \"mm\" (MatMul)");
  CHECK(c["activation_bytes"] == 48);

  // Unbound, N is unknown: nothing is counted for either node, and the text says so.
  r = run_cli({"info", "--cost", model});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("2 nodes with shapes inference cannot tell are not counted") !=
        std::string::npos);
  r = run_cli({"info", "--cost", model, "--input-shape", "x=5,4"});
  CHECK(r.out.find("MACs           40  (FLOPs 90)") != std::string::npos);
}

TEST_CASE("info --cost: recurrent networks and attention declare their products") {
  TempDir dir;
  const std::string model = (dir / "m.onnxtxt").string();
  // 2 steps x 1 row x (|W| 24 + |R| 16); Attention: (|Q| 192 + |Y| 192) x 6 keys.
  write_file(model, R"(
<ir_version: 10, opset_import: ["" : 23]>
g (float[2,1,3] x, float[1,8,3] w, float[1,8,2] r, float[2,3,4,8] q, float[2,3,6,8] k,
   float[2,3,6,8] v) => (float[2,1,1,2] y, float[2,3,4,8] a) {
  y = LSTM <hidden_size = 2> (x, w, r)
  a = Attention (q, k, v)
}
)");
  const auto r = run_cli({"--json", "info", "--cost", model});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto c = nlohmann::json::parse(r.out)["cost"];
  CHECK(c["by_op"]["LSTM"]["macs"] == 80.0);
  CHECK(c["by_op"]["Attention"]["macs"] == 2304.0);
}

TEST_CASE("info --cost: pools, reductions, normalisations and softmax count their FLOPs") {
  TempDir dir;
  const std::string model = (dir / "m.onnxtxt").string();
  // x: 1x2x4x4 = 32 elements. MaxPool 2x2 stride 2: 8 outputs x 4; ReduceSum: 32; Softmax:
  // 3 x 32; BatchNormalization: 2 x 32; Relu: one per output, 32.
  write_file(model, R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1,2,4,4] x, float[2] s, float[2] b, float[2] m, float[2] v)
  => (float[1,2,2,2] p, float[1,1,1,1] r, float[1,2,4,4] sm, float[1,2,4,4] bn, float[1,2,4,4] re) {
  p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)
  r = ReduceSum <keepdims = 1> (x)
  sm = Softmax (x)
  bn = BatchNormalization (x, s, b, m, v)
  re = Relu (x)
}
)");
  const auto r = run_cli({"--json", "info", "--cost", model});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto by = nlohmann::json::parse(r.out)["cost"]["by_op"];
  CHECK(by["MaxPool"]["flops"] == 32.0);
  CHECK(by["ReduceSum"]["flops"] == 32.0);
  CHECK(by["Softmax"]["flops"] == 96.0);
  CHECK(by["BatchNormalization"]["flops"] == 64.0);
  CHECK(by["Relu"]["flops"] == 32.0);
  CHECK(by["MaxPool"]["macs"] == 0.0);
}
