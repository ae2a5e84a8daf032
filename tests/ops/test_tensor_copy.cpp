// SPDX-License-Identifier: Apache-2.0
// The strided block copy the data-movement kernels are built on, against its plain reference
// loop; and the hot kernels (Transpose, Concat, Gather, Slice, Pad, Resize, Tile, Expand) on
// tensors large enough to be split over threads, against the same kernels run on one thread.
#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "ops/onnx/tensor_common.h"
#include "tests/ops/test_tensor_support.h"

using namespace onnxtool;
using namespace onnxtool::ops;
using namespace onnxtool::tensor_test;

namespace {

Tensor random_tensor(DataType type, Shape shape, std::mt19937& rng) {
  Tensor t(type, std::move(shape));
  if (type == DataType::string) {
    for (auto& s : t.mutable_strings()) s = std::to_string(rng() % 1000);
    return t;
  }
  const std::size_t bytes = t.nbytes();
  std::byte* p = t.mutable_raw();
  for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<std::byte>(rng() & 0xff);
  return t;
}

// Copies a random box of `src` through random (maybe negative or zero) strides, both ways.
void check_random_copy(DataType type, std::mt19937& rng) {
  const std::size_t rank = 1 + rng() % 4;
  Shape src_shape, box;
  for (std::size_t k = 0; k < rank; ++k) {
    src_shape.push_back(1 + static_cast<int64_t>(rng() % 5));
    box.push_back(1 + static_cast<int64_t>(rng() % static_cast<unsigned>(src_shape.back())));
  }
  const Tensor src = random_tensor(type, src_shape, rng);
  const auto s = contiguous_strides(src_shape);
  Layout from;
  for (std::size_t k = 0; k < rank; ++k) {
    switch (rng() % 3) {
      case 0:  // forward
        from.strides.push_back(s[k]);
        break;
      case 1:  // reversed: start at the box's last element
        from.strides.push_back(-s[k]);
        from.offset += (box[k] - 1) * s[k];
        break;
      default:  // broadcast
        from.strides.push_back(0);
        break;
    }
  }
  const Layout to{0, contiguous_strides(box)};
  Tensor fast(type, box), ref(type, box);
  strided_copy(src, from, fast, to, box);
  strided_copy_reference(src, from, ref, to, box);
  REQUIRE(texts(fast) == texts(ref));
}

}  // namespace

TEST_CASE("strided_copy agrees with the reference loop for every element width and layout") {
  std::mt19937 rng(7);
  for (DataType t : {DataType::uint8, DataType::float16, DataType::float32, DataType::int64,
                     DataType::complex128, DataType::string, DataType::int4, DataType::boolean,
                     DataType::float8e5m2})
    for (int i = 0; i < 200; ++i) check_random_copy(t, rng);
}

TEST_CASE("strided_copy merges contiguous dims and handles empty and scalar shapes") {
  const Tensor x = iota_f({2, 3, 4});
  Tensor y(DataType::float32, {2, 3, 4});
  strided_copy(x, Layout{0, contiguous_strides(x.shape())}, y,
               Layout{0, contiguous_strides(y.shape())}, x.shape());
  CHECK(elements<float>(y) == elements<float>(x));
  Tensor empty(DataType::float32, {0, 3});
  strided_copy(x, Layout{0, {3, 1}}, empty, Layout{0, {3, 1}}, {0, 3});
  Tensor scalar(DataType::float32, {});
  strided_copy(x, Layout{5, {}}, scalar, Layout{0, {}}, {});
  CHECK(scalar.data<float>()[0] == 5.0f);
}

namespace {

// The same operator on one thread and on four: outputs identical byte for byte.
void check_threads_agree(Op op) {
  op.threads = 1;
  const auto one = run_op(op);
  op.threads = 4;
  const auto four = run_op(op);
  REQUIRE(one.size() == four.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].shape() == four[i].shape());
    CHECK(texts(one[i]) == texts(four[i]));
  }
}

}  // namespace

