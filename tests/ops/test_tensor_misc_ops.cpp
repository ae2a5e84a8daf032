// SPDX-License-Identifier: Apache-2.0
// Kernels of Pad (every mode, every version), Range, CumSum, CumProd, Resize, Upsample,
// Col2Im, CenterCropPad, and the kernels of Shape, Size, Constant and ConstantOfShape.
#include <doctest/doctest.h>

#include <climits>
#include <cmath>

#include "core/exec/session.h"
#include "onnx.pb.h"
#include "tests/ops/test_tensor_support.h"

using namespace onnxtool;
using namespace onnxtool::tensor_test;

namespace {
bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
std::vector<float> pad1(const std::string& mode, std::vector<int64_t> pads, int64_t opset = 21) {
  return elements<float>(run1({"Pad",
                               {make<float>({3}, {1, 2, 3}), make<int64_t>({2}, pads)},
                               "mode = \"" + mode + "\"",
                               opset}));
}
}  // namespace

TEST_CASE("Pad: constant, reflect, edge and wrap, cropping, axes, every version's arguments") {
  CHECK(pad1("constant", {2, 3}) == std::vector<float>{0, 0, 1, 2, 3, 0, 0, 0});
  CHECK(pad1("reflect", {2, 3}) == std::vector<float>{3, 2, 1, 2, 3, 2, 1, 2});
  CHECK(pad1("reflect", {5, 0}) == std::vector<float>{2, 1, 2, 3, 2, 1, 2, 3});
  CHECK(pad1("edge", {2, 3}) == std::vector<float>{1, 1, 1, 2, 3, 3, 3, 3});
  CHECK(pad1("wrap", {2, 3}) == std::vector<float>{2, 3, 1, 2, 3, 1, 2, 3});
  CHECK(pad1("constant", {-1, 1}) == std::vector<float>{2, 3, 0});
  CHECK(pad1("edge", {-2, 2}) == std::vector<float>{3, 3, 3});
  CHECK(has(op_error({"Pad",
                      {make<float>({3}, {1, 2, 3}), make<int64_t>({2}, {1, 1})},
                      "mode = \"wrap\"",
                      18}),
            "mode \"wrap\""));
  const Tensor sq = make<float>({2, 2}, {1, 2, 3, 4});
  CHECK(elements<float>(
            run1({"Pad", {sq, make<int64_t>({4}, {1, 1, 1, 1})}, "mode = \"reflect\""})) ==
        std::vector<float>{4, 3, 4, 3, 2, 1, 2, 1, 4, 3, 4, 3, 2, 1, 2, 1});
  CHECK(elements<float>(run1({"Pad", {sq, make<int64_t>({4}, {1, 0, 0, 1})}, "mode = \"edge\""})) ==
        std::vector<float>{1, 2, 2, 1, 2, 2, 3, 4, 4});
  CHECK(elements<float>(
            run1({"Pad", {sq, make<int64_t>({2}, {1, 1}), Tensor(), make<int64_t>({1}, {-1})}})) ==
        std::vector<float>{0, 1, 2, 0, 0, 3, 4, 0});
  CHECK(elements<float>(
            run1({"Pad", {sq, make<int64_t>({4}, {0, 1, 0, 0}), make<float>({}, {9})}})) ==
        std::vector<float>{9, 1, 2, 9, 3, 4});
  CHECK(elements<float>(run1({"Pad", {sq}, "pads = [0, 0, 1, 0], value = 1.5", 2})) ==
        std::vector<float>{1, 2, 3, 4, 1.5, 1.5});
  CHECK(elements<float>(run1({"Pad", {sq}, "paddings = [0, 1, 0, 0], mode = \"edge\"", 1})) ==
        std::vector<float>{1, 1, 2, 3, 3, 4});
  CHECK(elements<std::string>(run1({"Pad",
                                    {make<std::string>({1}, {"a"}), make<int64_t>({2}, {1, 1}),
                                     make<std::string>({}, {"-"})}})) ==
        std::vector<std::string>{"-", "a", "-"});
  CHECK(run1({"Pad", {Tensor(DataType::float32, {0}), make<int64_t>({2}, {1, 1})}}).shape() ==
        Shape{2});
  CHECK(has(
      op_error(
          {"Pad", {Tensor(DataType::float32, {0}), make<int64_t>({2}, {1, 1})}, "mode = \"edge\""}),
      "no elements"));
  CHECK(has(op_error({"Pad", {sq, make<int64_t>({2}, {1, 1})}}), "pads has 2 entries, expected 4"));
  CHECK(has(op_error({"Pad", {sq, make<int64_t>({4}, {-3, 0, 0, 0})}}), "negative"));
}

