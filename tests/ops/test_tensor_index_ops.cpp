// SPDX-License-Identifier: Apache-2.0
// Kernels of the operators driven by index or condition tensors: Gather, GatherElements,
// GatherND, Scatter, ScatterElements, ScatterND (every reduction), OneHot, NonZero, Compress,
// Unique, TopK, ReverseSequence, Trilu, EyeLike — including out-of-range indices, which must
// fail naming the index.
#include <doctest/doctest.h>

#include "tests/ops/test_tensor_support.h"

using namespace onnxtool;
using namespace onnxtool::tensor_test;

namespace {
bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("Gather: negative and multi-dim indices, strings, scalars, out-of-range errors") {
  const Tensor x = iota_f({3, 4});
  const Tensor y = run1({"Gather", {x, make<int64_t>({2, 2}, {0, -1, 2, 1})}, "axis = 1"});
  CHECK(y.shape() == Shape{3, 2, 2});
  CHECK(elements<float>(y) == std::vector<float>{0, 3, 2, 1, 4, 7, 6, 5, 8, 11, 10, 9});
  CHECK(run1({"Gather", {x, make<int32_t>({}, {1})}}).shape() == Shape{4});
  CHECK(run1({"Gather", {x, make<int64_t>({0}, {})}}).shape() == Shape{0, 4});
  const Tensor s = make<std::string>({3}, {"a", "b", "c"});
  CHECK(elements<std::string>(run1({"Gather", {s, make<int64_t>({2}, {2, 0})}})) ==
        std::vector<std::string>{"c", "a"});
  const std::string e = op_error({"Gather", {x, make<int64_t>({3}, {0, 1, 4})}, "axis = 1"});
  CHECK(has(e, "indices[2] = 4 is out of range for axis 1 of size 4"));
  CHECK(has(op_error({"Gather", {x, make<int64_t>({1}, {-4})}}), "indices[0] = -4"));
}

TEST_CASE("GatherElements and GatherND (batch_dims)") {
  const Tensor x = make<float>({2, 2}, {1, 2, 3, 4});
  CHECK(elements<float>(
            run1({"GatherElements", {x, make<int64_t>({2, 2}, {0, 0, 1, 0})}, "axis = 1"})) ==
        std::vector<float>{1, 1, 4, 3});
  CHECK(elements<float>(run1({"GatherElements", {x, make<int64_t>({1, 2}, {1, -2})}})) ==
        std::vector<float>{3, 2});
  CHECK(has(op_error({"GatherElements", {x, make<int64_t>({1, 2}, {2, 0})}}), "indices[0] = 2"));
  const Tensor d = iota_f({2, 2, 2});
  CHECK(elements<float>(run1({"GatherND", {d, make<int64_t>({2, 2}, {0, 1, 1, 0})}})) ==
        std::vector<float>{2, 3, 4, 5});
  const Tensor b = run1({"GatherND", {d, make<int64_t>({2, 1}, {1, 0})}, "batch_dims = 1"});
  CHECK(b.shape() == Shape{2, 2});
  CHECK(elements<float>(b) == std::vector<float>{2, 3, 4, 5});
  CHECK(elements<float>(run1({"GatherND", {d, make<int64_t>({1, 3}, {1, -1, 0})}, "", 11})) ==
        std::vector<float>{6});
  CHECK(has(op_error({"GatherND", {d, make<int64_t>({1, 2}, {0, 2})}}),
            "indices[1] = 2 is out of range for axis 1"));
}

TEST_CASE("ScatterElements with every reduction, Scatter-9, duplicates and errors") {
  const Tensor x = make<float>({1, 5}, {1, 2, 3, 4, 5});
  const Tensor idx = make<int64_t>({1, 2}, {1, 1});
  const Tensor upd = make<float>({1, 2}, {10, 20});
  auto scatter = [&](const std::string& r) {
    return elements<float>(
        run1({"ScatterElements", {x, idx, upd}, "axis = 1, reduction = \"" + r + "\""}));
  };
  CHECK(scatter("none") == std::vector<float>{1, 20, 3, 4, 5});
  CHECK(scatter("add") == std::vector<float>{1, 32, 3, 4, 5});
  CHECK(scatter("mul") == std::vector<float>{1, 400, 3, 4, 5});
  CHECK(scatter("max") == std::vector<float>{1, 20, 3, 4, 5});
  CHECK(scatter("min") == std::vector<float>{1, 2, 3, 4, 5});
  CHECK(has(op_error({"ScatterElements", {x, idx, upd}, "axis = 1, reduction = \"max\"", 16}),
            "reduction \"max\""));
  CHECK(elements<float>(run1({"Scatter",
                              {x, make<int64_t>({1, 1}, {-1}), make<float>({1, 1}, {9})},
                              "axis = 1",
                              9})) == std::vector<float>{1, 2, 3, 4, 9});
  const Tensor h = make<Float16>({2}, {Float16{0x3c00}, Float16{0x4000}});
  const Tensor hs = run1({"ScatterElements",
                          {h, make<int64_t>({1}, {0}), make<Float16>({1}, {Float16{0x3c00}})},
                          "reduction = \"add\""});
  CHECK(hs.data<Float16>()[0].bits == 0x4000);  // 1 + 1 = 2 in float16
  CHECK(has(op_error({"ScatterElements",
                      {x, make<int64_t>({1, 1}, {5}), make<float>({1, 1}, {0})},
                      "axis = 1"}),
            "indices[0] = 5 is out of range for axis 1 of size 5"));
  const Tensor s = make<std::string>({3}, {"a", "b", "c"});
  CHECK(elements<std::string>(run1(
            {"ScatterElements", {s, make<int64_t>({1}, {2}), make<std::string>({1}, {"z"})}})) ==
        std::vector<std::string>{"a", "b", "z"});
}

TEST_CASE("ScatterND: slices, reductions, errors") {
  const Tensor x = iota_f({2, 2});
  CHECK(elements<float>(
            run1({"ScatterND", {x, make<int64_t>({1, 1}, {1}), make<float>({1, 2}, {7, 8})}})) ==
        std::vector<float>{0, 1, 7, 8});
  CHECK(elements<float>(run1({"ScatterND",
                              {x, make<int64_t>({2, 2}, {0, 0, 0, 0}), make<float>({2}, {5, 6})},
                              "reduction = \"add\""})) == std::vector<float>{11, 1, 2, 3});
  CHECK(elements<float>(
            run1({"ScatterND", {x, make<int64_t>({1, 2}, {-1, -1}), make<float>({1}, {9})}})) ==
        std::vector<float>{0, 1, 2, 9});
  CHECK(has(op_error({"ScatterND", {x, make<int64_t>({1, 2}, {0, 3}), make<float>({1}, {9})}}),
            "indices[1] = 3"));
  CHECK(
      has(op_error({"ScatterND", {x, make<int64_t>({1, 1}, {0}), make<float>({1, 3}, {1, 2, 3})}}),
          "updates have shape [1,3], expected [1,2]"));
}

TEST_CASE("OneHot: axis, negative indices from 11, out of range stays off, string values") {
  const Tensor y =
      run1({"OneHot",
            {make<int64_t>({3}, {0, -1, 5}), make<int64_t>({}, {3}), make<float>({2}, {0, 1})}});
  CHECK(y.shape() == Shape{3, 3});
  CHECK(elements<float>(y) == std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0});
  const Tensor z =
      run1({"OneHot",
            {make<float>({2}, {1, 0}), make<float>({1}, {2}), make<std::string>({2}, {"n", "y"})},
            "axis = 0"});
  CHECK(elements<std::string>(z) == std::vector<std::string>{"n", "y", "y", "n"});
  CHECK(elements<int32_t>(
            run1({"OneHot",
                  {make<int64_t>({1}, {-1}), make<int64_t>({}, {2}), make<int32_t>({2}, {0, 1})},
                  "",
                  9})) == std::vector<int32_t>{0, 0});
}

