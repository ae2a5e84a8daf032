// SPDX-License-Identifier: Apache-2.0
#include "core/types/tensor.h"

#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "core/diag/error.h"

namespace onnxtool {

static_assert(std::endian::native == std::endian::little,
              "onnxtool keeps tensors in little-endian byte order, as ONNX stores them");

std::string shape_to_string(std::span<const int64_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

namespace {

class DefaultAllocator final : public StorageAllocator {
 public:
  void* allocate(std::size_t bytes) override {
    void* p = std::aligned_alloc(64, bytes);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void release(void* block, std::size_t) noexcept override { std::free(block); }
};

DefaultAllocator g_default_allocator;
std::atomic<StorageAllocator*> g_allocator{&g_default_allocator};
std::atomic<int64_t> g_allocations{0}, g_allocated_bytes{0};
// Owned bytes alive now, and the most they may reach (set_storage_limit).
std::atomic<int64_t> g_live_bytes{0}, g_live_limit{INT64_MAX};

std::string mib(int64_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

// Counts `capacity` more live bytes, or throws when that passes the limit (nothing counted).
void reserve_live(std::size_t bytes) {
  const int64_t limit = g_live_limit.load(std::memory_order_relaxed);
  if (bytes > static_cast<std::size_t>(INT64_MAX / 2)) throw std::bad_alloc();
  const auto capacity = static_cast<int64_t>(bytes);
  const int64_t live = g_live_bytes.fetch_add(capacity, std::memory_order_relaxed) + capacity;
  if (live <= limit) return;
  g_live_bytes.fetch_sub(capacity, std::memory_order_relaxed);
  throw Error(ErrorKind::invalid, "exec.memory-limit", "", "",
              "a tensor of " + mib(capacity) + " would take the tensors held to " + mib(live) +
                  ", past the memory limit of " + mib(limit) + " (--max-memory)");
}

}  // namespace

void set_storage_limit(int64_t bytes) {
  g_live_limit.store(bytes > 0 ? bytes : INT64_MAX, std::memory_order_relaxed);
}

int64_t storage_live_bytes() {
  return g_live_bytes.load(std::memory_order_relaxed);
}

StorageAllocator* set_storage_allocator(StorageAllocator* a) {
  StorageAllocator* previous = g_allocator.exchange(a ? a : &g_default_allocator);
  return previous == &g_default_allocator ? nullptr : previous;
}

StorageAllocator& default_storage_allocator() {
  return g_default_allocator;
}

StorageCounters storage_counters() {
  return {g_allocations.load(std::memory_order_relaxed),
          g_allocated_bytes.load(std::memory_order_relaxed)};
}

std::shared_ptr<Storage> Storage::allocate(std::size_t bytes, Fill fill) {
  std::shared_ptr<Storage> s(new Storage());
  const std::size_t capacity = bytes ? (bytes + 63) / 64 * 64 : 64;
  if (capacity < bytes) throw std::bad_alloc();
  StorageAllocator* allocator = g_allocator.load(std::memory_order_acquire);
  reserve_live(capacity);
  try {
    s->data_ = static_cast<std::byte*>(allocator->allocate(capacity));
  } catch (...) {
    g_live_bytes.fetch_sub(static_cast<int64_t>(capacity), std::memory_order_relaxed);
    throw;
  }
  s->allocator_ = allocator;
  s->capacity_ = capacity;
  // The tail past `bytes` is zeroed either way: SIMD loops may read whole vectors there.
  if (fill == Fill::zero)
    std::memset(s->data_, 0, capacity);
  else
    std::memset(s->data_ + bytes, 0, capacity - bytes);
  s->size_ = bytes;
  s->owned_ = true;
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_allocated_bytes.fetch_add(static_cast<int64_t>(capacity), std::memory_order_relaxed);
  return s;
}

std::shared_ptr<Storage> Storage::view(const void* data, std::size_t bytes,
                                       std::shared_ptr<const void> owner) {
  std::shared_ptr<Storage> s(new Storage());
  s->data_ = const_cast<std::byte*>(static_cast<const std::byte*>(data));
  s->size_ = bytes;
  s->owner_ = std::move(owner);
  return s;
}

std::shared_ptr<Storage> Storage::window(std::shared_ptr<Storage> block, std::size_t offset,
                                         std::size_t bytes) {
  if (!block || !block->owned_ || offset > block->size_ || bytes > block->size_ - offset)
    throw std::invalid_argument("Storage::window: the region is not inside an owned block");
  std::shared_ptr<Storage> s(new Storage());
  s->data_ = block->data_ + offset;
  s->size_ = bytes;
  s->owned_ = true;  // writable; allocator_ stays null: the block frees the memory
  s->owner_ = std::move(block);
  return s;
}

Storage::~Storage() {
  if (!owned_ || !allocator_) return;
  allocator_->release(data_, capacity_);
  g_live_bytes.fetch_sub(static_cast<int64_t>(capacity_), std::memory_order_relaxed);
}

namespace {

int64_t checked_count(const Shape& shape) {
  auto n = element_count(shape);
  if (!n)
    throw_invalid("tensor.bad-shape", "", "",
                  "shape " + shape_to_string(shape) + " has a negative dim or too many elements");
  return *n;
}

}  // namespace

Tensor::Tensor(DataType type, Shape shape) : type_(type), shape_(std::move(shape)) {
  allocate(Storage::Fill::zero);
}

Tensor Tensor::uninitialized(DataType type, Shape shape) {
  Tensor t;
  t.type_ = type;
  t.shape_ = std::move(shape);
  t.allocate(Storage::Fill::none);
  return t;
}

void Tensor::allocate(Storage::Fill fill) {
  numel_ = checked_count(shape_);
  if (type_ == DataType::string) {
    strings_ = std::make_shared<std::vector<std::string>>(static_cast<std::size_t>(numel_));
  } else {
    const auto width = static_cast<std::size_t>(type_info(type_).mem_bytes);
    if (numel_ > 0 && static_cast<uint64_t>(numel_) > SIZE_MAX / width)
      throw_invalid("tensor.too-large", "", "",
                    "tensor of " + std::to_string(numel_) + " elements does not fit in memory");
    storage_ = Storage::allocate(static_cast<std::size_t>(numel_) * width, fill);
  }
}

Tensor Tensor::wrap(DataType type, Shape shape, std::shared_ptr<Storage> storage,
                    std::size_t offset) {
  Tensor t;
  t.type_ = type;
  t.shape_ = std::move(shape);
  t.numel_ = checked_count(t.shape_);
  const auto width = static_cast<std::size_t>(type_info(type).mem_bytes);
  const auto n = static_cast<std::size_t>(t.numel_);
  if (width && n > SIZE_MAX / width) throw_internal("tensor storage size overflows");
  const std::size_t need = n * width;
  if (!storage || offset > storage->size() || storage->size() - offset < need)
    throw_internal("tensor storage smaller than its shape");
  t.storage_ = std::move(storage);
  t.offset_ = offset;
  return t;
}

void check_value_count(const Tensor& t, std::size_t n) {
  if (n != static_cast<std::size_t>(t.numel()))
    throw_internal(std::to_string(n) + " values given for a tensor of shape " +
                   shape_to_string(t.shape()));
}

Tensor Tensor::from_strings(Shape shape, std::vector<std::string> values) {
  Tensor t;
  t.type_ = DataType::string;
  t.shape_ = std::move(shape);
  t.numel_ = checked_count(t.shape_);
  check_value_count(t, values.size());
  t.strings_ = std::make_shared<std::vector<std::string>>(std::move(values));
  return t;
}

std::size_t Tensor::nbytes() const {
  if (type_ == DataType::undefined || type_ == DataType::string) return 0;
  return static_cast<std::size_t>(numel_) * type_info(type_).mem_bytes;
}

const std::byte* Tensor::raw() const {
  return storage_ ? storage_->data() + offset_ : nullptr;
}

std::byte* Tensor::mutable_raw() {
  if (!storage_) return nullptr;
  if (!storage_->owned() || storage_.use_count() > 1) {
    auto fresh = Storage::allocate(nbytes(), Storage::Fill::none);
    if (nbytes()) std::memcpy(fresh->writable_data(), raw(), nbytes());
    storage_ = std::move(fresh);
    offset_ = 0;
  }
  return storage_->writable_data() + offset_;
}

const std::vector<std::string>& Tensor::strings() const {
  static const std::vector<std::string> kEmpty;
  return strings_ ? *strings_ : kEmpty;
}

std::vector<std::string>& Tensor::mutable_strings() {
  if (!strings_) strings_ = std::make_shared<std::vector<std::string>>();
  if (strings_.use_count() > 1) strings_ = std::make_shared<std::vector<std::string>>(*strings_);
  return *strings_;
}

Tensor Tensor::reshaped(Shape shape) const {
  Tensor t = *this;
  const int64_t n = checked_count(shape);
  if (n != numel_)
    throw_invalid(
        "tensor.bad-reshape", "", "",
        "cannot view " + std::to_string(numel_) + " elements as shape " + shape_to_string(shape));
  t.shape_ = std::move(shape);
  return t;
}

Tensor Tensor::clone() const {
  if (type_ == DataType::string) return from_strings(shape_, strings());
  Tensor t(type_, shape_);
  if (nbytes()) std::memcpy(t.mutable_raw(), raw(), nbytes());
  return t;
}

bool Tensor::is_view() const {
  return storage_ && !storage_->owned();
}

}  // namespace onnxtool