TEST_CASE("Range for integers and floats, negative delta, empty, errors") {
  CHECK(
      elements<int32_t>(run1(
          {"Range", {make<int32_t>({}, {10}), make<int32_t>({}, {4}), make<int32_t>({}, {-2})}})) ==
      std::vector<int32_t>{10, 8, 6});
  CHECK(elements<float>(run1(
            {"Range", {make<float>({}, {0}), make<float>({}, {1}), make<float>({}, {0.25f})}})) ==
        std::vector<float>{0, 0.25f, 0.5f, 0.75f});
  CHECK(run1({"Range", {make<int64_t>({}, {5}), make<int64_t>({}, {1}), make<int64_t>({}, {1})}})
            .shape() == Shape{0});
  const Tensor h =
      run1({"Range",
            {make<Float16>({}, {Float16{0x3c00}}), make<Float16>({}, {Float16{0x4400}}),
             make<Float16>({}, {Float16{0x3c00}})},
            "",
            27});
  CHECK(h.shape() == Shape{3});  // 1, 2, 3
  CHECK(h.data<Float16>()[2].bits == 0x4200);
  CHECK(has(
      op_error({"Range", {make<int64_t>({}, {0}), make<int64_t>({}, {3}), make<int64_t>({}, {0})}}),
      "delta is 0"));
}

TEST_CASE("CumSum and CumProd: exclusive, reverse, axis tensor types") {
  const Tensor x = make<double>({3}, {1, 2, 3});
  auto cum = [&](const char* op, const std::string& attrs) {
    return elements<double>(run1({op, {x, make<int32_t>({}, {0})}, attrs, 26}));
  };
  CHECK(cum("CumSum", "") == std::vector<double>{1, 3, 6});
  CHECK(cum("CumSum", "exclusive = 1") == std::vector<double>{0, 1, 3});
  CHECK(cum("CumSum", "reverse = 1") == std::vector<double>{6, 5, 3});
  CHECK(cum("CumSum", "exclusive = 1, reverse = 1") == std::vector<double>{5, 3, 0});
  CHECK(cum("CumProd", "") == std::vector<double>{1, 2, 6});
  CHECK(cum("CumProd", "exclusive = 1, reverse = 1") == std::vector<double>{6, 3, 1});
  CHECK(elements<int64_t>(run1({"CumSum", {iota_i64({2, 3}), make<int64_t>({}, {-1})}})) ==
        std::vector<int64_t>{0, 1, 3, 3, 7, 12});
  CHECK(has(op_error({"CumSum", {x, make<int64_t>({}, {1})}}), "out of range"));
}

