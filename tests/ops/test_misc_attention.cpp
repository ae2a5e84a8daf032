// SPDX-License-Identifier: Apache-2.0
// Attention, RotaryEmbedding and FlexAttention against plain reference loops: head layouts,
// grouped-query heads, masks, causal alignment with a cache, softcap, the qk output modes,
// double precision, errors, and inference.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

std::vector<double> random_values(std::size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

std::vector<float> as_float(const std::vector<double>& v) {
  return {v.begin(), v.end()};
}

// Reference attention on (B, H, S, D) layouts; mask[i][j] additive (B/H-independent), causal
// with offset `past`.
std::vector<double> reference(const std::vector<double>& q, const std::vector<double>& k,
                              const std::vector<double>& v, int64_t b, int64_t hq, int64_t hkv,
                              int64_t sq, int64_t skv, int64_t d, int64_t dv, bool causal,
                              const std::vector<double>& mask = {}, double softcap = 0) {
  std::vector<double> y(static_cast<std::size_t>(b * hq * sq * dv));
  const double scale = 1 / std::sqrt(static_cast<double>(d));
  for (int64_t ib = 0; ib < b; ++ib)
    for (int64_t h = 0; h < hq; ++h) {
      const int64_t kh = h / (hq / hkv);
      for (int64_t i = 0; i < sq; ++i) {
        std::vector<double> s(static_cast<std::size_t>(skv));
        double m = -INFINITY;
        for (int64_t j = 0; j < skv; ++j) {
          double acc = 0;
          for (int64_t e = 0; e < d; ++e)
            acc += q[static_cast<std::size_t>(((ib * hq + h) * sq + i) * d + e)] *
                   k[static_cast<std::size_t>(((ib * hkv + kh) * skv + j) * d + e)];
          acc *= scale;
          if (softcap > 0) acc = softcap * std::tanh(acc / softcap);
          if (!mask.empty()) acc += mask[static_cast<std::size_t>(i * skv + j)];
          if (causal && j > i + (skv - sq)) acc = -INFINITY;
          s[static_cast<std::size_t>(j)] = acc;
          m = std::max(m, acc);
        }
        double sum = 0;
        for (double& x : s) sum += (x = std::exp(x - m));
        for (int64_t e = 0; e < dv; ++e) {
          double acc = 0;
          for (int64_t j = 0; j < skv; ++j)
            acc += s[static_cast<std::size_t>(j)] / sum *
                   v[static_cast<std::size_t>(((ib * hkv + kh) * skv + j) * dv + e)];
          y[static_cast<std::size_t>(((ib * hq + h) * sq + i) * dv + e)] = acc;
        }
      }
    }
  return y;
}

const std::string k23 = "<ir_version: 10, opset_import: [\"\" : 23]>\n";

}  // namespace

TEST_CASE("Attention 4-D with grouped-query heads matches the reference") {
  const int64_t b = 2, hq = 4, hkv = 2, sq = 3, skv = 5, d = 4, dv = 3;
  const auto q = random_values(static_cast<std::size_t>(b * hq * sq * d), 1);
  const auto k = random_values(static_cast<std::size_t>(b * hkv * skv * d), 2);
  const auto v = random_values(static_cast<std::size_t>(b * hkv * skv * dv), 3);
  const std::string m = k23 +
                        "g (float[2,4,3,4] q, float[2,2,5,4] k, float[2,2,5,3] v) => "
                        "(float[2,4,3,3] y) { y = Attention (q, k, v) }";
  auto out = run(m, {{"q", f32({b, hq, sq, d}, as_float(q))},
                     {"k", f32({b, hkv, skv, d}, as_float(k))},
                     {"v", f32({b, hkv, skv, dv}, as_float(v))}});
  check_close(out[0].tensor(), {b, hq, sq, dv},
              reference(q, k, v, b, hq, hkv, sq, skv, d, dv, false));
  CHECK(infer(m).at("y") == "float[2,4,3,3]");
}

TEST_CASE("Attention in double with a causal mask and softcap") {
  const int64_t b = 1, h = 2, s = 4, d = 2;
  const auto q = random_values(static_cast<std::size_t>(b * h * s * d), 4);
  const auto k = random_values(static_cast<std::size_t>(b * h * s * d), 5);
  const auto v = random_values(static_cast<std::size_t>(b * h * s * d), 6);
  const std::string m =
      k23 +
      "g (double[1,2,4,2] q, double[1,2,4,2] k, double[1,2,4,2] v) => (double[1,2,4,2] y) { y = "
      "Attention <is_causal = 1, softcap = 0.5> (q, k, v) }";
  auto out = run(
      m, {{"q", f64({b, h, s, d}, q)}, {"k", f64({b, h, s, d}, k)}, {"v", f64({b, h, s, d}, v)}});
  CHECK(out[0].tensor().dtype() == DataType::float64);
  check_close(out[0].tensor(), {b, h, s, d}, reference(q, k, v, b, h, h, s, s, d, d, true, {}, 0.5),
              1e-9, 1e-12);
}

