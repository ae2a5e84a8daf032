// SPDX-License-Identifier: Apache-2.0
// Kernels of the operators that rearrange without looking at values: Reshape, Squeeze,
// Unsqueeze, Flatten, Identity (views, never copies), Transpose, Expand, Tile, Concat, Split,
// Slice, DepthToSpace, SpaceToDepth — every version's inputs and attributes, negative axes,
// empty tensors, every element type, and errors.
#include <doctest/doctest.h>

#include <climits>

#include "core/types/float_formats.h"
#include "tests/ops/test_tensor_support.h"

using namespace onnxtool;
using namespace onnxtool::tensor_test;

namespace {

// One tensor of each element type holding 0..n-1 in some form (strings "s0", "s1", ...).
std::vector<Tensor> every_type(Shape shape) {
  std::vector<Tensor> out;
  for (const DataTypeInfo& info : all_type_infos()) {
    Tensor t(info.type, shape);
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (info.type == DataType::string)
        t.mutable_strings()[static_cast<std::size_t>(i)] = "s" + std::to_string(i);
      else
        t.mutable_raw()[static_cast<std::size_t>(i) * static_cast<std::size_t>(info.mem_bytes)] =
            static_cast<std::byte>(info.bits < 8 || info.type == DataType::boolean ? i % 2 : i % 7);
    }
    out.push_back(t);
  }
  return out;
}