TEST_CASE(
    "Resize: nearest, linear, sizes with axes, aspect ratio, crop and extrapolate, versions") {
  const Tensor v = make<float>({2}, {1, 2});
  CHECK(elements<float>(run1({"Resize", {v, Tensor(), make<float>({1}, {2})}})) ==
        std::vector<float>{1, 1, 2, 2});
  CHECK(elements<float>(
            run1({"Resize", {v, Tensor(), make<float>({1}, {2})}, "mode = \"linear\""})) ==
        std::vector<float>{1, 1.25f, 1.75f, 2});
  CHECK(
      elements<float>(run1({"Resize",
                            {v, make<float>({0}, {}), make<float>({1}, {2})},
                            "mode = \"linear\", coordinate_transformation_mode = \"align_corners\"",
                            11})) == std::vector<float>{1, 4.0f / 3, 5.0f / 3, 2});
  CHECK(elements<float>(run1({"Resize", {v, make<float>({1}, {2})}, "", 10})) ==
        std::vector<float>{1, 1, 2, 2});
  CHECK(elements<float>(
            run1({"Resize", {make<float>({4}, {1, 2, 3, 4}), make<float>({1}, {0.5f})}, "", 10})) ==
        std::vector<float>{1, 3});
  const Tensor img = iota_f({1, 1, 2, 2});
  CHECK(run1({"Resize", {img, Tensor(), Tensor(), make<int64_t>({1}, {4})}, "axes = [3]", 18})
            .shape() == Shape{1, 1, 2, 4});
  CHECK(run1({"Resize",
              {iota_f({1, 1, 2, 4}), Tensor(), Tensor(), make<int64_t>({2}, {4, 4})},
              "axes = [2, 3], keep_aspect_ratio_policy = \"not_larger\"",
              19})
            .shape() == Shape{1, 1, 2, 4});
  CHECK(run1({"Resize",
              {iota_f({1, 1, 2, 4}), Tensor(), Tensor(), make<int64_t>({2}, {4, 4})},
              "axes = [-2, -1], keep_aspect_ratio_policy = \"not_smaller\"",
              19})
            .shape() == Shape{1, 1, 4, 8});
  const std::vector<float> crop =
      elements<float>(run1({"Resize",
                            {make<float>({4}, {1, 2, 3, 4}), make<float>({2}, {0.4f, 1.2f}),
                             Tensor(), make<int64_t>({1}, {3})},
                            "mode = \"linear\", coordinate_transformation_mode = "
                            "\"tf_crop_and_resize\", extrapolation_value = 10.0"}));
  REQUIRE(crop.size() == 3);
  CHECK(crop[0] == doctest::Approx(2.2));
  CHECK(crop[1] == doctest::Approx(3.4));
  CHECK(crop[2] == 10.0f);
  CHECK(elements<std::string>(
            run1({"Resize",
                  {make<std::string>({2}, {"a", "b"}), Tensor(), make<float>({1}, {1.5f})},
                  "nearest_mode = \"ceil\""})) == std::vector<std::string>{"a", "b", "b"});
  CHECK(elements<uint8_t>(
            run1({"Resize",
                  {make<uint8_t>({2}, {10, 20}), Tensor(), make<float>({1}, {2})},
                  "mode = \"cubic\", coordinate_transformation_mode = \"asymmetric\""}))[0] == 10);
  CHECK(has(op_error({"Resize",
                      {make<std::string>({2}, {"a", "b"}), Tensor(), make<float>({1}, {2})},
                      "mode = \"linear\""}),
            "numeric"));
  CHECK(has(op_error({"Resize", {v, Tensor(), make<float>({1}, {2}), make<int64_t>({1}, {4})}}),
            "exactly one of scales and sizes"));
  CHECK(has(op_error({"Resize",
                      {v, Tensor(), make<float>({1}, {2})},
                      "coordinate_transformation_mode = \"tf_half_pixel_for_nn\"",
                      13}),
            "coordinate_transformation_mode"));
}

TEST_CASE("Upsample: attributes (1, 7) and input (9) scales, nearest and linear") {
  const Tensor v = make<float>({2}, {1, 2});
  CHECK(elements<float>(run1({"Upsample", {v, make<float>({1}, {2})}, "", 9})) ==
        std::vector<float>{1, 1, 2, 2});
  // Interpolated in double and rounded once, so compared within float precision.
  const std::vector<float> lin =
      elements<float>(run1({"Upsample", {v}, "scales = [3.0], mode = \"linear\"", 7}));
  const std::vector<double> want_lin{1, 1 + 1.0 / 3, 1 + 2.0 / 3, 2, 2, 2};
  REQUIRE(lin.size() == want_lin.size());
  for (std::size_t i = 0; i < lin.size(); ++i)
    CHECK(lin[i] == doctest::Approx(want_lin[i]).epsilon(1e-7));
  CHECK(run1({"Upsample", {iota_f({1, 1, 2, 2})}, "height_scale = 2.0, width_scale = 3.0", 1})
            .shape() == Shape{1, 1, 4, 6});
  CHECK(has(op_error({"Upsample", {v, make<float>({1}, {0.5f})}, "", 9}), "below 1"));
}

TEST_CASE("Col2Im adds overlapping blocks; CenterCropPad crops and pads around the centre") {
  Tensor cols(DataType::float32, {1, 4, 4});
  for (float& f : cols.mutable_span<float>()) f = 1;
  CHECK(elements<float>(
            run1({"Col2Im", {cols, make<int64_t>({2}, {3, 3}), make<int64_t>({2}, {2, 2})}})) ==
        std::vector<float>{1, 2, 1, 2, 4, 2, 1, 2, 1});
  Tensor cols9(DataType::float32, {1, 4, 9});
  for (float& f : cols9.mutable_span<float>()) f = 1;
  const Tensor padded = run1({"Col2Im",
                              {cols9, make<int64_t>({2}, {2, 2}), make<int64_t>({2}, {2, 2})},
                              "pads = [1, 1, 1, 1]"});
  CHECK(elements<float>(padded) == std::vector<float>{4, 4, 4, 4});
  CHECK(has(op_error({"Col2Im", {cols, make<int64_t>({2}, {4, 4}), make<int64_t>({2}, {2, 2})}}),
            "blocks"));
  CHECK(elements<float>(run1({"CenterCropPad", {iota_f({2, 3}), make<int64_t>({2}, {1, 5})}})) ==
        std::vector<float>{0, 0, 1, 2, 0});
  CHECK(elements<float>(
            run1({"CenterCropPad", {iota_f({2, 3}), make<int64_t>({1}, {2})}, "axes = [-1]"})) ==
        std::vector<float>{0, 1, 3, 4});
}

