// SmallBuf<T, N>: n values of T, on the stack when n <= N, else on the heap.
// A call plans and walks its inputs once; for the usual handful of inputs and
// dims, malloc/free pairs would cost more than the rest of a small call.
#pragma once

#include <cstddef>
#include <memory>

namespace onnx_ops {

template <class T, size_t N>
class SmallBuf {
 public:
  explicit SmallBuf(size_t n) : p_(small_) {
    if (n > N) {
      big_.reset(new T[n]());
      p_ = big_.get();
    }
  }
  SmallBuf(const SmallBuf&) = delete;
  SmallBuf& operator=(const SmallBuf&) = delete;
  T* data() { return p_; }
  T& operator[](size_t i) { return p_[i]; }

 private:
  T small_[N];
  std::unique_ptr<T[]> big_;
  T* p_;
};

}  // namespace onnx_ops
