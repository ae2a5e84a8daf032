// SPDX-License-Identifier: Apache-2.0
// MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv, Det, Einsum: zero points per row,
// column and channel, batch broadcasting, rounding half to even and saturation, a singular
// matrix, traces and diagonals, inference.
#include <doctest/doctest.h>

#include <random>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

std::string model(int opset, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + body;
}

Tensor u8(const Shape& shape, const std::vector<uint8_t>& v) {
  return Tensor::from_vector<uint8_t>(shape, v);
}
Tensor s8(const Shape& shape, const std::vector<int8_t>& v) {
  return Tensor::from_vector<int8_t>(shape, v);
}

std::vector<uint8_t> pattern_bytes(std::size_t n, unsigned seed) {
  std::vector<uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((i * 37 + seed * 101) % 251);
  return v;
}

// The 2-D convolution by its definition: x uint8 [1, C, H, W] less xz, w int8 [M, C/group, kh,
// kw] less wz[m], zero padding after the shift.
std::vector<double> conv2d_by_definition(const std::vector<uint8_t>& x, int64_t c, int64_t h,
                                         int64_t wd, uint8_t xz, const std::vector<int8_t>& w,
                                         int64_t m, int64_t kh, int64_t kw,
                                         const std::vector<int8_t>& wz, int64_t group,
                                         int64_t stride, int64_t pad, int64_t dil, int64_t oh,
                                         int64_t ow) {
  const int64_t cg = c / group, mg = m / group;
  std::vector<double> y;
  for (int64_t o = 0; o < m; ++o)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        int64_t s = 0;
        for (int64_t ci = 0; ci < cg; ++ci)
          for (int64_t a = 0; a < kh; ++a)
            for (int64_t b = 0; b < kw; ++b) {
              const int64_t ih = i * stride - pad + a * dil, iw = j * stride - pad + b * dil;
              if (ih < 0 || ih >= h || iw < 0 || iw >= wd) continue;
              const int64_t ch = o / mg * cg + ci;
              s += (int64_t{x[static_cast<std::size_t>((ch * h + ih) * wd + iw)]} - xz) *
                   (int64_t{w[static_cast<std::size_t>(((o * cg + ci) * kh + a) * kw + b)]} -
                    wz[static_cast<std::size_t>(o)]);
            }
        y.push_back(static_cast<double>(s));
      }
  return y;
}

}  // namespace

TEST_CASE("ConvInteger on the integer kernels: groups, strides, padding, dilation, per-channel") {
  // Large enough for several register tiles and k blocks (k = 40 * 3 * 3 = 360 per group).
  const int64_t c = 80, h = 13, wd = 17, m = 36, group = 2, stride = 2, pad = 2, dil = 2;
  const int64_t oh = (h + 2 * pad - dil * 2 - 1) / stride + 1;
  const int64_t ow = (wd + 2 * pad - dil * 2 - 1) / stride + 1;
  const auto x = pattern_bytes(static_cast<std::size_t>(c * h * wd), 1);
  std::vector<int8_t> w(static_cast<std::size_t>(m * c / group * 9)), wz(m);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>((i * 53 % 255) - 127);
  for (std::size_t i = 0; i < wz.size(); ++i) wz[i] = static_cast<int8_t>(i * 7 % 19 - 9);
  const std::string shape_x =
      "[1," + std::to_string(c) + "," + std::to_string(h) + "," + std::to_string(wd) + "]";
  const std::string shape_w = "[" + std::to_string(m) + "," + std::to_string(c / group) + ",3,3]";
  const std::string attrs =
      "<group = 2, strides = [2, 2], pads = [2, 2, 2, 2], dilations = [2, 2]>";
  const auto want =
      conv2d_by_definition(x, c, h, wd, 131, w, m, 3, 3, wz, group, stride, pad, dil, oh, ow);
  // One thread: column blocks; two and three: the 7x9 plane's columns made once (through the
  // padded copies, the padding holding xz), then row blocks of the filters.
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    auto out = run(model(10, "g (uint8" + shape_x + " x, int8" + shape_w + " w, uint8 xz, int8[" +
                                 std::to_string(m) + "] wz) => (int32 y) { y = ConvInteger " +
                                 attrs + " (x, w, xz, wz) }"),
                   {{"x", u8({1, c, h, wd}, x)},
                    {"w", s8({m, c / group, 3, 3}, w)},
                    {"xz", Tensor::scalar<uint8_t>(131)},
                    {"wz", s8({m}, wz)}},
                   threads);
    CHECK(out[0].tensor().shape() == Shape{1, m, oh, ow});
    CHECK(vals(out[0].tensor()) == want);
  }
  // The weights as constants: packed once at planning.
  auto listed = [](const std::vector<int8_t>& v) {
    std::string s;
    for (int8_t e : v) s += (s.empty() ? "" : ", ") + std::to_string(int{e});
    return s;
  };
  auto out =
      run(model(10, "g (uint8" + shape_x + " x, uint8 xz) => (int32 y) {\n  w = Constant " +
                        "<value = int8" + shape_w + " {" + listed(w) +
                        "}> ()\n  wz = Constant <value = int8[" + std::to_string(m) + "] {" +
                        listed(wz) + "}> ()\n  y = ConvInteger " + attrs + " (x, w, xz, wz)\n}"),
          {{"x", u8({1, c, h, wd}, x)}, {"xz", Tensor::scalar<uint8_t>(131)}});
  CHECK(vals(out[0].tensor()) == want);
}

