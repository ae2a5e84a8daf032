// SPDX-License-Identifier: Apache-2.0
// The kernels' prepare step and the memory hooks, with a test-local registry: prepare runs once
// per node at planning and sees constants and inferred shapes; its failure is reported when the
// node runs, as the kernel's would be; scratch memory and uninitialised outputs go through the
// Storage allocator, which a program can replace.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>

#include "core/exec/kernel.h"
#include "core/exec/large_blocks.h"
#include "core/exec/session.h"
#include "core/registry/schema.h"
#include "core/types/tensor.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

const std::initializer_list<const char*> kFloat = {"tensor(float)"};

// What the Scale operator's prepare step saw, per node.
struct ScaleState {
  float factor = 1;
  bool factor_was_constant = false;
  std::optional<Shape> x_shape;
};

std::atomic<int> g_prepares{0};

ScaleState prepare_scale(PrepareContext& ctx) {
  ++g_prepares;
  ScaleState s;
  if (const Tensor* f = ctx.constant_tensor(1)) {
    s.factor = f->data<float>()[0];
    s.factor_was_constant = true;
  }
  s.x_shape = ctx.static_shape(0);
  return s;
}

// Y = X * factor; the factor from planning when it was a constant, else from the input. The
// output is left uninitialised and filled through a scratch buffer, element by element.
void scale_kernel(KernelContext& ctx, const ScaleState& s) {
  const Tensor& x = ctx.input(0);
  const float factor = s.factor_was_constant ? s.factor : ctx.input(1).data<float>()[0];
  float* tmp = ctx.scratch<float>(static_cast<std::size_t>(x.numel()));
  for (int64_t i = 0; i < x.numel(); ++i) tmp[i] = x.data<float>()[i] * factor;
  Tensor& y = ctx.output_uninitialized(0, DataType::float32, x.shape());
  std::memcpy(y.mutable_data<float>(), tmp, x.nbytes());
}

struct Nothing {};

Nothing prepare_refusing(PrepareContext& ctx) {
  if (ctx.attrs().get_int("refuse", 0)) ctx.fail("refused at planning: attribute refuse is set");
  return {};
}

void refusing_kernel(KernelContext& ctx, const Nothing&) {
  ctx.set_output(0, ctx.input_value(0));
}

std::unique_ptr<Registry> prepare_registry() {
  auto r = std::make_unique<Registry>();
  r->add("", "Scale")
      .since(1)
      .input("X", "T")
      .input("F", "T")
      .output("Y", "T")
      .constraint("T", kFloat)
      .kernel(prepared_kernel(prepare_scale, scale_kernel));
  r->add("", "Refusing")
      .since(1)
      .attr("refuse", AttrType::i, int64_t{0})
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", kFloat)
      .kernel(prepared_kernel(prepare_refusing, refusing_kernel));
  return r;
}

SessionOptions with(const Registry& r) {
  SessionOptions o;
  o.registry = &r;
  o.threads = 2;
  o.fold_constants = false;  // keep every node in the plan
  return o;
}

// A StorageAllocator that counts what it hands out and takes back.
class CountingAllocator final : public StorageAllocator {
 public:
  void* allocate(std::size_t bytes) override {
    ++blocks;
    live += static_cast<int64_t>(bytes);
    return std::aligned_alloc(64, bytes);
  }
  void release(void* block, std::size_t bytes) noexcept override {
    ++released;
    live -= static_cast<int64_t>(bytes);
    std::free(block);
  }
  std::atomic<int64_t> blocks{0}, released{0}, live{0};
};

}  // namespace

TEST_CASE("prepare runs once per node at planning and sees constants and inferred shapes") {
  auto reg = prepare_registry();
  ModelBuilder b;
  b.input("x", 1, {"2", "3"});
  b.input("g", 1, {});
  b.initializer("f", {}, {4});
  b.node("Scale", {"x", "f"}, {"y"}, "by_constant");
  b.node("Scale", {"y", "g"}, {"z"}, "by_input");
  b.output("z", 1, {"2", "3"});
  const Model m = b.build();
  g_prepares = 0;
  Session s(m, with(*reg));
  CHECK(g_prepares == 2);
  const Tensor x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  for (int run = 0; run < 3; ++run) {
    auto out = s.run({{"x", Value(x)}, {"g", Value(Tensor::scalar<float>(0.5f))}});
    CHECK(values_of(out[0]) == std::vector<float>{2, 4, 6, 8, 10, 12});
  }
  CHECK(g_prepares == 2);  // runs never prepare again
}

