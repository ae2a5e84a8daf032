// SPDX-License-Identifier: Apache-2.0
// The element-wise loops of ops/onnx/elementwise.h: the fast path (collapsed dims, rows with
// stride 0 or 1, split into chunks that start mid-row) against the reference path (offsets from
// each element's multi-index), on random broadcasting shapes; and how plans collapse dims.
#include <doctest/doctest.h>

#include <random>

#include "onnx.pb.h"
#include "ops/onnx/elementwise.h"

using namespace onnxtool;
namespace ew = onnxtool::ops::ew;

namespace {

// Runs parallel_for bodies in small, odd-sized chunks (out of order), so that rows are cut at
// every possible place.
class ChunkingContext final : public KernelContext {
 public:
  explicit ChunkingContext(int64_t chunk) : attrs_(node_, nullptr), chunk_(chunk) {}
  const onnx::NodeProto& node() const override { return node_; }
  const OpVersion& schema() const override { return schema_; }
  int64_t opset() const override { return 21; }
  const AttrView& attrs() const override { return attrs_; }
  std::size_t num_inputs() const override { return 0; }
  bool has_input(std::size_t) const override { return false; }
  const Value& input_value(std::size_t) const override { return none_; }
  std::size_t num_outputs() const override { return 0; }
  bool has_output(std::size_t) const override { return false; }
  Tensor& output(std::size_t, DataType type, Shape shape) override {
    out_ = Tensor(type, std::move(shape));
    return out_;
  }
  void set_output(std::size_t, Value) override {}
  int threads() const override { return 1; }
  void parallel_for(int64_t n, int64_t,
                    const std::function<void(int64_t, int64_t)>& fn) const override {
    for (int64_t b = (n - 1) / chunk_ * chunk_; b >= 0; b -= chunk_) fn(b, std::min(n, b + chunk_));
  }
  std::vector<Value> run_graph(const onnx::GraphProto&, const std::vector<Value>&) override {
    return {};
  }

 protected:
  const KernelState* prepared_state() const override { return nullptr; }

 private:
  onnx::NodeProto node_;
  OpVersion schema_;
  AttrView attrs_;
  Value none_;
  Tensor out_;
  int64_t chunk_;
};

// A shape that broadcasts to `out`: some leading dims dropped, some dims set to 1.
Shape broadcastable(const Shape& out, std::mt19937& rng) {
  std::uniform_int_distribution<std::size_t> drop(0, out.size());
  Shape s(out.begin() + static_cast<std::ptrdiff_t>(drop(rng) % (out.size() + 1)), out.end());
  for (auto& d : s)
    if (rng() % 3 == 0) d = 1;
  return s;
}

int64_t count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

template <class T>
std::vector<T> randoms(int64_t n, std::mt19937& rng) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(rng() % 1000) - static_cast<T>(500);
  return v;
}

}  // namespace

TEST_CASE("the fast binary loop agrees with the reference on random broadcasts") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    Shape out(rng() % 6);
    for (auto& d : out) d = 1 + static_cast<int64_t>(rng() % 4);
    const Shape sa = broadcastable(out, rng), sb = broadcastable(out, rng);
    const std::array<const Shape*, 2> shapes{&sa, &sb};
    ChunkingContext ctx(1 + static_cast<int64_t>(rng() % 9));
    const Shape o = ew::broadcast_shapes(ctx, shapes);
    CAPTURE(shape_to_string(sa));
    CAPTURE(shape_to_string(sb));
    const auto a = randoms<float>(count(sa), rng);
    const auto b = randoms<int64_t>(count(sb), rng);
    std::vector<float> fast(static_cast<std::size_t>(count(o))), ref(fast.size());
    auto f = [](float x, int64_t y) { return x * 3 + static_cast<float>(y); };
    ew::binary_loop(ctx, ew::plan_broadcast(o, shapes), a.data(), b.data(), fast.data(), f, 1);
    ew::binary_reference(o, sa, sb, a.data(), b.data(), ref.data(), f);
    REQUIRE(fast == ref);
  }
}

TEST_CASE("the three-input walk agrees with the reference offsets") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    Shape out(1 + rng() % 5);
    for (auto& d : out) d = 1 + static_cast<int64_t>(rng() % 3);
    const std::array<Shape, 3> s{broadcastable(out, rng), broadcastable(out, rng),
                                 broadcastable(out, rng)};
    const std::array<const Shape*, 3> shapes{&s[0], &s[1], &s[2]};
    ChunkingContext ctx(1 + static_cast<int64_t>(rng() % 5));
    const Shape o = ew::broadcast_shapes(ctx, shapes);
    const ew::Broadcast p = ew::plan_broadcast(o, shapes);
    std::vector<std::array<int64_t, 3>> seen(static_cast<std::size_t>(p.numel));
    ctx.parallel_for(p.numel, 1, [&](int64_t begin, int64_t end) {
      ew::walk_rows<3>(
          p, begin, end, [&](const std::array<int64_t, 3>& off, int64_t at, int64_t n) {
            for (int64_t i = 0; i < n; ++i)
              for (std::size_t k = 0; k < 3; ++k)
                seen[static_cast<std::size_t>(at + i)][k] = off[k] + i * p.inner_stride(k);
          });
    });
    for (int64_t i = 0; i < p.numel; ++i)
      REQUIRE(seen[static_cast<std::size_t>(i)] == ew::reference_offsets<3>(o, shapes, i));
  }
}

TEST_CASE("plans collapse dims so the common cases are single rows") {
  auto plan = [](const Shape& out, const Shape& a, const Shape& b) {
    const std::array<const Shape*, 2> shapes{&a, &b};
    return ew::plan_broadcast(out, shapes);
  };
  // Same shape: one contiguous row.
  const auto same = plan({2, 3, 4}, {2, 3, 4}, {2, 3, 4});
  CHECK(same.dims == std::vector<int64_t>{24});
  CHECK(same.inner_stride(0) == 1);
  CHECK(same.inner_stride(1) == 1);
  // A scalar: one row, the scalar's stride 0.
  const auto scalar = plan({2, 3, 4}, {2, 3, 4}, {});
  CHECK(scalar.dims == std::vector<int64_t>{24});
  CHECK(scalar.inner_stride(1) == 0);
  // A bias per row ([N,C] + [C]): rows of C, the bias restarting each row.
  const auto row = plan({8, 5}, {8, 5}, {5});
  CHECK(row.dims == std::vector<int64_t>{8, 5});
  CHECK(row.strides[1] == std::vector<int64_t>{0, 1});
  // Per channel ([N,C,H,W] + [C,1,1]): H and W merge into rows where the channel is constant.
  const auto channel = plan({2, 3, 4, 5}, {2, 3, 4, 5}, {3, 1, 1});
  CHECK(channel.dims == std::vector<int64_t>{2, 3, 20});
  CHECK(channel.strides[1] == std::vector<int64_t>{0, 1, 0});
  // A scalar output.
  const auto one = plan({}, {}, {});
  CHECK(one.dims == std::vector<int64_t>{1});
  CHECK(one.numel == 1);
}

TEST_CASE("broadcast_shapes names every shape when they do not broadcast") {
  ChunkingContext ctx(4);
  const Shape a{2, 3}, b{3}, c{4};
  const std::array<const Shape*, 3> shapes{&a, &b, &c};
  try {
    ew::broadcast_shapes(ctx, shapes);
    FAIL("expected a failure");
  } catch (const KernelFailure& e) {
    CHECK(e.message.find("[2,3], [3] and [4] do not broadcast") != std::string::npos);
  }
}