TEST_CASE("MatMulInteger on the integer kernels: zero points that vary along the batch") {
  // A [2, 3, 70] with a zero point per batch item and row, B [70, 40] int8 per column.
  const int64_t m = 3, k = 70, n = 40;
  const auto a = pattern_bytes(static_cast<std::size_t>(2 * m * k), 3);
  std::vector<int8_t> b(static_cast<std::size_t>(k * n)), bz(n);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(i * 29 % 256 - 128);
  for (std::size_t i = 0; i < bz.size(); ++i) bz[i] = static_cast<int8_t>(i % 5 - 2);
  const std::vector<uint8_t> az = {0, 7, 255, 100, 3, 9};  // [2, 3, 1]
  auto out = run(model(10,
                       "g (uint8[2,3,70] a, int8[70,40] b, uint8[2,3,1] az, int8[40] bz) => "
                       "(int32[2,3,40] y) { y = MatMulInteger (a, b, az, bz) }"),
                 {{"a", u8({2, m, k}, a)},
                  {"b", s8({k, n}, b)},
                  {"az", u8({2, m, 1}, az)},
                  {"bz", s8({n}, bz)}});
  std::vector<double> want;
  for (int64_t it = 0; it < 2; ++it)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += (int64_t{a[static_cast<std::size_t>((it * m + i) * k + p)]} -
                az[static_cast<std::size_t>(it * m + i)]) *
               (int64_t{b[static_cast<std::size_t>(p * n + j)]} - bz[static_cast<std::size_t>(j)]);
        want.push_back(static_cast<double>(s));
      }
  CHECK(vals(out[0].tensor()) == want);
}