TEST_CASE("prepare's static_shape comes from the declared input shape through inference") {
  auto reg = prepare_registry();
  ModelBuilder b;
  b.input("x", 1, {"2", "3"});
  b.input("n", 1, {"N"});
  b.initializer("f", {}, {1});
  b.node("Scale", {"x", "f"}, {"y"});
  b.node("Scale", {"n", "f"}, {"z"});
  b.output("y", 1, {"2", "3"});
  b.output("z", 1, {"N"});
  const Model m = b.build();
  // The states are private to the plan; what they hold shows in the results only, so the
  // prepare step records what it saw here.
  static std::vector<std::optional<Shape>> seen;
  seen.clear();
  Registry r;
  r.add("", "Scale")
      .since(1)
      .input("X", "T")
      .input("F", "T")
      .output("Y", "T")
      .constraint("T", kFloat)
      .kernel(prepared_kernel(
          +[](PrepareContext& ctx) {
            seen.push_back(ctx.static_shape(0));
            return prepare_scale(ctx);
          },
          scale_kernel));
  Session s(m, with(r));
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == Shape{2, 3});
  CHECK(!seen[1].has_value());  // a symbolic dim: not static
}

TEST_CASE("a prepare step that fails does not stop planning; the node reports it when it runs") {
  auto reg = prepare_registry();
  ModelBuilder b;
  b.input("x", 1, {"2"});
  auto& n = b.node("Refusing", {"x"}, {"y"}, "picky");
  set_attr(n, "refuse", int64_t{1});
  b.output("y", 1, {"2"});
  const Model m = b.build();
  Session s(m, with(*reg));  // planning succeeds
  for (int run = 0; run < 2; ++run) {
    try {
      s.run({{"x", Value(floats({2}, {1, 2}))}});
      FAIL("the run should fail");
    } catch (const Error& e) {
      CHECK(e.rule() == "exec.kernel-failed");
      CHECK(e.location().find("picky") != std::string::npos);
      CHECK(e.message() == "refused at planning: attribute refuse is set");
    }
  }
}

TEST_CASE("scratch memory and outputs go through the installed Storage allocator") {
  auto reg = prepare_registry();
  ModelBuilder b;
  b.input("x", 1, {"1000"});
  b.initializer("f", {}, {3});
  b.node("Scale", {"x", "f"}, {"y"});
  b.output("y", 1, {"1000"});
  const Model m = b.build();
  std::vector<float> ones(1000, 1.0f);
  const Tensor x = floats({1000}, ones);
  CountingAllocator counting;
  {
    Session s(m, with(*reg));
    StorageAllocator* previous = set_storage_allocator(&counting);
    // The executor's own (or the default, under AddressSanitizer) was installed.
    CHECK((previous == nullptr || previous == &exec_detail::large_block_allocator()));
    const StorageCounters before = storage_counters();
    std::vector<Value> out = s.run({{"x", Value(x)}});
    const StorageCounters after = storage_counters();
    set_storage_allocator(previous);
    CHECK(values_of(out[0]) == std::vector<float>(1000, 3.0f));
    // The scratch buffer and the output, at least; each block rounded to 64 bytes.
    CHECK(counting.blocks >= 2);
    CHECK(after.allocations - before.allocations == counting.blocks);
    CHECK(after.bytes - before.bytes >= 2 * 4000);
    CHECK(counting.released >= 1);  // the scratch buffer, freed when the kernel returned
  }
  // Blocks go back to the allocator that gave them, even after it was uninstalled.
  CHECK(counting.released == counting.blocks);
  CHECK(counting.live == 0);
}

namespace {

// Fills [p, p + bytes) so that overlapping blocks would show.
void fill_block(void* p, std::size_t bytes, unsigned char value) {
  std::memset(p, value, bytes);
}

bool block_holds(const void* p, std::size_t bytes, unsigned char value) {
  const auto* b = static_cast<const unsigned char*>(p);
  return std::all_of(b, b + bytes, [&](unsigned char c) { return c == value; });
}

}  // namespace