TEST_CASE("Shape, Size, ConstantOfShape kernels") {
  const Tensor x = iota_f({2, 3, 4});
  CHECK(elements<int64_t>(run1({"Shape", {x}})) == std::vector<int64_t>{2, 3, 4});
  CHECK(elements<int64_t>(run1({"Shape", {x}, "start = 1"})) == std::vector<int64_t>{3, 4});
  CHECK(elements<int64_t>(run1({"Shape", {x}, "start = -10, end = -1"})) ==
        std::vector<int64_t>{2, 3});
  CHECK(run1({"Shape", {x}, "start = 2, end = 1"}).shape() == Shape{0});
  CHECK(elements<int64_t>(run1({"Size", {x}})) == std::vector<int64_t>{24});
  CHECK(elements<int64_t>(run1({"Size", {Tensor(DataType::string, {0, 5})}})) ==
        std::vector<int64_t>{0});
  const Tensor c = run1({"ConstantOfShape", {make<int64_t>({2}, {2, 3})}, "value = int32[1] {7}"});
  CHECK(c.dtype() == DataType::int32);
  CHECK(elements<int32_t>(c) == std::vector<int32_t>(6, 7));
  const Tensor s = run1({"ConstantOfShape", {make<int64_t>({0}, {})}});
  CHECK(s.shape() == Shape{});
  CHECK(s.dtype() == DataType::float32);
  CHECK(
      has(op_error({"ConstantOfShape", {make<int64_t>({1}, {-1})}}), "shape[0] = -1 is negative"));
}

TEST_CASE("Constant: value, value_float(s), value_int(s), value_string(s), sparse_value") {
  auto constant = [](const std::string& attr) {
    return run_model("g () => (y) {\n  y = Constant <" + attr + "> ()\n}\n", {}, 21).at(0).tensor();
  };
  CHECK(elements<int64_t>(constant("value_ints = [1, 2]")) == std::vector<int64_t>{1, 2});
  CHECK(constant("value_int = 5").shape() == Shape{});
  CHECK(elements<float>(constant("value_float = 2.5")) == std::vector<float>{2.5f});
  CHECK(elements<float>(constant("value_floats = [1.0, 3.0]")) == std::vector<float>{1, 3});
  CHECK(elements<std::string>(constant("value_string = \"hi\"")) == std::vector<std::string>{"hi"});
  CHECK(elements<std::string>(constant("value_strings = [\"a\", \"b\"]")) ==
        std::vector<std::string>{"a", "b"});
  CHECK(elements<double>(constant("value = double[2] {1.5, 2.5}")) ==
        std::vector<double>{1.5, 2.5});

  // sparse_value through the protobuf API: a 2x3 tensor with two values at coordinates.
  auto proto = std::make_shared<onnx::ModelProto>();
  proto->set_ir_version(10);
  proto->add_opset_import()->set_version(21);
  auto* g = proto->mutable_graph();
  g->set_name("g");
  g->add_output()->set_name("y");
  auto* n = g->add_node();
  n->set_op_type("Constant");
  n->add_output("y");
  auto* a = n->add_attribute();
  a->set_name("sparse_value");
  a->set_type(onnx::AttributeProto::SPARSE_TENSOR);
  auto* sp = a->mutable_sparse_tensor();
  sp->add_dims(2);
  sp->add_dims(3);
  sp->mutable_values()->set_data_type(1);
  sp->mutable_values()->add_dims(2);
  sp->mutable_values()->add_float_data(7);
  sp->mutable_values()->add_float_data(8);
  sp->mutable_indices()->set_data_type(7);
  for (int64_t d : {2, 2}) sp->mutable_indices()->add_dims(d);
  for (int64_t i : {0, 1, 1, 2}) sp->mutable_indices()->add_int64_data(i);
  const Model m = model_from_proto(proto, "sparse.onnx", ".");
  Session session(m, {});
  CHECK(elements<float>(session.run({}).at(0).tensor()) == std::vector<float>{0, 7, 0, 0, 0, 8});
}
