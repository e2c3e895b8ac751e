// What the parts of gpusym's hipSPARSE share: the handle, dense vectors,
// work in stream order, scalars by pointer mode, and the value types.
#pragma once

#include <hipsparse/hipsparse.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <utility>

#include "stream_work.h"

namespace gpusym_hipsparse {

constexpr hipsparseStatus_t kSuccess = HIPSPARSE_STATUS_SUCCESS;
constexpr hipsparseStatus_t kInvalid = HIPSPARSE_STATUS_INVALID_VALUE;

struct Handle {
  hipStream_t stream = nullptr;
  hipsparsePointerMode_t pointer_mode = HIPSPARSE_POINTER_MODE_HOST;
};

struct DnVec {
  int64_t size;
  void *values;
  hipDataType type;
};

inline Handle *handle_of(hipsparseHandle_t handle) { return static_cast<Handle *>(handle); }
// The generic API's const descriptors are the same objects.
template <class T> T *object(const void *descriptor) { return static_cast<T *>(const_cast<void *>(descriptor)); }

// Runs `work` in the handle's stream order.
inline hipsparseStatus_t enqueue(Handle *handle, std::function<void()> work) {
  bool queued = gpusym_library::in_stream_order(handle->stream, std::move(work)) == hipSuccess;
  return queued ? kSuccess : HIPSPARSE_STATUS_EXECUTION_FAILED;
}

// Waits for the handle's stream: for results read on the host.
inline hipsparseStatus_t wait(Handle *handle) {
  return hipStreamSynchronize(handle->stream) == hipSuccess ? kSuccess : HIPSPARSE_STATUS_EXECUTION_FAILED;
}

inline size_t value_size(hipDataType type) {
  switch (type) {
    case HIP_R_32F: return 4;
    case HIP_R_64F:
    case HIP_C_32F: return 8;
    case HIP_C_64F: return 16;
    default: return 0;
  }
}

inline bool valid_type(hipDataType type) { return value_size(type) != 0; }

// A scalar's bytes, taken now in host pointer mode and read in stream order
// in device pointer mode.
class Scalar {
 public:
  Scalar(const Handle *handle, const void *pointer, size_t size)
      : device_(handle->pointer_mode == HIPSPARSE_POINTER_MODE_DEVICE ? pointer : nullptr) {
    if (!device_) memcpy(bytes_, pointer, size);
  }
  template <class T> T get() const {
    T value;
    memcpy(&value, device_ ? device_ : bytes_, sizeof(T));
    return value;
  }

 private:
  const void *device_;
  unsigned char bytes_[16] = {};
};

template <class T> T conjugate(T v) {
  if constexpr (std::is_arithmetic_v<T>)
    return v;
  else
    return std::conj(v);
}

// Calls body(T()) for the C++ type T of `type`, one of value_size's.
template <class F> void with_type(hipDataType type, F body) {
  switch (type) {
    case HIP_R_32F: body(float()); break;
    case HIP_R_64F: body(double()); break;
    case HIP_C_32F: body(std::complex<float>()); break;
    default: body(std::complex<double>()); break;
  }
}

// Prints, the first time `name` is called, that gpusym does not provide it.
void report_not_supported(const char *name);

}  // namespace gpusym_hipsparse
