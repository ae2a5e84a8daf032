// SPDX-License-Identifier: Apache-2.0
// Operators that turn data into positions (DeformConv's offsets, GridSample's grid, the rois of
// RoiAlign and MaxRoiPool, Resize and Upsample scales) given NaN, infinities and values far past
// any image: each gives a defined answer or a clean error, never a float-to-integer conversion
// out of range (UBSan's "inf is outside the range of representable values", which the executor
// fuzzer found in DeformConv). The sanitizer build runs these under UBSan.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::string model(int opset, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + body;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("DeformConv: a NaN offset gives NaN, an infinite or huge one samples zeros") {
  // One 1x1 kernel tap over a 1x1x2x2 input: y = x sampled at (i + dy, j + dx).
  const std::string m = model(19,
                              "g (float[1,1,2,2] x, float[1,1,1,1] w, float[1,2,2,2] off) "
                              "=> (float[1,1,2,2] y) { y = DeformConv <kernel_shape = [1, 1]> "
                              "(x, w, off) }");
  const Tensor x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor w = f32({1, 1, 1, 1}, {1});
  // Offsets: channel 0 is dy, channel 1 is dx, per output position.
  const Tensor off = f32({1, 2, 2, 2}, {static_cast<float>(kNaN), static_cast<float>(kInf),
                                        -static_cast<float>(kInf), 3e38f, 0, 0, 0, 0.5f});
  const auto out = run(m, {{"x", Value(x)}, {"w", Value(w)}, {"off", Value(off)}});
  check_close(out[0].tensor(), {1, 1, 2, 2}, {kNaN, 0, 0, 0});

  // A whole pixel up from row 0 reads zeros; half a pixel past the last column blends with
  // zero; a whole pixel right moves onto the neighbour.
  const Tensor near = f32({1, 2, 2, 2}, {-1, 0, 0, 0, 0, 0.5f, 1, 0});
  const auto blend = run(m, {{"x", Value(x)}, {"w", Value(w)}, {"off", Value(near)}});
  check_close(blend[0].tensor(), {1, 1, 2, 2}, {0, 1, 4, 4});
}

TEST_CASE("GridSample: NaN, infinite and huge grid coordinates, in every padding mode") {
  const Tensor x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor grid = f32({1, 1, 4, 2}, {static_cast<float>(kNaN), 0, static_cast<float>(kInf), 0,
                                         -3e38f, 0, 1e30f, -1});
  for (const char* mode : {"nearest", "linear", "cubic"})
    for (const char* pad : {"zeros", "border", "reflection"}) {
      INFO(mode << " " << pad);
      const auto out =
          run(model(20, std::string("g (float[1,1,2,2] x, float[1,1,4,2] grid) => (float[1,1,1,4] "
                                    "y) { y = GridSample <mode = \"") +
                            mode + "\", padding_mode = \"" + pad + "\"> (x, grid) }"),
              {{"x", Value(x)}, {"grid", Value(grid)}});
      const std::vector<double> y = vals(out[0].tensor());
      REQUIRE(y.size() == 4);
      CHECK(y[0] == 0);  // NaN samples nothing
      if (std::string(pad) == "zeros") {
        CHECK(y[1] == 0);
        CHECK(y[2] == 0);
        CHECK(y[3] == 0);
      }
      if (std::string(pad) == "border" && std::string(mode) == "nearest") {
        CHECK(y[1] == 2);  // x = +inf clamps to the last column of row 0
        CHECK(y[2] == 1);  // x = -3e38 clamps to the first
        CHECK(y[3] == 2);
      }
      for (double v : y) CHECK(std::isfinite(v));
    }
}

TEST_CASE("GridSample reflection of a far coordinate lands where repeated reflection would") {
  // Width 3, align_corners: borders 0 and 2, period 4. x = 2 + 4k + 1 reflects to 1.
  const Tensor x = f32({1, 1, 1, 3}, {10, 20, 30});
  // Normalised n maps to x = (n + 1) / 2 * 2 = n + 1.
  const Tensor grid = f32({1, 1, 2, 2}, {4e6f + 2, 0, -4e6f, 0});
  const auto out = run(model(20,
                             "g (float[1,1,1,3] x, float[1,1,2,2] grid) => (float[1,1,1,2] y) { y "
                             "= GridSample <mode = \"nearest\", padding_mode = \"reflection\", "
                             "align_corners = 1> (x, grid) }"),
                       {{"x", Value(x)}, {"grid", Value(grid)}});
  // x = 4e6 + 3 = 2 + 4e6 + 1 -> 1; x = -4e6 + 1 = 0 - (4e6 - 1) -> distance 4e6-1 = 3 mod 4 -> 1.
  check_close(out[0].tensor(), {1, 1, 1, 2}, {20, 20});
}

TEST_CASE("RoiAlign: NaN rois sample nothing; a roi needing billions of samples is refused") {
  const std::string m = model(16,
                              "g (float[1,1,4,4] x, float[1,4] rois, int64[1] idx) => "
                              "(float[1,1,2,2] y) { y = RoiAlign <output_height = 2, "
                              "output_width = 2> (x, rois, idx) }");
  const Tensor x = f32({1, 1, 4, 4}, std::vector<float>(16, 1.0f));
  const Tensor idx = i64({1}, {0});
  const auto out = run(m, {{"x", Value(x)},
                           {"rois", Value(f32({1, 4}, {static_cast<float>(kNaN), 0, 2, 2}))},
                           {"idx", Value(idx)}});
  for (double v : vals(out[0].tensor())) CHECK(v == 0);
  const std::string err = run_error(
      m,
      {{"x", Value(x)}, {"rois", Value(f32({1, 4}, {0, 0, 1e30f, 1e30f}))}, {"idx", Value(idx)}});
  CHECK(contains(err, "give sampling_ratio"));
}

TEST_CASE("MaxRoiPool: NaN batch ids and coordinates past 2^52 are refused by name") {
  const std::string m = model(16,
                              "g (float[1,1,4,4] x, float[1,5] rois) => (float[1,1,2,2] y) { y = "
                              "MaxRoiPool <pooled_shape = [2, 2]> (x, rois) }");
  const Tensor x = f32({1, 1, 4, 4}, std::vector<float>(16, 1.0f));
  CHECK(
      contains(run_error(m, {{"x", Value(x)},
                             {"rois", Value(f32({1, 5}, {static_cast<float>(kNaN), 0, 0, 1, 1}))}}),
               "batch id"));
  CHECK(contains(run_error(m, {{"x", Value(x)}, {"rois", Value(f32({1, 5}, {0, 0, 0, 1e30f, 1}))}}),
                 "beyond any image"));
  CHECK(
      contains(run_error(m, {{"x", Value(x)},
                             {"rois", Value(f32({1, 5}, {0, static_cast<float>(kInf), 0, 1, 1}))}}),
               "beyond any image"));
}

TEST_CASE("Resize and Upsample: a scale whose output no tensor could hold is refused") {
  const Tensor x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor huge = f32({4}, {1, 1, 1e30f, 1});
  CHECK(contains(run_error(model(13,
                                 "g (float[1,1,2,2] x, float[4] s) => (float[] y) { y = Resize "
                                 "(x, , s) }"),
                           {{"x", Value(x)}, {"s", Value(huge)}}),
                 "too large"));
  CHECK(contains(run_error(model(9,
                                 "g (float[1,1,2,2] x, float[4] s) => (float[] y) { y = Upsample "
                                 "(x, s) }"),
                           {{"x", Value(x)}, {"s", Value(huge)}}),
                 "too large"));
}
