// SPDX-License-Identifier: Apache-2.0
// Small models in the textual syntax that several test files share.
#pragma once

namespace onnxtool::test {

// x -> Add(w) -> Relu -> Mul(y) -> Neg -> out, a Sigmoid branch beside it, and an initializer
// nothing reads; every node named.
inline constexpr const char* kChainModel = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x, float[2,3] y) => (float[2,3] out, float[2,3] other)
<float[2,3] w = {1, -2, 3, -4, 5, -6}, float[3] unused = {7, 8, 9}>
{
  [add] a = Add (x, w)
  [relu] b = Relu (a)
  [mul] c = Mul (b, y)
  [neg] out = Neg (c)
  [sig] other = Sigmoid (x)
}
)";

}  // namespace onnxtool::test
