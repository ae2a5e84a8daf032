// SPDX-License-Identifier: Apache-2.0
// Issue 9: answers that depend neither on where an output channel sits nor on the thread count.
// Output channels computed from identical weights and inputs must come out bitwise identical,
// and the whole output must be the same bits with 1, 2 or 3 threads.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;

namespace {

// A weight tensor [channels, rest...] whose every channel repeats channel 0 of `one`.
Tensor repeat_channel(const Tensor& one, int64_t channels) {
  const int64_t per = one.numel();
  std::vector<float> v;
  v.reserve(static_cast<std::size_t>(per * channels));
  for (int64_t c = 0; c < channels; ++c)
    v.insert(v.end(), one.data<float>(), one.data<float>() + per);
  Shape shape = one.shape();
  shape[0] = channels;
  return Tensor::from_vector<float>(shape, v);
}

// Counts the slices [outer, channel, inner] along `axis` whose bytes differ from slice 0.
int64_t channels_differing(const Tensor& y, std::size_t axis) {
  const Shape& s = y.shape();
  int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= s[d];
  for (std::size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  const float* p = y.data<float>();
  int64_t differing = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 1; c < s[axis]; ++c)
      for (int64_t i = 0; i < inner; ++i)
        if (std::memcmp(p + (o * s[axis] + c) * inner + i, p + o * s[axis] * inner + i,
                        sizeof(float))) {
          ++differing;
          break;
        }
  return differing;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.numel() == b.numel() &&
         std::memcmp(a.data<float>(), b.data<float>(),
                     static_cast<std::size_t>(a.numel()) * sizeof(float)) == 0;
}

// Runs the case with 1, 2 and 3 threads: the same bits each time, and identical channels.
void check_case(NodeCase c, std::size_t channel_axis) {
  std::vector<Tensor> outs;
  for (int threads : {1, 2, 3}) {
    c.threads = threads;
    outs.push_back(run_node(c)[0].tensor());
  }
  CHECK(channels_differing(outs[0], channel_axis) == 0);
  CHECK(same_bytes(outs[0], outs[1]));
  CHECK(same_bytes(outs[0], outs[2]));
}

// Inputs with large values, so that a change of summation order shows in the last bits.
Tensor big_values(const Shape& shape, uint32_t seed) {
  return random_tensor(DataType::float32, shape, seed, 0, 100);
}

}  // namespace

TEST_CASE("Conv: identical filters give identical channels with any thread count") {
  // 203 channels: not a multiple of any register tile. 3x3 (im2col) and 1x1 (direct product).
  for (const char* kernel : {"3", "1"}) {
    const int64_t kk = std::stoll(kernel);
    const Tensor one = big_values({1, 64, kk, kk}, 2);
    NodeCase c;
    c.node = kk == 3 ? "y = Conv <pads = [1, 1, 1, 1]> (x, w, b)" : "y = Conv (x, w, b)";
    c.inputs = {{"x", big_values({2, 64, 13, 13}, 1)}};
    c.initializers = {{"w", repeat_channel(one, 203)},
                      {"b", Tensor::from_vector<float>({203}, std::vector<float>(203, 0.25f))}};
    INFO("kernel ", kernel);
    check_case(c, 1);
  }
}

TEST_CASE("Gemm and MatMul: identical rows and columns come out identical with any thread count") {
  // Gemm with transB: identical rows of B make identical columns of Y (batch 1 and batch 33).
  for (int64_t batch : {1, 33}) {
    const Tensor row = big_values({1, 700}, 3);
    NodeCase c;
    c.node = "y = Gemm <transB = 1> (x, w, b)";
    c.inputs = {{"x", big_values({batch, 700}, 4)}};
    c.initializers = {{"w", repeat_channel(row, 301)},
                      {"b", Tensor::from_vector<float>({301}, std::vector<float>(301, -3.0f))}};
    // Y's columns are the channels here: compare them through the transpose of the check.
    std::vector<Tensor> outs;
    for (int threads : {1, 2, 3}) {
      c.threads = threads;
      outs.push_back(run_node(c)[0].tensor());
    }
    const Tensor& y = outs[0];
    int64_t differing = 0;
    for (int64_t i = 0; i < batch; ++i)
      for (int64_t j = 1; j < 301; ++j)
        if (std::memcmp(y.data<float>() + i * 301 + j, y.data<float>() + i * 301, sizeof(float)))
          ++differing;
    INFO("batch ", batch);
    CHECK(differing == 0);
    CHECK(same_bytes(outs[0], outs[1]));
    CHECK(same_bytes(outs[0], outs[2]));
  }
  // MatMul with identical rows of A: identical rows of Y (here the "channels" are rows).
  const Tensor arow = big_values({1, 600}, 6);
  NodeCase m;
  m.node = "y = MatMul (a, b)";
  m.inputs = {{"a", repeat_channel(arow, 257)}};
  m.initializers = {{"b", big_values({600, 129}, 7)}};
  check_case(m, 0);
}