TEST_CASE("the hot data-movement kernels give the same bytes on one thread and on four") {
  std::mt19937 rng(3);
  const Tensor big = random_tensor(DataType::float32, {8, 64, 48, 40}, rng);
  const Tensor idx = make<int64_t>({5}, {3, 0, 63, -1, 7});
  check_threads_agree({"Transpose", {big}, "perm = [0, 2, 3, 1]"});
  check_threads_agree({"Transpose", {big}, ""});
  check_threads_agree({"Concat", {big, big}, "axis = 2"});
  // Batch 1 along the channels: one long row per input, copied in pieces across the threads.
  const Tensor image = random_tensor(DataType::float32, {1, 64, 48, 40}, rng);
  check_threads_agree(
      {"Concat", {image, random_tensor(DataType::float32, {1, 40, 48, 40}, rng)}, "axis = 1"});
  check_threads_agree({"Gather", {big, idx}, "axis = 1"});
  check_threads_agree({"Slice",
                       {big, make<int64_t>({2}, {1, -1}), make<int64_t>({2}, {60, 0}),
                        make<int64_t>({2}, {1, 3}), make<int64_t>({2}, {2, -1})}});
  check_threads_agree(
      {"Pad", {big, make<int64_t>({8}, {0, 1, 2, 3, 0, 3, 2, 1})}, "mode = \"reflect\""});
  check_threads_agree({"Pad", {big, make<int64_t>({8}, {0, 1, 2, 3, 0, 3, 2, 1})}});
  check_threads_agree({"Tile", {big, make<int64_t>({4}, {1, 2, 1, 2})}});
  check_threads_agree(
      {"Expand",
       {random_tensor(DataType::float32, {64, 1, 40}, rng), make<int64_t>({4}, {4, 64, 48, 40})}});
  check_threads_agree(
      {"Resize", {big, Tensor(), make<float>({4}, {1, 1, 2, 1.5f})}, "mode = \"linear\""});
  check_threads_agree(
      {"Resize", {big, Tensor(), make<float>({4}, {1, 1, 0.5f, 2})}, "mode = \"nearest\""});
  check_threads_agree(
      {"Resize", {big, Tensor(), make<float>({4}, {1, 1, 0.75f, 0.5f})}, "mode = \"cubic\""});
  check_threads_agree({"Split", {big}, "axis = 1", 21, 2});
}

// Float32 linear and cubic Resize of the last two axes goes plane by plane (resize_float_planes),
// the same sums in double as the general passes: its output is, bit for bit, the float64
// Resize's (which takes the general passes) rounded to float, for the coordinate modes, cubic
// with exclude_outside, antialiased downscales, and one axis kept.
TEST_CASE("Resize of float planes gives the general passes' values rounded once") {
  std::mt19937 rng(5);
  const Tensor x = random_tensor(DataType::float32, {2, 3, 13, 17}, rng);
  const Tensor x64 = run1({"Cast", {x}, "to = 11"});
  const std::vector<std::pair<std::vector<float>, std::string>> cases = {
      {{1, 1, 2, 2}, "mode = \"linear\""},
      {{1, 1, 1.7f, 0.6f}, "mode = \"linear\", coordinate_transformation_mode = \"align_corners\""},
      {{1, 1, 2, 3}, "mode = \"cubic\", coordinate_transformation_mode = \"asymmetric\""},
      {{1, 1, 0.5f, 1.5f}, "mode = \"cubic\", exclude_outside = 1"},
      {{1, 1, 0.4f, 0.3f}, "mode = \"linear\", antialias = 1"},
      {{1, 1, 1, 2.5f}, "mode = \"linear\""},
      {{1, 1, 2.5f, 1},
       "mode = \"cubic\", coordinate_transformation_mode = \"pytorch_half_pixel\""},
  };
  for (const auto& entry : cases) {
    const std::vector<float>& scales = entry.first;
    const std::string& attrs = entry.second;  // not a structured binding: CAPTURE reads it
    CAPTURE(attrs);
    const Tensor s = make<float>({4}, scales);
    const Tensor y = run1({"Resize", {x, Tensor(), s}, attrs, 19});
    const Tensor y64 = run1({"Resize", {x64, Tensor(), s}, attrs, 19});
    REQUIRE(y.shape() == y64.shape());
    const Tensor rounded = run1({"Cast", {y64}, "to = 1"});
    CHECK(std::memcmp(y.data<float>(), rounded.data<float>(),
                      static_cast<std::size_t>(y.numel()) * sizeof(float)) == 0);
  }
}

