/*
 * What gpusym's libcu++ headers (cuda/std/..., cuda/atomic, cuda/barrier,
 * cuda/pipeline) share.  cuda::std names the host C++ library's namespace
 * (a using-directive), so every name std has is there, usable in device
 * code where clang compiles it for the device: constexpr functions, type
 * traits, numeric_limits, the function objects.  What the host library
 * gives host code only (pair's and tuple's assignment, array's fill,
 * complex arithmetic, atomics, C++20's <bit> and <span>, identity) is
 * gpusym's own, declared in cuda::std itself, which hides std's name.
 * The headers compile as plain C++ too, where __host__ and __device__ mean
 * nothing.
 */
#ifndef GPUSYM_CUDA_LIBCUDACXX_H
#define GPUSYM_CUDA_LIBCUDACXX_H

#include <cstddef>

#include "../crt/host_defines.h"

/* A function of host and device code; constexpr ones are both anyway. */
#define __GPUSYM_HD __host__ __device__ inline
#define __GPUSYM_CONSTEXPR __host__ __device__ constexpr

namespace cuda {
namespace std {
using namespace ::std;
}  // namespace std
}  // namespace cuda

#endif
