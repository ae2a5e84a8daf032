// SPDX-License-Identifier: Apache-2.0
// Tensor: an element type, a shape and shared storage. Copies are shallow; writes through
// mutable_*() detach the storage first when it is shared or read-only (a view of a mapped file
// or of a protobuf's raw_data), so weights are never copied unless someone changes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/types/dtype.h"
#include "core/types/element.h"

namespace onnxtool {

using Shape = std::vector<int64_t>;

std::string shape_to_string(std::span<const int64_t> shape);  // "[1,3,224,224]"

// Where owned storage comes from. The default is aligned_alloc; an executor's arena or a test
// that counts allocations installs its own with set_storage_allocator().
class StorageAllocator {
 public:
  virtual ~StorageAllocator() = default;
  // `bytes` is a multiple of 64 and never 0; the block must be 64-byte aligned. Throws
  // std::bad_alloc when it cannot.
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void release(void* block, std::size_t bytes) noexcept = 0;
};

// Installs `a` for allocations made from now on (nullptr: the default); returns the previous
// one. Blocks go back to the allocator that gave them, so swapping is safe at any time. `a`
// must outlive every block it handed out.
StorageAllocator* set_storage_allocator(StorageAllocator* a);
// The default (aligned_alloc), for an allocator that hands some requests on to it.
StorageAllocator& default_storage_allocator();

// Owned-storage allocations since the process started (all threads), for -v and tests.
struct StorageCounters {
  int64_t allocations = 0;
  int64_t bytes = 0;
};
StorageCounters storage_counters();

// The most owned storage that may be alive at once (bytes; 0 or less: no limit). An allocation
// that would pass it throws Error(invalid, "exec.memory-limit") instead of asking the system, so
// that a model asking for absurd tensors stops with a message, not the OOM killer. Process-wide.
void set_storage_limit(int64_t bytes);
int64_t storage_live_bytes();

// A block of bytes: owned (64-byte aligned, writable) or a read-only view kept alive by owner.
class Storage {
 public:
  enum class Fill { zero, none };
  static std::shared_ptr<Storage> allocate(std::size_t bytes, Fill fill = Fill::zero);
  static std::shared_ptr<Storage> view(const void* data, std::size_t bytes,
                                       std::shared_ptr<const void> owner);
  // A writable region [offset, offset + bytes) of an owned block, which it keeps alive: a
  // tensor made in place inside a larger one. It frees and counts nothing itself. Writes through
  // it change what the block's holders read, so whoever hands one out must know that nothing
  // reads that region meanwhile (see the executor's assemblies).
  static std::shared_ptr<Storage> window(std::shared_ptr<Storage> block, std::size_t offset,
                                         std::size_t bytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  const std::byte* data() const { return data_; }
  std::byte* writable_data() { return owned_ ? data_ : nullptr; }
  std::size_t size() const { return size_; }
  bool owned() const { return owned_; }

 private:
  Storage() = default;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
  bool owned_ = false;
  StorageAllocator* allocator_ = nullptr;
  std::shared_ptr<const void> owner_;
};

class Tensor;
void check_value_count(const Tensor& t, std::size_t n);

class Tensor {
 public:
  Tensor() = default;
  // Zero-filled (empty strings for string tensors). Throws Error on a negative dim or overflow.
  Tensor(DataType type, Shape shape);
  // The same, left uninitialised (strings are still empty) for a writer of every element.
  static Tensor uninitialized(DataType type, Shape shape);
  // Wraps existing bytes (mem_bytes per element, see DataTypeInfo) without copying.
  static Tensor wrap(DataType type, Shape shape, std::shared_ptr<Storage> storage,
                     std::size_t offset = 0);
  static Tensor from_strings(Shape shape, std::vector<std::string> values);
  // values.size() must equal the shape's element count (throws Error otherwise).
  template <class T>
  static Tensor from_vector(Shape shape, const std::vector<T>& values);
  template <class T>
  static Tensor scalar(T value) {
    return from_vector<T>({}, {value});
  }

  bool defined() const { return type_ != DataType::undefined; }
  DataType dtype() const { return type_; }
  const Shape& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return numel_; }
  std::size_t nbytes() const;  // bytes in memory; 0 for strings

  const std::byte* raw() const;
  std::byte* mutable_raw();  // detaches shared or read-only storage
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(raw());
  }
  template <class T>
  T* mutable_data() {
    return reinterpret_cast<T*>(mutable_raw());
  }
  template <class T>
  std::span<const T> span() const {
    return {data<T>(), static_cast<std::size_t>(numel_)};
  }
  template <class T>
  std::span<T> mutable_span() {
    return {mutable_data<T>(), static_cast<std::size_t>(numel_)};
  }
  const std::vector<std::string>& strings() const;
  std::vector<std::string>& mutable_strings();

  // Same elements, another shape of equal element count; shares storage.
  Tensor reshaped(Shape shape) const;
  // A deep copy with owned storage.
  Tensor clone() const;
  // True when storage is a read-only view (e.g. of a mapped external data file).
  bool is_view() const;

 private:
  void allocate(Storage::Fill fill);

  DataType type_ = DataType::undefined;
  Shape shape_;
  int64_t numel_ = 0;
  std::shared_ptr<Storage> storage_;
  std::size_t offset_ = 0;
  std::shared_ptr<std::vector<std::string>> strings_;
};

template <class T>
Tensor Tensor::from_vector(Shape shape, const std::vector<T>& values) {
  if constexpr (std::is_same_v<T, std::string>) {
    return from_strings(std::move(shape), values);
  } else {
    Tensor t(data_type_of<T>(), std::move(shape));
    check_value_count(t, values.size());
    T* out = t.mutable_data<T>();
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i];
    return t;
  }
}

}  // namespace onnxtool
