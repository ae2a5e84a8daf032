// SPDX-License-Identifier: Apache-2.0
// The inference helpers operators build on (core/infer/helpers.h).
#include <doctest/doctest.h>

#include "core/infer/helpers.h"
#include "onnx.pb.h"

using namespace onnxtool;

namespace {
Dim S(const char* s) {
  return Dim::symbol(s);
}
Dim V(int64_t v) {
  return Dim::value(v);
}
std::string str(const Dims& d) {
  return dims_to_string(d);
}
std::string str(const std::optional<Dims>& d) {
  return d ? dims_to_string(*d) : "unranked";
}
}  // namespace

TEST_CASE("helpers: broadcasting with symbols") {
  CHECK(str(broadcast_shapes(Dims{S("N"), V(1), V(3)}, Dims{V(4), V(1)})) == "[N,4,3]");
  CHECK(str(broadcast_shapes(Dims{S("N")}, Dims{S("N")})) == "[N]");
  CHECK(str(broadcast_shapes(Dims{S("N")}, Dims{S("M")})) == "[?]");
  CHECK(str(broadcast_shapes(Dims{S("N")}, Dims{V(5)})) == "[5]");
  CHECK(str(broadcast_shapes(Dims{Dim()}, Dims{V(1)})) == "[?]");
  CHECK(str(broadcast_shapes(Dims{}, Dims{V(2), V(3)})) == "[2,3]");
  CHECK_THROWS_AS(broadcast_shapes(Dims{V(2)}, Dims{V(3)}), InferFailure);
  std::vector<std::optional<Dims>> three{Dims{V(2), V(1)}, Dims{V(1), V(5)}, std::nullopt};
  CHECK_FALSE(broadcast_shapes(three).has_value());
  three.pop_back();
  CHECK(str(broadcast_shapes(three)) == "[2,5]");
  CHECK(str(broadcast_to(Dims{S("N"), V(3)}, Dims{V(3)})) == "[N,3]");
  CHECK_THROWS_AS(broadcast_to(Dims{V(2)}, Dims{V(3)}), InferFailure);
}

TEST_CASE("helpers: unify keeps what either knows, join what both agree on") {
  CHECK(unify_dim(S("N"), V(3)).value() == 3);
  CHECK(unify_dim(Dim(), S("N")) == S("N"));
  CHECK_THROWS_AS(unify_dim(V(2), V(3)), InferFailure);
  const Type a = Type::tensor(1, Dims{S("N"), V(3)});
  const Type b = Type::tensor(1, Dims{V(2), Dim()});
  CHECK(unify_types(a, b).to_string() == "float[2,3]");
  CHECK(join_types(a, b).to_string() == "float[?,?]");
  CHECK_FALSE(join_types(a, Type::tensor(1, Dims{V(1)})).has_shape());  // ranks differ
  CHECK(join_types(a, Type::tensor(7, Dims{S("N"), V(3)})).elem == 0);
  CHECK(join_types(a, Type()).is_unknown());
  CHECK_THROWS_AS(unify_types(a, Type::tensor(7)), InferFailure);
  CHECK_THROWS_AS(unify_types(a, Type::tensor(1, Dims{V(1)})), InferFailure);
  CHECK(unify_types(Type::sequence(Type::tensor(1)), Type::sequence(a)).to_string() ==
        "seq(float[N,3])");
}

TEST_CASE("helpers: axes, reductions, concatenation, matmul") {
  CHECK(normalize_axis(-1, 3) == 2);
  CHECK_THROWS_AS(normalize_axis(3, 3), InferFailure);
  const std::vector<int64_t> dup{0, -3};
  CHECK_THROWS_AS(normalize_axes(dup, 3), InferFailure);
  const Dims x{S("N"), V(3), V(4)};
  const std::vector<int64_t> axes{1};
  CHECK(str(reduce_shape(x, axes, true)) == "[N,1,4]");
  CHECK(str(reduce_shape(x, axes, false)) == "[N,4]");
  CHECK(str(reduce_shape(x, {}, false)) == "[]");
  CHECK(str(reduce_shape(x, {}, true, true)) == "[N,3,4]");
  const std::vector<Dims> parts{Dims{S("N"), V(2)}, Dims{S("N"), S("L")}};
  CHECK(str(concat_shapes(parts, 1)) == "[N,L+2]");
  CHECK(str(matmul_shape(Dims{S("B"), S("M"), V(4)}, Dims{V(4), V(5)})) == "[B,M,5]");
  CHECK(str(matmul_shape(Dims{V(4)}, Dims{V(4), V(5)})) == "[5]");
  CHECK(str(matmul_shape(Dims{V(3), V(4)}, Dims{V(4)})) == "[3]");
  CHECK_THROWS_AS(matmul_shape(Dims{V(3), V(4)}, Dims{V(5), V(2)}), InferFailure);
}