// Float transposes whose innermost output dim walks the input at a stride while another dim is
// contiguous there go as 2-D transposes in 8x8 blocks (copy_as_transposes): on sizes off the
// blocks, one block or many, on one thread and on three, every element is where the reference
// loop puts it.
TEST_CASE("Transpose of floats by 2-D blocks agrees with the reference loop") {
  struct Case {
    Shape shape;
    std::vector<int64_t> perm;
  };
  const std::vector<Case> cases = {{{129, 67}, {1, 0}},
                                   {{8, 8}, {1, 0}},
                                   {{1, 13, 9, 70}, {0, 2, 3, 1}},
                                   {{2, 70, 9, 13}, {0, 3, 1, 2}},
                                   {{3, 50, 17}, {2, 0, 1}},
                                   {{1, 128, 12, 64}, {0, 2, 3, 1}},
                                   {{9, 8, 300}, {2, 1, 0}},
                                   {{7, 1000}, {1, 0}}};
  std::mt19937 rng(11);
  for (const Case& c : cases) {
    const Tensor x = random_tensor(DataType::float32, c.shape, rng);
    const auto in_strides = contiguous_strides(c.shape);
    Shape out_shape;
    Layout from{0, {}};
    std::string perm = "perm = [";
    for (std::size_t k = 0; k < c.perm.size(); ++k) {
      const auto p = static_cast<std::size_t>(c.perm[k]);
      out_shape.push_back(c.shape[p]);
      from.strides.push_back(in_strides[p]);
      perm += (k ? ", " : "") + std::to_string(c.perm[k]);
    }
    perm += "]";
    Tensor ref(DataType::float32, out_shape);
    strided_copy_reference(x, from, ref, Layout{0, contiguous_strides(out_shape)}, out_shape);
    for (int threads : {1, 3}) {
      CAPTURE(perm);
      CAPTURE(threads);
      Op op{"Transpose", {x}, perm};
      op.threads = threads;
      const Tensor y = run1(op);
      CHECK(y.shape() == out_shape);
      CHECK(std::memcmp(y.raw(), ref.raw(), ref.nbytes()) == 0);
    }
  }
}

// Concat lists every input's rows in pieces of at most 64 KiB and hands them all to the threads
// at once: inputs of sizes off the pieces (and a zero-size one), batch 1 and batch 3, every
// element lands where the plain index arithmetic puts it, on one thread and on four.
TEST_CASE("Concat in pieces puts every element where the index arithmetic says") {
  std::mt19937 rng(5);
  for (int64_t batch : {1, 3})
    for (int64_t axis : {1, 2}) {
      const std::vector<Shape> shapes = {
          {batch, 33, 41, 17}, {batch, 1, 41, 17}, {batch, 0, 41, 17}, {batch, 70, 41, 17}};
      std::vector<Tensor> xs;
      for (Shape s : shapes) {
        if (axis == 2) std::swap(s[1], s[2]);
        xs.push_back(random_tensor(DataType::float32, s, rng));
      }
      for (int threads : {1, 4}) {
        CAPTURE(batch);
        CAPTURE(axis);
        CAPTURE(threads);
        Op op{"Concat", xs, "axis = " + std::to_string(axis)};
        op.threads = threads;
        const Tensor y = run_op(op)[0];
        const int64_t outer = axis == 1 ? batch : batch * 41;
        const int64_t inner = axis == 1 ? 41 * 17 : 17;
        int64_t wrong = 0, at = 0;
        const int64_t row = y.shape()[static_cast<std::size_t>(axis)] * inner;
        for (const Tensor& x : xs) {
          const int64_t block = x.shape()[static_cast<std::size_t>(axis)] * inner;
          for (int64_t r = 0; r < outer; ++r)
            for (int64_t e = 0; e < block; ++e)
              wrong += std::memcmp(&y.data<float>()[r * row + at + e],
                                   &x.data<float>()[r * block + e], sizeof(float)) != 0;
          at += block;
        }
        CHECK(wrong == 0);
        CHECK(at == row);
      }
    }
}
