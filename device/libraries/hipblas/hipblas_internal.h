// What the parts of gpusym's hipBLAS share: the handle, work in stream
// order, scalars by pointer mode, and the types of the C entry points mapped
// to the ones the implementation computes with.
#pragma once

#include <hipblas/hipblas.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

namespace gpusym_hipblas {

struct Handle {
  hipStream_t stream = nullptr;
  hipblasPointerMode_t pointer_mode = HIPBLAS_POINTER_MODE_HOST;
  hipblasAtomicsMode_t atomics_mode = HIPBLAS_ATOMICS_ALLOWED;
  hipblasMath_t math_mode = HIPBLAS_DEFAULT_MATH;
};

// The type a C entry point's element maps to: hipBLAS's and HIP's complex
// types are std::complex, whose layout they share.
template <class T> struct Element { using type = T; };
template <> struct Element<hipblasComplex> { using type = std::complex<float>; };
template <> struct Element<hipblasDoubleComplex> { using type = std::complex<double>; };
template <> struct Element<hipFloatComplex> { using type = std::complex<float>; };
template <> struct Element<hipDoubleComplex> { using type = std::complex<double>; };

template <class T> auto in(T *pointer) {
  using E = typename Element<std::remove_const_t<T>>::type;
  if constexpr (std::is_const_v<T>)
    return reinterpret_cast<const E *>(pointer);
  else
    return reinterpret_cast<E *>(pointer);
}
template <class T> auto in(T *const *pointers) {
  using E = typename Element<std::remove_const_t<T>>::type;
  if constexpr (std::is_const_v<T>)
    return reinterpret_cast<const E *const *>(pointers);
  else
    return reinterpret_cast<E *const *>(pointers);
}

template <class T> struct Real { using type = T; };
template <class T> struct Real<std::complex<T>> { using type = T; };
template <class T> inline constexpr bool is_complex = !std::is_same_v<T, typename Real<T>::type>;

// The handle behind `handle`, or null.
inline Handle *handle_of(hipblasHandle_t handle) { return static_cast<Handle *>(handle); }

// Runs `work` once the work queued before it on the handle's stream is done,
// as a kernel of the library would run.
hipblasStatus_t enqueue(Handle *handle, std::function<void()> work);

// A scalar argument: read now in host pointer mode (the caller's memory may
// change once the call returns), in stream order in device pointer mode.
template <class T> class Scalar {
 public:
  Scalar(const Handle *handle, const T *pointer)
      : device_(handle->pointer_mode == HIPBLAS_POINTER_MODE_DEVICE ? pointer : nullptr),
        value_(device_ ? T() : *pointer) {}
  explicit Scalar(T value) : value_(value) {}
  T operator()() const { return device_ ? *device_ : value_; }

 private:
  const T *device_ = nullptr;
  T value_;
};

// Queues `compute`, whose value goes to `result`; in host pointer mode the
// call returns once it is there, as hipBLAS's does.
template <class R, class F> hipblasStatus_t with_result(Handle *handle, R *result, F compute) {
  if (!result) return HIPBLAS_STATUS_INVALID_VALUE;
  hipblasStatus_t status = enqueue(handle, [result, compute] { *result = compute(); });
  if (status == HIPBLAS_STATUS_SUCCESS && handle->pointer_mode == HIPBLAS_POINTER_MODE_HOST &&
      hipStreamSynchronize(handle->stream) != hipSuccess)
    return HIPBLAS_STATUS_EXECUTION_FAILED;
  return status;
}

// Prints, the first time `name` is called, that gpusym does not implement it.
void report_not_supported(const char *name);

}  // namespace gpusym_hipblas

// An entry point's macro M(name, element type) expanded for each precision
// of `op`: s, d, c, z and the _v2 forms (HIP's complex types), or the
// complex ones only.
#define GPUSYM_SDCZ(M, op)                                                                         \
  M(hipblasS##op, float) M(hipblasD##op, double) M(hipblasC##op, hipblasComplex)                  \
  M(hipblasZ##op, hipblasDoubleComplex) M(hipblasC##op##_v2, hipComplex) M(hipblasZ##op##_v2, hipDoubleComplex)
#define GPUSYM_CZ(M, op)                                                                          \
  M(hipblasC##op, hipblasComplex) M(hipblasZ##op, hipblasDoubleComplex) M(hipblasC##op##_v2, hipComplex) \
  M(hipblasZ##op##_v2, hipDoubleComplex)

