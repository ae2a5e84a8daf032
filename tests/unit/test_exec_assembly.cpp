// SPDX-License-Identifier: Apache-2.0
// Concatenations made in place (core/exec/assembly.h): which ones planning takes, and that the
// outputs are the concatenations whatever the producers did with the regions they were given.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/exec/session.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

// 16 floats: one 64-byte region.
constexpr int64_t kChannels = 16;

std::vector<float> ramp(int64_t n, float from) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = from + static_cast<float>(i) * 0.5f;
  return v;
}

std::vector<float> negated(std::vector<float> v) {
  for (float& f : v) f = -f;
  return v;
}

std::vector<float> joined(const std::vector<std::vector<float>>& parts) {
  std::vector<float> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

std::vector<std::string> dims(std::vector<int64_t> d) {
  std::vector<std::string> s;
  for (int64_t v : d) s.push_back(std::to_string(v));
  return s;
}

onnx::NodeProto& concat(ModelBuilder& b, const std::vector<std::string>& inputs,
                        const std::string& output, int64_t axis = 1) {
  auto& n = b.node("Concat", inputs, {output}, output);
  set_attr(n, "axis", axis);
  return n;
}

struct Outcome {
  std::vector<std::vector<float>> outputs;
  SessionStats stats;
};

Outcome run_model(const Model& m, const std::vector<std::pair<std::string, Value>>& feeds,
                  int threads, bool assemble) {
  SessionOptions o;
  o.threads = threads;
  if (!assemble) o.disabled_passes = {"assemble-concat"};
  Session s(m, o);
  Outcome r;
  for (const Value& v : s.run(feeds)) r.outputs.push_back(values_of(v));
  r.stats = s.stats();
  return r;
}

// Runs with the concatenations assembled and not, on one and two threads: every output the
// same as `expected` each time. Returns the stats of the assembled plan.
SessionStats check_outputs(const Model& m, const std::vector<std::pair<std::string, Value>>& feeds,
                           const std::vector<std::vector<float>>& expected) {
  SessionStats stats;
  for (int threads : {1, 2})
    for (bool assemble : {true, false}) {
      CAPTURE(threads);
      CAPTURE(assemble);
      const Outcome r = run_model(m, feeds, threads, assemble);
      REQUIRE(r.outputs.size() == expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        CHECK(r.outputs[i] == expected[i]);
      }
      if (assemble) stats = r.stats;
      if (!assemble) CHECK(r.stats.assembled == 0);
    }
  return stats;
}

}  // namespace

TEST_CASE("producers write into the concatenation, nested ones too, read before and after") {
  // c1 = [-x, relu(x)], c2 = [c1, |x|]; c1 is also read by a node after c2.
  ModelBuilder b;
  b.input("x", 1, dims({1, kChannels, 1, 1}));
  b.node("Neg", {"x"}, {"n"});
  b.node("Relu", {"x"}, {"r"});
  concat(b, {"n", "r"}, "c1");
  b.node("Abs", {"x"}, {"a"});
  concat(b, {"c1", "a"}, "c2");
  b.node("Add", {"c1", "c1"}, {"twice"});
  b.output("c2", 1, dims({1, 3 * kChannels, 1, 1}));
  b.output("twice", 1, dims({1, 2 * kChannels, 1, 1}));
  b.output("n", 1, dims({1, kChannels, 1, 1}));
  const Model m = b.build();

  const std::vector<float> x = ramp(kChannels, -4);
  std::vector<float> relu = x, abs = x, twice;
  for (float& f : relu) f = f > 0 ? f : 0;
  for (float& f : abs) f = f < 0 ? -f : f;
  const std::vector<float> c1 = joined({negated(x), relu});
  for (float f : c1) twice.push_back(f + f);
  const SessionStats s = check_outputs(m, {{"x", Value(floats({1, kChannels, 1, 1}, x))}},
                                       {joined({c1, abs}), twice, negated(x)});
  // n is a graph output: made apart and copied; r, a and c1 in place.
  CHECK(s.assembled == 2);
  CHECK(s.placed_inputs == 3);
}