TEST_CASE("Attention 3-D inputs split and merge heads; a boolean mask; the qk output") {
  // 3-D (B, S, H*D) with 2 heads of size 2; the reference runs on the (B, H, S, D) view.
  const int64_t b = 1, h = 2, s = 3, d = 2;
  const auto q4 = random_values(static_cast<std::size_t>(b * h * s * d), 7);
  const auto k4 = random_values(static_cast<std::size_t>(b * h * s * d), 8);
  const auto v4 = random_values(static_cast<std::size_t>(b * h * s * d), 9);
  auto to3 = [&](const std::vector<double>& x) {
    std::vector<float> o(x.size());
    for (int64_t ih = 0; ih < h; ++ih)
      for (int64_t is = 0; is < s; ++is)
        for (int64_t id = 0; id < d; ++id)
          o[static_cast<std::size_t>((is * h + ih) * d + id)] =
              static_cast<float>(x[static_cast<std::size_t>((ih * s + is) * d + id)]);
    return o;
  };
  const std::string m =
      k23 +
      R"(g (float[1,3,4] q, float[1,3,4] k, float[1,3,4] v, bool[3,3] mask) => (float[1,3,4] y, float[1,2,3,3] qk) {
    y, "", "", qk = Attention <q_num_heads = 2, kv_num_heads = 2, qk_matmul_output_mode = 3> (q, k, v, mask)
  })";
  // Row 0 may see key 0 only; the others see every key.
  Tensor mask =
      Tensor::from_vector<bool>({3, 3}, {true, false, false, true, true, true, true, true, true});
  auto out = run(m, {{"q", f32({1, 3, 4}, to3(q4))},
                     {"k", f32({1, 3, 4}, to3(k4))},
                     {"v", f32({1, 3, 4}, to3(v4))},
                     {"mask", mask}});
  const std::vector<double> add{0, -INFINITY, -INFINITY, 0, 0, 0, 0, 0, 0};
  const auto ref = reference(q4, k4, v4, b, h, h, s, s, d, d, false, add);
  std::vector<double> ref3(ref.size());
  for (int64_t ih = 0; ih < h; ++ih)
    for (int64_t is = 0; is < s; ++is)
      for (int64_t id = 0; id < d; ++id)
        ref3[static_cast<std::size_t>((is * h + ih) * d + id)] =
            ref[static_cast<std::size_t>((ih * s + is) * d + id)];
  check_close(out[0].tensor(), {1, 3, 4}, ref3);
  // Mode 3: the probabilities; row 0 of each head is (1, 0, 0).
  const auto p = vals(out[1].tensor());
  CHECK(p[0] == doctest::Approx(1));
  CHECK(p[1] == 0);
  const auto t = infer(m);
  CHECK(t.at("y") == "float[1,3,4]");
  CHECK(t.at("qk") == "float[1,2,3,3]");
}

TEST_CASE("Attention: a fully masked row gives zeros, not NaN") {
  const std::string m = k23 +
                        "g (float[1,1,2,2] q, float[1,1,2,2] k, float[1,1,2,2] v, bool[2,2] mask) "
                        "=> (float[1,1,2,2] y) { y = Attention (q, k, v, mask) }";
  auto out = run(m, {{"q", f32({1, 1, 2, 2}, {1, 0, 0, 1})},
                     {"k", f32({1, 1, 2, 2}, {1, 0, 0, 1})},
                     {"v", f32({1, 1, 2, 2}, {1, 2, 3, 4})},
                     {"mask", Tensor::from_vector<bool>({2, 2}, {false, false, true, true})}});
  const auto y = vals(out[0].tensor());
  CHECK(y[0] == 0);
  CHECK(y[1] == 0);
  CHECK(std::isfinite(y[2]));
}