TEST_CASE("helpers: slicing known and symbolic dims") {
  CHECK(slice_length(V(10), 2, 8, 2).value() == 3);
  CHECK(slice_length(V(10), -3, INT64_MAX, 1).value() == 3);
  CHECK(slice_length(V(10), INT64_MAX, INT64_MIN, -1).value() == 10);
  CHECK(slice_length(V(10), 20, 30, 1).value() == 0);
  CHECK(slice_length(S("N"), 1, INT64_MAX, 1) == S("N") - V(1));
  CHECK(slice_length(S("N"), 0, -1, 1) == S("N") - V(1));
  CHECK(slice_length(S("N"), 0, INT64_MAX, 2) == ceil_div(S("N"), V(2)));
  CHECK(slice_length(S("N"), 0, 4, 1) == min_dim(S("N"), V(4)));
  CHECK(slice_length(S("N"), -1, INT64_MIN, -1) == S("N"));
  CHECK(slice_length(Dim(), 0, 4, 1).is_unknown());
  CHECK_THROWS_AS(slice_length(V(3), 0, 1, 0), InferFailure);
  CHECK(slice_indices(5, -1, -6, -2) == std::vector<int64_t>{4, 2, 0});
}

TEST_CASE("helpers: reshape targets with 0 and -1") {
  const Dims in{S("N"), V(3), V(4)};
  CHECK(str(reshape_shape(in, Dims{V(0), V(-1)})) == "[N,12]");
  CHECK(str(reshape_shape(in, Dims{V(-1), V(4)})) == "[N*3,4]");
  CHECK(str(reshape_shape(in, Dims{V(0), V(3), V(2), V(2)})) == "[N,3,2,2]");
  CHECK(str(reshape_shape(in, Dims{S("N"), V(-1)})) == "[N,12]");
  CHECK(str(reshape_shape(std::nullopt, Dims{V(2), V(-1)})) == "[2,?]");
  CHECK(str(reshape_shape(in, Dims{V(0), V(-1)}, true)) == "[0,?]");
  CHECK(str(reshape_shape(in, Dims{Dim(), V(-1)})) == "[?,?]");
  CHECK_THROWS_AS(reshape_shape(Dims{V(2), V(3)}, Dims{V(4), V(-1)}), InferFailure);
  CHECK_THROWS_AS(reshape_shape(in, Dims{V(-1), V(-1)}), InferFailure);
}