TEST_CASE("NonZero, Compress, ReverseSequence") {
  const Tensor nz = run1({"NonZero", {make<float>({2, 2}, {1, 0, 0, -2})}});
  CHECK(nz.shape() == Shape{2, 2});
  CHECK(elements<int64_t>(nz) == std::vector<int64_t>{0, 1, 0, 1});
  CHECK(run1({"NonZero", {make<std::string>({3}, {"", "a", "b"})}}).shape() == Shape{1, 2});
  CHECK(run1({"NonZero", {make<bool>({}, {true})}}).shape() == Shape{1, 1});
  const Tensor x = iota_f({3, 2});
  CHECK(elements<float>(run1({"Compress", {x, make<bool>({2}, {false, true})}, "axis = -1"})) ==
        std::vector<float>{1, 3, 5});
  CHECK(elements<float>(run1({"Compress", {x, make<bool>({4}, {false, true, true, false})}})) ==
        std::vector<float>{1, 2});
  CHECK(has(op_error({"Compress", {x, make<bool>({3}, {false, false, true})}, "axis = 1"}),
            "condition[2] is true"));
  const Tensor seq = iota_f({3, 2});  // [time, batch]
  CHECK(elements<float>(run1({"ReverseSequence", {seq, make<int64_t>({2}, {3, 1})}})) ==
        std::vector<float>{4, 1, 2, 3, 0, 5});
  CHECK(elements<float>(run1({"ReverseSequence",
                              {iota_f({2, 3}), make<int64_t>({2}, {2, 3})},
                              "time_axis = 1, batch_axis = 0"})) ==
        std::vector<float>{1, 0, 2, 5, 4, 3});
  CHECK(has(op_error({"ReverseSequence", {seq, make<int64_t>({2}, {4, 1})}}),
            "sequence_lens[0] = 4"));
}