TEST_CASE("Attention with a cache concatenates past and present and aligns the causal mask") {
  const int64_t p = 2, s = 1, d = 2;
  const auto q = random_values(static_cast<std::size_t>(s * d), 10);
  const auto past_k = random_values(static_cast<std::size_t>(p * d), 11);
  const auto past_v = random_values(static_cast<std::size_t>(p * d), 12);
  const auto k = random_values(static_cast<std::size_t>(s * d), 13);
  const auto v = random_values(static_cast<std::size_t>(s * d), 14);
  const std::string m =
      k23 +
      R"(g (float[1,1,1,2] q, float[1,1,1,2] k, float[1,1,1,2] v, float[1,1,2,2] pk, float[1,1,2,2] pv) => (float[1,1,1,2] y, float[1,1,3,2] k2, float[1,1,3,2] v2) {
    y, k2, v2 = Attention <is_causal = 1> (q, k, v, "", pk, pv)
  })";
  auto out = run(m, {{"q", f32({1, 1, 1, 2}, as_float(q))},
                     {"k", f32({1, 1, 1, 2}, as_float(k))},
                     {"v", f32({1, 1, 1, 2}, as_float(v))},
                     {"pk", f32({1, 1, 2, 2}, as_float(past_k))},
                     {"pv", f32({1, 1, 2, 2}, as_float(past_v))}});
  std::vector<double> all_k = past_k, all_v = past_v;
  all_k.insert(all_k.end(), k.begin(), k.end());
  all_v.insert(all_v.end(), v.begin(), v.end());
  // The one query sits after the two cached keys: it sees all three.
  check_close(out[0].tensor(), {1, 1, 1, 2}, reference(q, all_k, all_v, 1, 1, 1, 1, 3, d, d, true));
  check_close(out[1].tensor(), {1, 1, 3, 2}, all_k);
  const auto t = infer(m);
  CHECK(t.at("k2") == "float[1,1,3,2]");
}

TEST_CASE("Attention inference keeps symbols; errors are clear") {
  const std::string m =
      k23 + R"(g (float[B,S,8] q, float[B,T,4] k, float[B,T,6] v) => (float[B,S,?] y) {
    y = Attention <q_num_heads = 4, kv_num_heads = 2> (q, k, v)
  })";
  CHECK(infer(m).at("y") == "float[B,S,12]");
  const std::string bad =
      k23 +
      "g (float[2,3] q, float[2,3] k, float[2,3] v) => (float[2,3] y) { y = Attention (q, k, v) }";
  CHECK(infer(bad).count("error") == 1);
  CHECK(run_error(bad, {{"q", f32({2, 3}, std::vector<float>(6))},
                        {"k", f32({2, 3}, std::vector<float>(6))},
                        {"v", f32({2, 3}, std::vector<float>(6))}})
            .find("3-D or 4-D") != std::string::npos);
}

TEST_CASE("RotaryEmbedding: halves and interleaved pairs, with position ids") {
  const std::string m =
      k23 +
      R"(g (float[1,1,2,4] x, float[3,2] c, float[3,2] s, int64[1,2] pos) => (float[1,1,2,4] y, float[1,1,2,4] z) {
    y = RotaryEmbedding (x, c, s, pos)
    z = RotaryEmbedding <interleaved = 1> (x, c, s, pos)
  })";
  // Position 0: cos 1, sin 0 (identity); position 2: cos 0, sin 1 (a quarter turn).
  auto out = run(m, {{"x", f32({1, 1, 2, 4}, {1, 2, 3, 4, 1, 2, 3, 4})},
                     {"c", f32({3, 2}, {1, 1, 0.5, 0.5, 0, 0})},
                     {"s", f32({3, 2}, {0, 0, 0.5, 0.5, 1, 1})},
                     {"pos", i64({1, 2}, {0, 2})}});
  // Halves (1,2 | 3,4): x1 = (1,2), x2 = (3,4) -> (-x2, x1) = (-3,-4,1,2).
  check_close(out[0].tensor(), {1, 1, 2, 4}, {1, 2, 3, 4, -3, -4, 1, 2});
  // Pairs (1,2), (3,4) -> (-2,1), (-4,3).
  check_close(out[1].tensor(), {1, 1, 2, 4}, {1, 2, 3, 4, -2, 1, -4, 3});
  CHECK(infer(m).at("y") == "float[1,1,2,4]");
  CHECK(run_error(m, {{"x", f32({1, 1, 2, 4}, std::vector<float>(8))},
                      {"c", f32({3, 2}, std::vector<float>(6))},
                      {"s", f32({3, 2}, std::vector<float>(6))},
                      {"pos", i64({1, 2}, {0, 3})}})
            .find("position id") != std::string::npos);
}
