// SPDX-License-Identifier: Apache-2.0
// Type and shape inference of the element-wise families through the real engine: broadcasting
// with symbolic dims, the legacy rule, output element types (bool, Cast's target, Pow's base),
// contradictions reported at the node, and data propagation of shape values through Add, Sub,
// Mul, Div, Max, Min, Equal, Where, Cast and CastLike.
#include <doctest/doctest.h>

#include "tests/ops/test_elementwise_support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

// The type inferred for y in `y = OP <attrs> (inputs)`, with inputs declared in `decls`.
Inferred one(const std::string& decls, const std::string& node, int64_t opset = 21) {
  return infer("g (" + decls + ") => (y) {\n  [n] " + node + "\n}\n", opset);
}

std::string type_of(const std::string& decls, const std::string& node, int64_t opset = 21) {
  const Inferred r = one(decls, node, opset);
  CHECK_MESSAGE(r.messages().empty(), r.messages());
  return r.type("y");
}

std::string failure_of(const std::string& decls, const std::string& node, int64_t opset = 21) {
  return one(decls, node, opset).messages();
}

}  // namespace

TEST_CASE("broadcasting with symbolic dims: 1 stretches, equal symbols stay, others are unknown") {
  CHECK(type_of("float[N,3] a, float[1,3] b", "y = Add(a, b)") == "float[N,3]");
  CHECK(type_of("float[N,1] a, float[1,M] b", "y = Mul(a, b)") == "float[N,M]");
  CHECK(type_of("float[N] a, float[N] b", "y = Sub(a, b)") == "float[N]");
  CHECK(type_of("float[N] a, float[3] b", "y = Div(a, b)") == "float[3]");
  CHECK(type_of("float[N] a, float[M] b", "y = Add(a, b)") == "float[?]");
  CHECK(type_of("float[2,3,4] a, float b", "y = Add(a, b)") == "float[2,3,4]");
  CHECK(type_of("float a, float b", "y = Add(a, b)") == "float");
  CHECK(type_of("float[0,3] a, float[3] b", "y = Add(a, b)") == "float[0,3]");
  CHECK(type_of("float[] a, float[3] b", "y = Add(a, b)") == "float[]");
  CHECK(type_of("int64[N,3] a, int64[3] b", "y = Pow(a, b)") == "int64[N,3]");
  CHECK(type_of("int32[2] a, float[2,1] b", "y = Pow(a, b)") == "int32[2,2]");
  CHECK(type_of("uint8[4] a, uint8 b", "y = BitShift <direction = \"LEFT\"> (a, b)") == "uint8[4]");
  CHECK(type_of("int32[5] a, int32[1] b", "y = Mod <fmod = 1> (a, b)") == "int32[5]");
}

TEST_CASE("comparisons and logical operators give bool; Where takes X's type") {
  CHECK(type_of("float[N,3] a, float[3] b", "y = Less(a, b)") == "bool[N,3]");
  CHECK(type_of("string[2] a, string b", "y = Equal(a, b)") == "bool[2]");
  CHECK(type_of("bool[4,1] a, bool[5] b", "y = Xor(a, b)") == "bool[4,5]");
  CHECK(type_of("bool[N,1] c, float[3] x, float y0", "y = Where(c, x, y0)") == "float[N,3]");
  CHECK(type_of("float[2,3] x", "y = IsNaN(x)") == "bool[2,3]");
  CHECK(type_of("double[N] x", "y = IsInf <detect_negative = 0> (x)") == "bool[N]");
}

TEST_CASE("unary operators and activations keep type and shape") {
  CHECK(type_of("float16[N,C,8] x", "y = Sqrt(x)") == "float16[N,C,8]");
  CHECK(type_of("int8[3] x", "y = Abs(x)") == "int8[3]");
  CHECK(type_of("float[N,3,H,W] x, float[3,1,1] s", "y = PRelu(x, s)") == "float[N,3,H,W]");
  CHECK(type_of("float[N,3] x, float lo", "y = Clip(x, lo)") == "float[N,3]");
  CHECK(type_of("float[N] x", "y = Gelu <approximate = \"tanh\"> (x)") == "float[N]");
  CHECK(type_of("float[N,2] x", "y = Clip <min = 0.0> (x)", 6) == "float[N,2]");
}

TEST_CASE("variadic operators broadcast every input (opset 8 on), unify them before") {
  CHECK(type_of("float[N,1] a, float[3] b, float c", "y = Sum(a, b, c)") == "float[N,3]");
  CHECK(type_of("float[2,N] a", "y = Max(a)") == "float[2,N]");
  CHECK(type_of("float[2,N] a, float[2,3] b", "y = Mean(a, b)", 6) == "float[2,3]");
  CHECK(failure_of("float[2,3] a, float[3] b", "y = Sum(a, b)", 6).find("rank") !=
        std::string::npos);
}