TEST_CASE("inputs that cannot be placed are copied: graph inputs, constants, repeats, views") {
  // [x, -x, -x, w, identity(-x)] with w an initializer: only the first -x is made in place.
  ModelBuilder b;
  b.input("x", 1, dims({1, kChannels}));
  b.initializer("w", {1, kChannels}, ramp(kChannels, 100));
  b.node("Neg", {"x"}, {"n"});
  b.node("Identity", {"n"}, {"i"});
  concat(b, {"x", "n", "n", "w", "i"}, "y");
  b.output("y", 1, dims({1, 5 * kChannels}));
  const Model m = b.build();
  const std::vector<float> x = ramp(kChannels, 1);
  const SessionStats s =
      check_outputs(m, {{"x", Value(floats({1, kChannels}, x))}},
                    {joined({x, negated(x), negated(x), ramp(kChannels, 100), negated(x)})});
  CHECK(s.assembled == 1);
  CHECK(s.placed_inputs == 2);  // n, and i (whose kernel hands n on: copied at the Concat)
}

TEST_CASE("concatenations are assembled only where each input is one aligned block") {
  SUBCASE("regions off the 64-byte boundary") {
    ModelBuilder b;
    b.input("x", 1, dims({1, 3}));
    b.node("Neg", {"x"}, {"n"});
    b.node("Relu", {"x"}, {"r"});
    concat(b, {"n", "r"}, "y");
    b.output("y", 1, dims({1, 6}));
    const std::vector<float> x{-1, 2, -3};
    const SessionStats s =
        check_outputs(b.build(), {{"x", Value(floats({1, 3}, x))}}, {{1, -2, 3, 0, 2, 0}});
    CHECK(s.assembled == 0);
  }
  SUBCASE("a leading dim over 1: each input is several blocks") {
    ModelBuilder b;
    b.input("x", 1, dims({2, kChannels}));
    b.node("Neg", {"x"}, {"n"});
    concat(b, {"n", "x"}, "y");
    b.output("y", 1, dims({2, 2 * kChannels}));
    const std::vector<float> x = ramp(2 * kChannels, 0);
    std::vector<float> expected;
    for (int row = 0; row < 2; ++row) {
      const auto at = x.begin() + row * kChannels;
      const std::vector<float> part(at, at + kChannels);
      for (float f : part) expected.push_back(-f);
      expected.insert(expected.end(), part.begin(), part.end());
    }
    const SessionStats s =
        check_outputs(b.build(), {{"x", Value(floats({2, kChannels}, x))}}, {expected});
    CHECK(s.assembled == 0);
  }
  SUBCASE("a later axis with only 1s before it") {
    ModelBuilder b;
    b.input("x", 1, dims({1, 1, kChannels, 2}));
    b.node("Neg", {"x"}, {"n"});
    b.node("Abs", {"x"}, {"a"});
    concat(b, {"n", "a"}, "y", -2);
    b.output("y", 1, dims({1, 1, 2 * kChannels, 2}));
    const std::vector<float> x = ramp(2 * kChannels, -8);
    std::vector<float> abs = x;
    for (float& f : abs) f = f < 0 ? -f : f;
    const SessionStats s = check_outputs(b.build(), {{"x", Value(floats({1, 1, kChannels, 2}, x))}},
                                         {joined({negated(x), abs})});
    CHECK(s.assembled == 1);
    CHECK(s.placed_inputs == 2);
  }
  SUBCASE("unknown shapes") {
    ModelBuilder b;
    b.input("x", 1, {"1", "N"});
    b.node("Neg", {"x"}, {"n"});
    concat(b, {"n", "n"}, "y");
    b.output("y", 1, {"1", "M"});
    const std::vector<float> x = ramp(kChannels, 0);
    const SessionStats s = check_outputs(b.build(), {{"x", Value(floats({1, kChannels}, x))}},
                                         {joined({negated(x), negated(x)})});
    CHECK(s.assembled == 0);
  }
}

TEST_CASE("--no-fuse and --disable-pass assemble-concat leave concatenations to the kernel") {
  ModelBuilder b;
  b.input("x", 1, dims({1, kChannels}));
  b.node("Neg", {"x"}, {"n"});
  concat(b, {"n", "n"}, "y");
  b.output("y", 1, dims({1, 2 * kChannels}));
  const Model m = b.build();
  SessionOptions o;
  CHECK(Session(m, o).stats().assembled == 1);
  o.fuse = false;
  CHECK(Session(m, o).stats().assembled == 0);
  o.fuse = true;
  o.disabled_passes = {"assemble-concat"};
  CHECK(Session(m, o).stats().assembled == 0);
}