TEST_CASE("helpers: convolution and pooling output sizes") {
  CHECK(window_output_dim(V(224), 7, 2, 1, 3, 3, "NOTSET").value() == 112);
  CHECK(window_output_dim(V(5), 3, 1, 2, 0, 0, "NOTSET").value() == 1);
  CHECK(window_output_dim(V(7), 3, 2, 1, 0, 0, "VALID").value() == 3);
  CHECK(window_output_dim(V(7), 3, 2, 1, 0, 0, "SAME_UPPER").value() == 4);
  // ceil_mode: 5 with kernel 2 stride 2 gives 3 windows, the last one partial.
  CHECK(window_output_dim(V(5), 2, 2, 1, 0, 0, "NOTSET", true).value() == 3);
  CHECK(window_output_dim(V(5), 2, 2, 1, 0, 0, "NOTSET", false).value() == 2);
  CHECK(window_output_dim(S("H"), 3, 2, 1, 1, 1, "NOTSET") == ceil_div(S("H"), V(2)));
  CHECK(window_output_dim(S("H"), 3, 1, 1, 1, 1, "NOTSET") == S("H"));
  CHECK(window_output_dim(S("H"), 3, 1, 1, 0, 0, "NOTSET") == S("H") - V(2));
  CHECK(window_output_dim(Dim(), 3, 1, 1, 0, 0, "NOTSET").is_unknown());
  CHECK(conv_transpose_output_dim(V(3), 3, 2, 1, 0, 0, 0, "NOTSET").value() == 7);
  CHECK(conv_transpose_output_dim(S("H"), 2, 2, 1, 0, 0, 0, "NOTSET") == S("H") * V(2));
  CHECK(conv_transpose_output_dim(S("H"), 3, 2, 1, 0, 0, 0, "SAME_UPPER") == S("H") * V(2));

  onnx::NodeProto node;
  auto* k = node.add_attribute();
  k->set_name("kernel_shape");
  k->add_ints(3);
  k->add_ints(3);
  auto* s = node.add_attribute();
  s->set_name("strides");
  s->add_ints(2);
  AttrView attrs(node, nullptr);
  CHECK_THROWS_AS(window_params(attrs, 2), InferFailure);  // strides has 1 value, expected 2
  s->add_ints(2);
  const WindowParams p = window_params(attrs, 2);
  CHECK(p.pads == std::vector<int64_t>{0, 0, 0, 0});
  CHECK(str(window_output_dims(Dims{S("H"), V(9)}, p)) == "[ceil(H/2)-1,4]");
}

TEST_CASE("helpers: values and element types") {
  CHECK(str(*combine_values(Dims{S("N"), V(3)}, Dims{V(2)}, '*')) == "[N*2,6]");
  CHECK(str(*combine_values(Dims{V(7)}, Dims{V(2)}, '/')) == "[3]");
  CHECK(str(*combine_values(Dims{V(-7)}, Dims{V(2)}, '/')) == "[-3]");  // Div truncates
  CHECK(str(*combine_values(Dims{V(7), V(1)}, Dims{V(2), V(5)}, 'M')) == "[7,5]");
  CHECK_FALSE(combine_values(Dims{V(1), V(2)}, Dims{V(1), V(2), V(3)}, '+').has_value());
  CHECK(str(dims_from_values(Dims{V(-1), V(3)})) == "[?,3]");
  const Dims shape{S("N"), V(3), S("H"), S("W")};
  const std::vector<int64_t> last_two{-2, -1}, bad{4};
  CHECK(str(*gather_values(shape, last_two)) == "[H,W]");
  CHECK_FALSE(gather_values(shape, bad).has_value());
  CHECK(str(slice_values(shape, 0, 2, 1)) == "[N,3]");
  CHECK(str(slice_values(shape, -1, INT64_MIN, -1)) == "[W,H,3,N]");
  CHECK(range_length(V(0), V(10), V(3)).value() == 4);
  CHECK(range_length(V(10), V(0), V(1)).value() == 0);
  CHECK(range_length(V(0), S("L"), V(1)) == S("L"));
  CHECK(range_length(V(1), S("L"), V(2)) == ceil_div(S("L") - V(1), V(2)));
  CHECK(range_length(V(0), S("L"), S("D")).is_unknown());
  CHECK_THROWS_AS(range_length(V(0), V(1), V(0)), InferFailure);
  CHECK(known_values(Dims{V(1), V(2)}) == std::vector<int64_t>{1, 2});
  CHECK_FALSE(known_values(Dims{V(1), S("N")}).has_value());
  CHECK(elem_type_from_name("float") == 1);
  CHECK(elem_type_from_name("int64") == 7);
  CHECK(single_allowed_elem_type(TypeConstraint{"T1", {"tensor(int64)"}}) == 7);
  CHECK(single_allowed_elem_type(TypeConstraint{"T", {"tensor(int64)", "tensor(float)"}}) == 0);
  const Type seq = type_from_spec("seq(tensor(float))");
  CHECK((seq.kind == Type::Kind::sequence && seq.element().elem == 1));
  CHECK_FALSE(seq.element().has_shape());
  CHECK(type_spec(Type::map(8, Type::tensor(1))) == "map(string,tensor(float))");
  CHECK(type_spec(Type::tensor(0)).empty());
}