TEST_CASE("the legacy rule: output is A's shape, B checked where axis puts it") {
  CHECK(type_of("float[2,3,4,5] a, float[3,4] b", "y = Add <broadcast = 1, axis = 1> (a, b)", 6) ==
        "float[2,3,4,5]");
  CHECK(type_of("float[2,3,4,5] a, float b", "y = Mul <broadcast = 1> (a, b)", 6) ==
        "float[2,3,4,5]");
  CHECK(type_of("float[2,N] a, float[M,3] b", "y = Sub(a, b)", 6) == "float[2,3]");
  CHECK(type_of("int32[N,4] a, int32[4] b", "y = Equal <broadcast = 1> (a, b)", 1) == "bool[N,4]");
  CHECK(failure_of("float[2,3] a, float[3,2] b", "y = Add(a, b)", 6).find("infer.failed") !=
        std::string::npos);
  CHECK(failure_of("float[2,3] a, float[4] b", "y = Add <broadcast = 1> (a, b)", 6)
            .find("does not match") != std::string::npos);
}

TEST_CASE("contradictions are reported at the node") {
  const std::string e = failure_of("float[2,3] a, float[4] b", "y = Add(a, b)");
  CHECK(e.find("infer.failed") != std::string::npos);
  CHECK(failure_of("float[2] a, int64[2] b", "y = Add(a, b)").find("type") != std::string::npos);
  CHECK(failure_of("float[2] x", "y = Cast <to = 99> (x)").find("not a tensor element type") !=
        std::string::npos);
  CHECK(failure_of("float[2] x", "y = Cast <to = 16> (x)", 9).find("cannot cast to") !=
        std::string::npos);
  CHECK(failure_of("uint8[2] x", "y = BitCast <to = 10> (x)", 26).find("bits") !=
        std::string::npos);
  CHECK(failure_of("float[2,3] x, float[4] s", "y = PRelu(x, s)").find("infer.failed") !=
        std::string::npos);
  CHECK(failure_of("float[3] x, float[2] lo", "y = Clip(x, lo)").find("scalar") !=
        std::string::npos);
  CHECK(failure_of("float[3] x", "y = Gelu <approximate = \"x\"> (x)").find("approximate") !=
        std::string::npos);
}

TEST_CASE("Cast, CastLike and BitCast take the target's element type and keep the shape") {
  CHECK(type_of("float[N,3] x", "y = Cast <to = 7> (x)") == "int64[N,3]");
  CHECK(type_of("float[N] x", "y = Cast <to = \"INT32\"> (x)", 1) == "int32[N]");
  CHECK(type_of("string[2] x", "y = Cast <to = 1> (x)") == "float[2]");
  CHECK(type_of("float[N,3] x, float16 t", "y = CastLike(x, t)") == "float16[N,3]");
  CHECK(type_of("int32[5] x", "y = BitCast <to = 1> (x)", 26) == "float[5]");
}

TEST_CASE("shape values propagate through arithmetic, Equal, Where and Cast") {
  const std::string model = R"(
g (float[N,3] x) => (int64[] y)
  <int64[1] one = {1}, int64[2] two = {2, 2}, int64 minus = {-1}, bool[2] pick = {1, 0}>
{
  s = Shape(x)
  plus = Add(s, one)
  minus1 = Sub(s, one)
  times = Mul(s, two)
  half = Div(s, two)
  lo = Min(s, two)
  hi = Max(s, two)
  eq = Equal(s, minus)
  fixed = Where(eq, one, s)
  picked = Where(pick, s, two)
  f = Cast <to = 1> (s)
  back = Cast <to = 7> (f)
  narrow = Cast <to = 3> (plus)
  like = CastLike(s, one)
  y = Identity(back)
}
)";
  const Inferred r = infer(model);
  CHECK(r.values("s") == "[N,3]");
  CHECK(r.values("plus") == "[N+1,4]");
  CHECK(r.values("minus1") == "[N-1,2]");
  CHECK(r.values("times") == "[N*2,6]");
  CHECK(r.values("half") == "[floor(N/2),1]");
  CHECK(r.values("lo") == "[min(2,N),2]");
  CHECK(r.values("hi") == "[max(2,N),3]");
  CHECK(r.values("eq") == "[0,0]");
  CHECK(r.values("fixed") == "[N,3]");
  CHECK(r.values("picked") == "[N,2]");
  CHECK(r.values("f") == "[N,3]");
  CHECK(r.values("back") == "[N,3]");
  CHECK(r.values("narrow") == "[?,4]");  // int8 cannot hold every size
  CHECK(r.values("like") == "[N,3]");
  CHECK(r.type("eq") == "bool[2]");
  CHECK(r.type("narrow") == "int8[2]");
}

TEST_CASE("float shape values do not divide, and known values wrap when narrowed") {
  const std::string model = R"(
g (float[6,300] x) => (float[] y)
  <float[2] two = {4.0, 4.0}>
{
  s = Shape(x)
  f = Cast <to = 1> (s)
  q = Div(f, two)
  small = Cast <to = 3> (s)
  y = Identity(q)
}
)";
  const Inferred r = infer(model);
  CHECK(r.values("f") == "[6,300]");
  CHECK(r.values("q") == "<none>");
  CHECK(r.values("small") == "[6,44]");
}
