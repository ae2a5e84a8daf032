// SPDX-License-Identifier: Apache-2.0
// Softmax, LogSoftmax, Hardmax (the coerced-2-D rule before 13, per axis from 13) and Dropout.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;

namespace {

// Softmax over blocks: each group of `len` elements `inner` apart, for `outer` blocks.
std::vector<double> softmax_ref(const std::vector<double>& v, std::size_t outer, std::size_t len,
                                std::size_t inner, char kind) {
  std::vector<double> y(v.size());
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < inner; ++i) {
      auto at = [&](std::size_t r) { return (o * len + r) * inner + i; };
      double mx = -INFINITY, sum = 0;
      std::size_t arg = 0;
      for (std::size_t r = 0; r < len; ++r)
        if (v[at(r)] > mx) {
          mx = v[at(r)];
          arg = r;
        }
      for (std::size_t r = 0; r < len; ++r) sum += std::exp(v[at(r)] - mx);
      for (std::size_t r = 0; r < len; ++r)
        y[at(r)] = kind == 's'   ? std::exp(v[at(r)] - mx) / sum
                   : kind == 'l' ? v[at(r)] - mx - std::log(sum)
                                 : (r == arg ? 1.0 : 0.0);
    }
  return y;
}

}  // namespace

TEST_CASE("Softmax, LogSoftmax, Hardmax: per axis from 13, coerced to 2-D before") {
  const Tensor x = random_tensor(DataType::float32, {2, 3, 4}, 51, -5, 5);
  const auto xv = values(x);
  const std::vector<std::pair<std::string, char>> ops = {
      {"Softmax", 's'}, {"LogSoftmax", 'l'}, {"Hardmax", 'h'}};
  for (const auto& entry : ops) {
    const std::string& op = entry.first;  // not a structured binding: CAPTURE's lambda reads it
    const char kind = entry.second;
    CAPTURE(op);
    // 13: along the axis only.
    check_close(run_node({"y = " + op + " <axis = 1> (x)", 13, {{"x", x}}})[0].tensor(),
                doubles(x.shape(), softmax_ref(xv, 2, 3, 4, kind)), 1e-5, 1e-6);
    check_close(run_node({"y = " + op + " (x)", 13, {{"x", x}}})[0].tensor(),
                doubles(x.shape(), softmax_ref(xv, 6, 4, 1, kind)), 1e-5, 1e-6);
    check_close(run_node({"y = " + op + " <axis = -3> (x)", 13, {{"x", x}}})[0].tensor(),
                doubles(x.shape(), softmax_ref(xv, 1, 2, 12, kind)), 1e-5, 1e-6);
    // 1 and 11: axis 1 means rows of 3 x 4 = 12 elements; axis 2 rows of 4; axis 0 one row.
    for (int opset : {1, 11}) {
      check_close(run_node({"y = " + op + " (x)", opset, {{"x", x}}})[0].tensor(),
                  doubles(x.shape(), softmax_ref(xv, 2, 12, 1, kind)), 1e-5, 1e-6);
      check_close(run_node({"y = " + op + " <axis = 2> (x)", opset, {{"x", x}}})[0].tensor(),
                  doubles(x.shape(), softmax_ref(xv, 6, 4, 1, kind)), 1e-5, 1e-6);
      check_close(run_node({"y = " + op + " <axis = -3> (x)", opset, {{"x", x}}})[0].tensor(),
                  doubles(x.shape(), softmax_ref(xv, 1, 24, 1, kind)), 1e-5, 1e-6);
    }
    const Tensor h = cast_to(x, DataType::float16);
    check_close(run_node({"y = " + op + " (x)", 13, {{"x", h}}})[0].tensor(),
                doubles(x.shape(), softmax_ref(values(h), 6, 4, 1, kind)), 2e-3, 2e-3);
    const Tensor d = cast_to(x, DataType::float64);
    check_close(run_node({"y = " + op + " (x)", 13, {{"x", d}}})[0].tensor(),
                doubles(x.shape(), softmax_ref(xv, 6, 4, 1, kind)), 1e-12, 1e-12);
    CHECK(run_error({"y = " + op + " <axis = 3> (x)", 13, {{"x", x}}}).find("out of range") !=
          std::string::npos);
    CHECK(shape_to_string(
              run_node({"y = " + op + " (x)", 13, {{"x", Tensor(DataType::float32, {2, 0})}}})[0]
                  .tensor()
                  .shape()) == "[2,0]");
  }
  // Rows long enough for the vector kernels (float32 along the last axis), with their tails.
  const Tensor wide = random_tensor(DataType::float32, {3, 1003}, 52, -20, 20);
  for (const auto& [op, kind] :
       std::vector<std::pair<std::string, char>>{{"Softmax", 's'}, {"LogSoftmax", 'l'}})
    check_close(run_node({"y = " + op + " (x)", 13, {{"x", wide}}})[0].tensor(),
                doubles(wide.shape(), softmax_ref(values(wide), 3, 1003, 1, kind)), 1e-5, 1e-6);
  // Large numbers do not overflow; Hardmax picks the first of equal maxima.
  const Tensor big = cast_to(doubles({1, 3}, {1000, 1000, 999}), DataType::float32);
  const auto s = values(run_node({"y = Softmax (x)", 13, {{"x", big}}})[0].tensor());
  CHECK(s[0] == doctest::Approx(0.4223188));
  CHECK(values(run_node({"y = Hardmax (x)", 13, {{"x", big}}})[0].tensor()) ==
        std::vector<double>{1, 0, 0});
  CHECK(infer_node("y = LogSoftmax <axis = 1> (x)", 13, {{"x", "bfloat16[N,10]"}}) ==
        std::vector<std::string>{"bfloat16[N,10]"});
  CHECK(infer_node("y = Softmax <axis = 2> (x)", 13, {{"x", "float[N,10]"}})[0].find("error:") ==
        0);
}

