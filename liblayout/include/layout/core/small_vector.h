// A vector of trivially copyable elements with inline storage for the first N, so that the
// layouts the compiler builds by the thousand (≤ 64 bits) never touch the heap.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

namespace layout {

template <typename T, size_t N> class SmallVector {
  // Elements move with memcpy: they must copy and destroy trivially (std::pair of such types
  // qualifies even though its assignment operator is not trivial).
  static_assert(std::is_trivially_copy_constructible_v<T> && std::is_trivially_destructible_v<T>,
                "SmallVector holds trivially copyable types");

public:
  SmallVector() = default;
  SmallVector(size_t count, const T& value) { assign(count, value); }
  SmallVector(std::initializer_list<T> init) {
    reserve(init.size());
    for (const T& v : init) push_back(v);
  }
  SmallVector(const SmallVector& other) { copyFrom(other); }
  SmallVector(SmallVector&& other) noexcept { moveFrom(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) {
      size_ = 0;
      copyFrom(other);
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      moveFrom(other);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_ ? heap_ : inlineData(); }
  const T* data() const { return heap_ ? heap_ : inlineData(); }
  T& operator[](size_t i) {
    assert(i < size_);
    return data()[i];
  }
  const T& operator[](size_t i) const {
    assert(i < size_);
    return data()[i];
  }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= capacity_) return;
    size_t newCap = std::max(n, capacity_ * 2);
    T* mem = static_cast<T*>(std::malloc(newCap * sizeof(T)));
    if (!mem) throw std::bad_alloc();
    if (size_) std::memcpy(static_cast<void*>(mem), data(), size_ * sizeof(T));
    std::free(heap_);
    heap_ = mem;
    capacity_ = newCap;
  }
  void push_back(const T& v) {
    if (size_ == capacity_) [[unlikely]] {
      growAndPush(v);
      return;
    }
    data()[size_++] = v;
  }
  // Grows with value-initialised (zero) elements or shrinks.
  void resize(size_t n) {
    reserve(n);
    if (n > size_) std::memset(static_cast<void*>(data() + size_), 0, (n - size_) * sizeof(T));
    size_ = n;
  }
  void assign(size_t n, const T& value) {
    size_ = 0;
    reserve(n);
    std::fill(data(), data() + n, value);
    size_ = n;
  }
  void clear() { size_ = 0; }
  void erase(T* pos) {
    assert(pos >= begin() && pos < end());
    std::memmove(static_cast<void*>(pos), pos + 1, (end() - pos - 1) * sizeof(T));
    --size_;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

private:
  // Out of line so that push_back's common case inlines.
  [[gnu::noinline]] void growAndPush(const T& v) {
    T copy = v; // v may alias our storage
    reserve(size_ + 1);
    data()[size_++] = copy;
  }
  T* inlineData() { return reinterpret_cast<T*>(inline_); }
  const T* inlineData() const { return reinterpret_cast<const T*>(inline_); }
  void release() {
    if (heap_) std::free(heap_); // skip the call for inline storage: layouts die by the thousand
    heap_ = nullptr;
    capacity_ = N;
    size_ = 0;
  }
  void copyFrom(const SmallVector& other) {
    reserve(other.size_);
    // Small layouts are copied often: an inline loop beats a call to memcpy for a few elements.
    if (other.size_ <= 8) {
      T* dst = data();
      const T* src = other.data();
      for (size_t i = 0; i < other.size_; ++i) new (dst + i) T(src[i]);
    } else {
      std::memcpy(static_cast<void*>(data()), other.data(), other.size_ * sizeof(T));
    }
    size_ = other.size_;
  }

  void moveFrom(SmallVector& other) {
    if (other.heap_) {
      heap_ = other.heap_;
      capacity_ = other.capacity_;
      size_ = other.size_;
      other.heap_ = nullptr;
      other.capacity_ = N;
      other.size_ = 0;
    } else {
      heap_ = nullptr;
      capacity_ = N;
      copyFrom(other);
      other.size_ = 0;
    }
  }

  alignas(T) unsigned char inline_[N * sizeof(T)];
  T* heap_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = N;
};

} // namespace layout