TEST_CASE("the large-block arena carves the lowest free range that fits and merges what is freed") {
  constexpr std::size_t MiB = std::size_t{1} << 20;
  exec_detail::LargeBlockArena arena(8 * MiB);
  void* a = arena.allocate(MiB);
  void* b = arena.allocate(MiB + 64);
  void* c = arena.allocate(2 * MiB);
  // One mapping, huge-page aligned, blocks one after the other.
  CHECK(arena.stats().mappings == 1);
  CHECK(reinterpret_cast<std::uintptr_t>(a) % kHugePageBytes == 0);
  CHECK(static_cast<char*>(b) == static_cast<char*>(a) + MiB);
  CHECK(static_cast<char*>(c) == static_cast<char*>(b) + MiB + 64);
  fill_block(a, MiB, 1);
  fill_block(b, MiB + 64, 2);
  fill_block(c, 2 * MiB, 3);
  CHECK(block_holds(a, MiB, 1));
  CHECK(block_holds(b, MiB + 64, 2));

  // A freed block is the first place a smaller request goes.
  arena.release(b, MiB + 64);
  void* d = arena.allocate(512 * 1024);
  CHECK(d == b);
  CHECK(block_holds(c, 2 * MiB, 3));
  arena.release(d, 512 * 1024);

  // Freed neighbours merge: a and b's ranges together hold a request of both sizes.
  arena.release(a, MiB);
  void* e = arena.allocate(2 * MiB + 64);
  CHECK(e == a);
  CHECK(arena.stats().free_bytes == 8 * MiB - (2 * MiB + 64) - 2 * MiB);

  // A request past the mapping's size gets a mapping of its own.
  void* f = arena.allocate(9 * MiB);
  CHECK(arena.stats().mappings == 2);
  CHECK(arena.stats().mapped_bytes == 8 * MiB + 9 * MiB);
  fill_block(f, 9 * MiB, 4);
  CHECK(block_holds(c, 2 * MiB, 3));
  arena.release(f, 9 * MiB);
  arena.release(e, 2 * MiB + 64);
  arena.release(c, 2 * MiB);
  // Everything freed is kept (under the bound) for the next requests.
  CHECK(arena.stats().free_bytes == arena.stats().mapped_bytes);
  CHECK(arena.allocate(3 * MiB) == a);
  arena.release(a, 3 * MiB);
}

TEST_CASE("a paused large-block arena makes blocks apart from its mappings") {
  constexpr std::size_t MiB = std::size_t{1} << 20;
  exec_detail::LargeBlockArena arena(4 * MiB);
  arena.pause();
  void* big = arena.allocate(3 * MiB);
  void* medium = arena.allocate(128 * 1024);
  CHECK(arena.stats().mappings == 0);
  CHECK(reinterpret_cast<std::uintptr_t>(medium) % 64 == 0);
  fill_block(big, 3 * MiB, 5);
  fill_block(medium, 128 * 1024, 6);
  arena.resume();
  // Made while paused, freed after: they still go back where they came from.
  void* run = arena.allocate(3 * MiB);
  CHECK(arena.stats().mappings == 1);
  CHECK(block_holds(big, 3 * MiB, 5));
  arena.release(big, 3 * MiB);
  arena.release(medium, 128 * 1024);
  CHECK(arena.stats().free_bytes == MiB);
  arena.release(run, 3 * MiB);
  // Small requests never touch the mappings.
  void* small = arena.allocate(4096);
  CHECK(reinterpret_cast<std::uintptr_t>(small) % 64 == 0);
  CHECK(arena.stats().free_bytes == 4 * MiB);
  arena.release(small, 4096);
}

TEST_CASE("an uninitialised tensor has its shape and type; its storage tail is zeroed") {
  const Tensor t = Tensor::uninitialized(DataType::float32, {3, 5});
  CHECK(t.shape() == Shape{3, 5});
  CHECK(t.nbytes() == 60);
  // The 4 bytes past the end, up to the 64-byte block, are zero (vector loops may read them).
  const std::byte* tail = t.raw() + 60;
  for (int i = 0; i < 4; ++i) CHECK(tail[i] == std::byte{0});
  const Tensor s = Tensor::uninitialized(DataType::string, {2});
  CHECK(s.strings().size() == 2);
}

TEST_CASE("runs of one Session on two threads share the prepared state") {
  auto reg = prepare_registry();
  ModelBuilder b;
  b.input("x", 1, {"4"});
  b.initializer("f", {}, {2});
  b.node("Scale", {"x", "f"}, {"y"});
  b.node("Scale", {"y", "f"}, {"z"});
  b.output("z", 1, {"4"});
  const Model m = b.build();
  g_prepares = 0;
  Session s(m, with(*reg));
  auto work = [&](float base, std::vector<float>& last) {
    for (int i = 0; i < 200; ++i)
      last = values_of(s.run({{"x", Value(floats({4}, {base, base + 1, base + 2, base + 3}))}})[0]);
  };
  std::vector<float> a, c;
  std::thread other([&] { work(10, c); });
  work(1, a);
  other.join();
  CHECK(a == std::vector<float>{4, 8, 12, 16});
  CHECK(c == std::vector<float>{40, 44, 48, 52});
  CHECK(g_prepares == 2);
}