TEST_CASE("Unique: sorted and not, with axis, all four outputs") {
  const auto out = run_op({"Unique", {make<float>({6}, {2, 1, 1, 3, 4, 3})}, "sorted = 0", 11, 4});
  CHECK(elements<float>(out[0]) == std::vector<float>{2, 1, 3, 4});
  CHECK(elements<int64_t>(out[1]) == std::vector<int64_t>{0, 1, 3, 4});
  CHECK(elements<int64_t>(out[2]) == std::vector<int64_t>{0, 1, 1, 2, 3, 2});
  CHECK(elements<int64_t>(out[3]) == std::vector<int64_t>{1, 2, 2, 1});
  const auto s = run_op({"Unique", {make<float>({6}, {2, 1, 1, 3, 4, 3})}, "", 11, 4});
  CHECK(elements<float>(s[0]) == std::vector<float>{1, 2, 3, 4});
  CHECK(elements<int64_t>(s[2]) == std::vector<int64_t>{1, 0, 0, 2, 3, 2});
  const auto a = run_op({"Unique", {make<int32_t>({3, 2}, {1, 0, 1, 0, 0, 5})}, "axis = 0", 11, 4});
  CHECK(elements<int32_t>(a[0]) == std::vector<int32_t>{0, 5, 1, 0});
  CHECK(elements<int64_t>(a[3]) == std::vector<int64_t>{1, 2});
  CHECK(elements<std::string>(run1({"Unique", {make<std::string>({3}, {"b", "a", "b"})}})) ==
        std::vector<std::string>{"a", "b"});
}

TEST_CASE("TopK: k as attribute (1) and input (10+), smallest, ties by index, errors") {
  const Tensor x = make<float>({2, 4}, {1, 3, 3, 2, 4, 0, 4, 1});
  const auto big = run_op({"TopK", {x, make<int64_t>({1}, {2})}, "", 21, 2});
  CHECK(elements<float>(big[0]) == std::vector<float>{3, 3, 4, 4});
  CHECK(elements<int64_t>(big[1]) == std::vector<int64_t>{1, 2, 0, 2});
  const auto small = run_op({"TopK", {x, make<int64_t>({1}, {1})}, "largest = 0, axis = 0", 21, 2});
  CHECK(elements<float>(small[0]) == std::vector<float>{1, 0, 3, 1});
  CHECK(elements<int64_t>(run_op({"TopK", {x}, "k = 1", 1, 2})[1]) == std::vector<int64_t>{1, 0});
  const auto h =
      run_op({"TopK",
              {make<Float16>({2}, {Float16{0x3c00}, Float16{0x4000}}), make<int64_t>({1}, {1})},
              "",
              21,
              2});
  CHECK(elements<int64_t>(h[1]) == std::vector<int64_t>{1});
  CHECK(run_op({"TopK", {x, make<int64_t>({1}, {0})}, "", 21, 2})[0].shape() == Shape{2, 0});
  CHECK(has(op_error({"TopK", {x, make<int64_t>({1}, {5})}, "", 21, 2}), "k = 5 is out of range"));
}

TEST_CASE("Trilu and EyeLike") {
  const Tensor x = iota_f({3, 3});
  CHECK(elements<float>(run1({"Trilu", {x}})) == std::vector<float>{0, 1, 2, 0, 4, 5, 0, 0, 8});
  CHECK(elements<float>(run1({"Trilu", {x, make<int64_t>({}, {-1})}, "upper = 0"})) ==
        std::vector<float>{0, 0, 0, 3, 0, 0, 6, 7, 0});
  CHECK(elements<float>(run1({"Trilu", {x, make<int64_t>({}, {INT64_MAX})}, "upper = 0"})) ==
        elements<float>(x));
  CHECK(elements<std::string>(run1({"Trilu", {make<std::string>({2, 2}, {"a", "b", "c", "d"})}})) ==
        std::vector<std::string>{"a", "b", "", "d"});
  CHECK(
      elements<int32_t>(run1({"EyeLike", {make<int32_t>({2, 3}, {9, 9, 9, 9, 9, 9})}, "k = 1"})) ==
      std::vector<int32_t>{0, 1, 0, 0, 0, 1});
  const Tensor e = run1({"EyeLike", {iota_f({2, 2})}, "dtype = 10, k = -1"});
  CHECK(e.dtype() == DataType::float16);
  CHECK(e.data<Float16>()[2].bits == 0x3c00);
  CHECK(elements<bool>(
            run1({"EyeLike", {make<bool>({2, 2}, {false, false, false, false})}, "k = -5"})) ==
        std::vector<bool>{false, false, false, false});
}