TEST_CASE("Dropout: identity in inference with an all-true mask; training with a ratio") {
  const Tensor x = random_tensor(DataType::float32, {3, 4}, 61);
  auto out = run_node({"y, m = Dropout (x)", 13, {{"x", x}}});
  check_close(out[0].tensor(), x, 0, 0);
  CHECK(out[1].tensor().dtype() == DataType::boolean);
  CHECK(values(out[1].tensor()) == std::vector<double>(12, 1.0));
  out = run_node({"y, m = Dropout <ratio = 0.3> (x)", 7, {{"x", x}}});
  check_close(out[0].tensor(), x, 0, 0);
  CHECK(out[1].tensor().dtype() == DataType::float32);
  out = run_node({"y, m = Dropout <is_test = 1> (x)", 6, {{"x", x}}});
  check_close(out[0].tensor(), x, 0, 0);
  // Training: kept elements are scaled by 1 / (1 - ratio), the rest are 0; the mask says which.
  const Tensor ratio = cast_to(doubles({}, {0.25}), DataType::float32);
  const Tensor on = Tensor::scalar<bool>(true);
  const Tensor big = random_tensor(DataType::float32, {100, 100}, 62, 1, 2);
  out =
      run_node({"y, m = Dropout <seed = 3> (x, r, t)", 13, {{"x", big}, {"r", ratio}, {"t", on}}});
  const auto xv = values(big), yv = values(out[0].tensor()), mv = values(out[1].tensor());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < xv.size(); ++i) {
    kept += mv[i] != 0;
    CHECK(yv[i] == doctest::Approx(mv[i] != 0 ? xv[i] / 0.75 : 0.0));
  }
  CHECK(kept > 7000);
  CHECK(kept < 8000);
  // The same seed gives the same mask; ratio 0 in training is the identity.
  CHECK(values(run_node({"y, m = Dropout <seed = 3> (x, r, t)",
                         13,
                         {{"x", big}, {"r", ratio}, {"t", on}}})[1]
                   .tensor()) == mv);
  const Tensor zero = cast_to(doubles({}, {0}), DataType::float32);
  check_close(
      run_node({"y = Dropout (x, r, t)", 12, {{"x", x}, {"r", zero}, {"t", on}}})[0].tensor(), x, 0,
      0);
  CHECK(infer_node("y, m = Dropout (x)", 13, {{"x", "float16[N,8]"}}) ==
        std::vector<std::string>{"float16[N,8]", "bool[N,8]"});
  CHECK(infer_node("y, m = Dropout (x)", 7, {{"x", "float[N,8]"}}) ==
        std::vector<std::string>{"float[N,8]", "float[N,8]"});
}