TEST_CASE("MatMulInteger: per-row and per-column zero points, B broadcast over A's batch") {
  auto out =
      run(model(10,
                "g (uint8[2,2,2] a, uint8[2,2] b, uint8[2] az, uint8[2] bz) => (int32[2,2,2] "
                "y) { y = MatMulInteger (a, b, az, bz) }"),
          {{"a", u8({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})},
           {"b", u8({2, 2}, {1, 4, 2, 5})},
           {"az", u8({2}, {1, 2})},
           {"bz", u8({2}, {0, 3})}});
  CHECK(out[0].tensor().dtype() == DataType::int32);
  CHECK(out[0].tensor().shape() == Shape{2, 2, 2});
  CHECK(vals(out[0].tensor()) == std::vector<double>{2, 2, 5, 5, 14, 14, 17, 17});
  // No zero points, int8 x uint8, a 1-D A.
  out = run(model(10, "g (int8[2] a, uint8[2,1] b) => (int32[1] y) { y = MatMulInteger (a, b) }"),
            {{"a", s8({2}, {-128, 127})}, {"b", u8({2, 1}, {255, 255})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{-255});
}

TEST_CASE("QLinearMatMul rounds half to even and saturates to the output type") {
  auto out =
      run(model(10,
                "g (uint8[2,2] a, float as, uint8 az, uint8[2,2] b, float bs, uint8 bz, float ys, "
                "int8 yz) => (int8[2,2] y) { y = QLinearMatMul (a, as, az, b, bs, bz, ys, yz) }"),
          {{"a", u8({2, 2}, {1, 3, 200, 250})},
           {"as", Tensor::scalar<float>(1)},
           {"az", Tensor::scalar<uint8_t>(0)},
           {"b", u8({2, 2}, {1, 0, 0, 1})},
           {"bs", Tensor::scalar<float>(1)},
           {"bz", Tensor::scalar<uint8_t>(0)},
           {"ys", Tensor::scalar<float>(2)},
           {"yz", Tensor::scalar<int8_t>(100)}});
  CHECK(out[0].tensor().dtype() == DataType::int8);
  // 0.5 -> 0 and 1.5 -> 2 (half to even), then +100; 100 + 100 and 125 + 100 saturate to 127.
  CHECK(vals(out[0].tensor()) == std::vector<double>{100, 102, 127, 127});
}

TEST_CASE("ConvInteger subtracts zero points; QLinearConv with per-channel weight scales") {
  auto out = run(model(10,
                       "g (uint8[1,1,2,2] x, uint8[1,1,1,1] w, uint8 xz, uint8 wz) => "
                       "(int32[1,1,2,2] y) { y = ConvInteger (x, w, xz, wz) }"),
                 {{"x", u8({1, 1, 2, 2}, {2, 3, 4, 5})},
                  {"w", u8({1, 1, 1, 1}, {3})},
                  {"xz", Tensor::scalar<uint8_t>(2)},
                  {"wz", Tensor::scalar<uint8_t>(1)}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{0, 2, 4, 6});
  out = run(model(10,
                  "g (uint8[1,1,1,2] x, float xs, uint8 xz, int8[2,1,1,1] w, float[2] ws, int8 wz, "
                  "float ys, uint8 yz, int32[2] b) => (uint8[1,2,1,2] y) { y = QLinearConv (x, xs, "
                  "xz, w, ws, wz, ys, yz, b) }"),
            {{"x", u8({1, 1, 1, 2}, {10, 20})},
             {"xs", Tensor::scalar<float>(1)},
             {"xz", Tensor::scalar<uint8_t>(0)},
             {"w", s8({2, 1, 1, 1}, {1, -1})},
             {"ws", f32({2}, {0.5f, 1})},
             {"wz", Tensor::scalar<int8_t>(0)},
             {"ys", Tensor::scalar<float>(1)},
             {"yz", Tensor::scalar<uint8_t>(128)},
             {"b", i32({2}, {0, 4})}});
  CHECK(out[0].tensor().shape() == Shape{1, 2, 1, 2});
  CHECK(vals(out[0].tensor()) == std::vector<double>{133, 138, 122, 112});
}

TEST_CASE("Det over a batch: singular, pivoting, 3x3") {
  auto out = run(model(11, "g (float[2,2,2] x) => (float[2] y) { y = Det (x) }"),
                 {{"x", f32({2, 2, 2}, {1, 2, 2, 4, 0, 1, 1, 0})}});
  check_close(out[0].tensor(), {2}, {0, -1});
  out = run(model(22, "g (double[3,3] x) => (double y) { y = Det (x) }"),
            {{"x", f64({3, 3}, {0, 2, 1, 3, 0, 0, 1, 1, 4})}});
  check_close(out[0].tensor(), {}, {-21});
}

TEST_CASE("Einsum: trace, diagonal over an ellipsis batch, implicit matmul, integers") {
  auto out = run(model(12, "g (float[3,3] x) => (float y) { y = Einsum <equation = \"ii\"> (x) }"),
                 {{"x", f32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}});
  check_close(out[0].tensor(), {}, {15});
  out = run(model(12,
                  "g (float[2,2,2] x) => (float[2,2] y) { y = Einsum <equation = \"...ii->...i\"> "
                  "(x) }"),
            {{"x", f32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}});
  check_close(out[0].tensor(), {2, 2}, {1, 4, 5, 8});
  out = run(model(12,
                  "g (int64[2,3] a, int64[3] b) => (int64[2] y) { y = Einsum <equation = \"ij,j\"> "
                  "(a, b) }"),
            {{"a", i64({2, 3}, {1, 2, 3, 4, 5, 6})}, {"b", i64({3}, {1, 0, -1})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{-2, -2});
}

// Two float32 operands whose labels each appear once go through matrix products (transposed
// reads or permuted copies of the operands, a permuted result): the values of the loop (float64
// operands, which take it) within float rounding, the same bits on one thread and two; and the
// equations left to the loop (a trace, a broadcast ellipsis, a label summed within one operand).
TEST_CASE("Einsum of two float operands as matrix products agrees with the loop") {
  struct Case {
    const char* equation;
    Shape a, b, y;
  };
  const Case cases[] = {
      {"bhid,bhjd->bhij", {2, 3, 5, 4}, {2, 3, 6, 4}, {2, 3, 5, 6}},
      {"bhij,bhjd->bhid", {2, 3, 5, 6}, {2, 3, 6, 4}, {2, 3, 5, 4}},
      {"ij,jk->ik", {7, 5}, {5, 9}, {7, 9}},
      {"ji,jk->ik", {5, 7}, {5, 9}, {7, 9}},
      {"bid,bjd->bji", {3, 5, 4}, {3, 6, 4}, {3, 6, 5}},
      {"abc,cd->abd", {2, 3, 4}, {4, 5}, {2, 3, 5}},
      {"bn,anm->bam", {3, 4}, {2, 4, 5}, {3, 2, 5}},
      {"ij,j->i", {6, 8}, {8}, {6}},
      {"i,i->", {9}, {9}, {}},
      {"ij,ij->i", {4, 7}, {4, 7}, {4}},
      {"ij,ij->ij", {4, 7}, {4, 7}, {4, 7}},
      {"...ij,...jk->...ik", {2, 3, 4}, {1, 4, 5}, {2, 3, 5}},  // broadcast: the loop
      {"ij,jk->i", {3, 4}, {4, 5}, {3}},                        // k summed within B: the loop
  };
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> dist(-1, 1);
  auto random_values = [&](const Shape& shape) {
    std::size_t n = 1;
    for (int64_t d : shape) n *= static_cast<std::size_t>(d);
    std::vector<double> v(n);
    for (double& e : v) e = static_cast<float>(dist(rng));  // exact in float too
    return v;
  };
  auto floats = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
  for (const Case& c : cases) {
    CAPTURE(c.equation);
    const std::vector<double> av = random_values(c.a), bv = random_values(c.b);
    auto text = [&](const char* type) {
      auto dims = [](const Shape& s) {
        std::string t = "[";
        for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
        return t + "]";
      };
      return std::string("g (") + type + dims(c.a) + " a, " + type + dims(c.b) + " b) => (" + type +
             dims(c.y) + " y) { y = Einsum <equation = \"" + c.equation + "\"> (a, b) }";
    };
    const auto loop = run(model(12, text("double")), {{"a", f64(c.a, av)}, {"b", f64(c.b, bv)}});
    const Feeds feeds = {{"a", f32(c.a, floats(av))}, {"b", f32(c.b, floats(bv))}};
    const auto two = run(model(12, text("float")), feeds);
    const auto one = run(model(12, text("float")), feeds, 1);
    check_close(two[0].tensor(), c.y, vals(loop[0].tensor()), 1e-5);
    CHECK(vals(one[0].tensor()) == vals(two[0].tensor()));
  }
}

TEST_CASE("inference of the integer ops, Det and Einsum") {
  auto t = infer(model(10,
                       "g (uint8[N,4,3] a, int8[3,5] b) => (int32[N,4,5] y) { m = MatMulInteger "
                       "(a, b)\n y = Identity (m) }"));
  CHECK(t.at("m") == "int32[N,4,5]");
  t = infer(model(22, "g (float[N,3,3] x) => (float[N] y) { d = Det (x)\n y = Identity (d) }"));
  CHECK(t.at("d") == "float[N]");
  t = infer(model(12,
                  "g (float[B,2,3] a, float[3,4] b) => (float[B,2,4] y) { e = Einsum <equation = "
                  "\"...ij,jk\"> (a, b)\n y = Identity (e) }"));
  CHECK(t.at("e") == "float[B,2,4]");
  t = infer(model(10,
                  "g (uint8[1,2,5,5] x, uint8[3,2,3,3] w) => (int32[1,3,5,5] y) { c = ConvInteger "
                  "<pads = [1, 1, 1, 1]> (x, w)\n y = Identity (c) }"));
  CHECK(t.at("c") == "int32[1,3,5,5]");
}