std::vector<std::string> pick(const std::vector<std::string>& v, const std::vector<int>& at) {
  std::vector<std::string> out;
  for (int i : at) out.push_back(v[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace

TEST_CASE("Reshape shares the input's storage and resolves 0 and -1") {
  const Tensor x = iota_f({2, 3, 4});
  const Tensor y = run1({"Reshape", {x, make<int64_t>({3}, {0, -1, 2})}});
  CHECK(y.shape() == Shape{2, 6, 2});
  CHECK(elements<float>(y) == elements<float>(x));
  // The kernel's output is a view of its input: no bytes were copied (checked directly on a
  // Reshape run twice in a chain the executor cannot fold).
  CHECK(run1({"Reshape", {x, make<int64_t>({1}, {-1})}}).shape() == Shape{24});
  CHECK(run1({"Reshape",
              {Tensor(DataType::float32, {0, 3}), make<int64_t>({2}, {3, 0})},
              "allowzero = 1"})
            .shape() == Shape{3, 0});
  CHECK(
      run1({"Reshape", {Tensor(DataType::float32, {0, 3}), make<int64_t>({2}, {0, 3})}}).shape() ==
      Shape{0, 3});
  CHECK(run1({"Reshape", {x, make<int64_t>({2}, {4, 6})}, "", 5}).shape() == Shape{4, 6});
  CHECK(run1({"Reshape", {x}, "shape = [6, 4]", 1}).shape() == Shape{6, 4});
  CHECK(op_error({"Reshape", {x, make<int64_t>({2}, {5, -1})}}).find("-1 cannot be resolved") !=
        std::string::npos);
  CHECK(op_error({"Reshape", {x, make<int64_t>({2}, {-1, -1})}}).find("more than one -1") !=
        std::string::npos);
  CHECK(op_error({"Reshape", {x, make<int64_t>({2}, {5, 5})}}).find("cannot reshape [2,3,4]") !=
        std::string::npos);
  CHECK(op_error({"Reshape", {x, make<int64_t>({2}, {0, -1})}, "allowzero = 1"})
            .find("both 0 and -1") != std::string::npos);
}

TEST_CASE("Squeeze and Unsqueeze: attribute axes before 13, input axes from 13, negative from 11") {
  const Tensor x = iota_f({1, 3, 1, 2});
  CHECK(run1({"Squeeze", {x}}).shape() == Shape{3, 2});
  CHECK(run1({"Squeeze", {x, make<int64_t>({1}, {-2})}}).shape() == Shape{1, 3, 2});
  CHECK(run1({"Squeeze", {x}, "axes = [0]", 11}).shape() == Shape{3, 1, 2});
  CHECK(run1({"Squeeze", {x}, "axes = [2]", 1}).shape() == Shape{1, 3, 2});
  CHECK(op_error({"Squeeze", {x}, "axes = [-1]", 1}).find("negative") != std::string::npos);
  CHECK(op_error({"Squeeze", {x, make<int64_t>({1}, {1})}}).find("cannot squeeze axis 1") !=
        std::string::npos);
  CHECK(op_error({"Squeeze", {x, make<int64_t>({1}, {4})}}).find("out of range") !=
        std::string::npos);
  const Tensor v = make<int64_t>({2}, {5, 6});
  CHECK(run1({"Unsqueeze", {v, make<int64_t>({2}, {0, -1})}}).shape() == Shape{1, 2, 1});
  CHECK(run1({"Unsqueeze", {v}, "axes = [2, 0]", 11}).shape() == Shape{1, 2, 1});
  CHECK(run1({"Unsqueeze", {Tensor::scalar<int64_t>(3)}, "axes = [0]", 1}).shape() == Shape{1});
  CHECK(op_error({"Unsqueeze", {v, make<int64_t>({2}, {0, 0})}}).find("appears twice") !=
        std::string::npos);
  CHECK(op_error({"Unsqueeze", {v}, "axes = [-1]", 1}).find("negative") != std::string::npos);
}

TEST_CASE("Flatten and Identity are views; Identity passes sequences through") {
  const Tensor x = iota_f({2, 3, 4});
  CHECK(run1({"Flatten", {x}}).shape() == Shape{2, 12});
  CHECK(run1({"Flatten", {x}, "axis = 0"}).shape() == Shape{1, 24});
  CHECK(run1({"Flatten", {x}, "axis = 3"}).shape() == Shape{24, 1});
  CHECK(run1({"Flatten", {x}, "axis = -1"}).shape() == Shape{6, 4});
  CHECK(op_error({"Flatten", {x}, "axis = -1", 9}).find("out of range") != std::string::npos);
  CHECK(elements<float>(run1({"Identity", {x}})) == elements<float>(x));
  const auto seq = run_model(
      "g (float[2] a) => (s2) {\n  s = SequenceConstruct (a, a)\n  s2 = Identity (s)\n}\n",
      {{"a", Value(make<float>({2}, {1, 2}))}}, 21);
  REQUIRE(seq.at(0).is_sequence());
  CHECK(seq[0].items().size() == 2);
}

TEST_CASE("Transpose moves every element type, with and without perm") {
  for (const Tensor& x : every_type({2, 3})) {
    CAPTURE(type_name(x.dtype()));
    const Tensor y = run1({"Transpose", {x}, "", 25});  // Transpose-25 takes every type
    CHECK(y.shape() == Shape{3, 2});
    CHECK(texts(y) == pick(texts(x), {0, 3, 1, 4, 2, 5}));
  }
  const Tensor x = iota_f({2, 3, 4});
  const Tensor y = run1({"Transpose", {x}, "perm = [1, 2, 0]"});
  CHECK(y.shape() == Shape{3, 4, 2});
  CHECK(elements<float>(y)[1] == 12.0f);
  CHECK(run1({"Transpose", {Tensor(DataType::float32, {0, 2})}}).shape() == Shape{2, 0});
  CHECK(run1({"Transpose", {iota_f({1, 5, 1})}, "perm = [2, 1, 0]"}).shape() == Shape{1, 5, 1});
  CHECK(op_error({"Transpose", {x}, "perm = [0, 0, 1]"}).find("not a permutation") !=
        std::string::npos);
  CHECK(op_error({"Transpose", {x}, "perm = [0, 1]"}).find("perm has 2 entries") !=
        std::string::npos);
}

TEST_CASE("Expand broadcasts both ways; Tile repeats, Tile-1 along one axis") {
  const Tensor x = make<float>({3, 1}, {1, 2, 3});
  const Tensor y = run1({"Expand", {x, make<int64_t>({3}, {2, 1, 2})}});
  CHECK(y.shape() == Shape{2, 3, 2});
  CHECK(elements<float>(y) == std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
  CHECK(run1({"Expand", {x, make<int64_t>({1}, {1})}}).shape() == Shape{3, 1});
  CHECK(run1({"Expand", {x, make<int64_t>({2}, {1, 1})}}).shape() == Shape{3, 1});
  CHECK(op_error({"Expand", {x, make<int64_t>({2}, {2, 2})}}).find("cannot broadcast") !=
        std::string::npos);
  const Tensor s = make<std::string>({2}, {"a", "b"});
  CHECK(elements<std::string>(run1({"Expand", {s, make<int64_t>({2}, {2, 2})}})) ==
        std::vector<std::string>{"a", "b", "a", "b"});
  const Tensor t = run1({"Tile", {make<float>({2, 2}, {1, 2, 3, 4}), make<int64_t>({2}, {2, 3})}});
  CHECK(t.shape() == Shape{4, 6});
  CHECK(elements<float>(t)[6] == 3.0f);
  CHECK(elements<float>(t)[7] == 4.0f);
  CHECK(run1({"Tile", {make<float>({2}, {1, 2}), make<int64_t>({1}, {0})}}).shape() == Shape{0});
  const Tensor t1 =
      run1({"Tile",
            {make<float>({2, 2}, {1, 2, 3, 4}), make<float>({}, {2}), make<float>({}, {1})},
            "",
            1});
  CHECK(elements<float>(t1) == std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4});
  CHECK(op_error({"Tile", {x, make<int64_t>({2}, {1, -1})}}).find("negative") != std::string::npos);
}

TEST_CASE("Concat of every element type, empty inputs, negative axis; errors name the input") {
  for (const Tensor& x : every_type({2, 2})) {
    // Concat-13, the newest version, predates float8 and the packed types.
    if (static_cast<int>(x.dtype()) > static_cast<int>(DataType::bfloat16)) continue;
    CAPTURE(type_name(x.dtype()));
    const Tensor y = run1({"Concat", {x, x}, "axis = -1"});
    CHECK(y.shape() == Shape{2, 4});
    CHECK(texts(y) == pick(texts(x), {0, 1, 0, 1, 2, 3, 2, 3}));
  }
  const Tensor a = iota_f({2, 0}), b = iota_f({2, 3});
  CHECK(elements<float>(run1({"Concat", {a, b}, "axis = 1"})) == elements<float>(b));
  CHECK(run1({"Concat", {iota_f({2, 3}), iota_f({2, 3})}, "", 1}).shape() == Shape{2, 6});
  CHECK(op_error({"Concat", {b, iota_f({3, 3})}, "axis = 1"}).find("input 1 is float[3,3]") !=
        std::string::npos);
  CHECK(op_error({"Concat", {b, b}, "axis = -1", 4}).find("negative") != std::string::npos);
}

TEST_CASE("Split by attribute (2, 11), input (13), num_outputs (18) and equal parts") {
  const Tensor x = iota_f({6, 2});
  auto sizes = [](const std::vector<Tensor>& ts) {
    std::vector<int64_t> s;
    for (const Tensor& t : ts) s.push_back(t.shape()[0]);
    return s;
  };
  CHECK(sizes(run_op({"Split", {x}, "split = [1, 5]", 11, 2})) == std::vector<int64_t>{1, 5});
  CHECK(sizes(run_op({"Split", {x}, "split = [4, 2]", 2, 2})) == std::vector<int64_t>{4, 2});
  CHECK(sizes(run_op({"Split", {x, make<int64_t>({3}, {2, 0, 4})}, "", 13, 3})) ==
        std::vector<int64_t>{2, 0, 4});
  CHECK(sizes(run_op({"Split", {x}, "", 13, 3})) == std::vector<int64_t>{2, 2, 2});
  CHECK(sizes(run_op({"Split", {iota_f({7})}, "num_outputs = 3", 18, 3})) ==
        std::vector<int64_t>{3, 3, 1});
  CHECK(sizes(run_op({"Split", {x, make<float>({2}, {3, 3})}, "", 1, 2})) ==
        std::vector<int64_t>{3, 3});
  const auto parts = run_op({"Split", {x}, "axis = -1", 18, 2});
  CHECK(elements<float>(parts[1]) == std::vector<float>{1, 3, 5, 7, 9, 11});
  CHECK(op_error({"Split", {iota_f({7})}, "", 13, 2}).find("cannot be split into 2 equal parts") !=
        std::string::npos);
  CHECK(op_error({"Split", {x, make<int64_t>({2}, {1, 2})}, "", 13, 2}).find("add up to 3") !=
        std::string::npos);
}

TEST_CASE("Slice: attributes (1) and inputs (10+), negative steps, clamping, int64 extremes") {
  const Tensor x = iota_f({3, 4});
  auto slice = [&](std::vector<int64_t> starts, std::vector<int64_t> ends,
                   std::vector<int64_t> axes, std::vector<int64_t> steps) {
    const auto n = static_cast<int64_t>(starts.size());
    return run1({"Slice",
                 {x, make<int64_t>({n}, starts), make<int64_t>({n}, ends), make<int64_t>({n}, axes),
                  make<int64_t>({n}, steps)}});
  };
  CHECK(elements<float>(slice({1}, {3}, {1}, {1})) == std::vector<float>{1, 2, 5, 6, 9, 10});
  CHECK(elements<float>(slice({-1}, {INT64_MIN}, {1}, {-1})) ==
        std::vector<float>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
  CHECK(elements<float>(slice({0, 3}, {INT64_MAX, 0}, {0, 1}, {2, -2})) ==
        std::vector<float>{3, 1, 11, 9});
  CHECK(slice({10}, {20}, {0}, {1}).shape() == Shape{0, 4});
  CHECK(slice({-100}, {100}, {-2}, {INT64_MAX}).shape() == Shape{1, 4});
  CHECK(elements<float>(run1({"Slice", {x}, "starts = [1], ends = [2], axes = [1]", 1})) ==
        std::vector<float>{1, 5, 9});
  CHECK(run1({"Slice", {x, make<int64_t>({1}, {1}), make<int64_t>({1}, {2})}, "", 10}).shape() ==
        Shape{1, 4});
  CHECK(elements<int32_t>(run1({"Slice",
                                {make<int32_t>({4}, {1, 2, 3, 4}), make<int32_t>({1}, {-3}),
                                 make<int32_t>({1}, {-1})}})) == std::vector<int32_t>{2, 3});
  CHECK(op_error({"Slice",
                  {x, make<int64_t>({1}, {0}), make<int64_t>({1}, {1}), make<int64_t>({1}, {0}),
                   make<int64_t>({1}, {0})}})
            .find("steps[0] is 0") != std::string::npos);
  CHECK(op_error({"Slice",
                  {x, make<int64_t>({1}, {0}), make<int64_t>({1}, {1}), make<int64_t>({1}, {2})}})
            .find("out of range") != std::string::npos);
}

TEST_CASE("DepthToSpace (DCR, CRD) and SpaceToDepth invert each other") {
  const Tensor x = iota_f({1, 8, 2, 3});
  for (const char* mode : {"DCR", "CRD"}) {
    CAPTURE(mode);
    const Tensor d =
        run1({"DepthToSpace", {x}, std::string("blocksize = 2, mode = \"") + mode + "\""});
    CHECK(d.shape() == Shape{1, 2, 4, 6});
    if (std::string(mode) == "DCR")
      CHECK(elements<float>(run1({"SpaceToDepth", {d}, "blocksize = 2"})) == elements<float>(x));
  }
  const Tensor crd =
      run1({"DepthToSpace", {iota_f({1, 4, 1, 1})}, "blocksize = 2, mode = \"CRD\""});
  CHECK(elements<float>(crd) == std::vector<float>{0, 1, 2, 3});
  const Tensor dcr = run1({"DepthToSpace", {iota_f({1, 8, 1, 1})}, "blocksize = 2"});
  CHECK(elements<float>(dcr) == std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7});
  CHECK(op_error({"DepthToSpace", {iota_f({1, 6, 1, 1})}, "blocksize = 2"}).find("not divisible") !=
        std::string::npos);
  CHECK(op_error({"SpaceToDepth", {iota_f({1, 1, 3, 2})}, "blocksize = 2"}).find("not divisible") !=
        std::string::npos);
}
