/*
 * Device built-ins: coordinates, barriers, fences, printf, assert and abort,
 * warpSize.
 *
 * On AMDGPU they are clang's amdgcn builtins.  On the simulated device they
 * read the current lane (gpusym/lane.h) and call into the runtime, which the
 * device code object is linked against when it is loaded.
 */
#ifndef GPUSYM_DEVICE_BUILTINS_H
#define GPUSYM_DEVICE_BUILTINS_H

/* Built-ins are always inlined, as in HIP's headers, and carry no debug
 * information of their own: no out-of-line copies in code objects, and a
 * debugger stopping or stepping at `threadIdx.x` stays in the user's kernel
 * instead of entering an inlined accessor. */
#define __GPUSYM_INLINE __attribute__((always_inline, nodebug)) inline

#if defined(__AMDGCN__)

#define __GPUSYM_THREAD_IDX(c) __builtin_amdgcn_workitem_id_##c()
#define __GPUSYM_BLOCK_IDX(c) __builtin_amdgcn_workgroup_id_##c()
#define __GPUSYM_BLOCK_DIM(c) __builtin_amdgcn_workgroup_size_##c()
#define __GPUSYM_GRID_DIM(c) (__builtin_amdgcn_grid_size_##c() / __builtin_amdgcn_workgroup_size_##c())

static __device__ __GPUSYM_INLINE void __syncthreads(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
static __device__ __GPUSYM_INLINE void __threadfence(void) {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}
static __device__ __GPUSYM_INLINE void __threadfence_block(void) {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
#else /* the simulated device, and the host pass of clang's HIP compile */

#include "gpusym/lane.h"

extern "C" __device__ __thread __attribute__((tls_model("initial-exec")))
struct gpusym_lane *__gpusym_lane;
/* The barrier keeps none of the caller's registers (fiber_switch.S): the
 * caller saves what it needs, so a lane switch saves almost nothing. */
extern "C" __device__ __attribute__((preserve_none)) void __gpusym_barrier(void);

#define __GPUSYM_THREAD_IDX(c) (__gpusym_lane->thread_idx.c)
#define __GPUSYM_BLOCK_IDX(c) (__gpusym_lane->block_idx.c)
#define __GPUSYM_BLOCK_DIM(c) (__gpusym_lane->block_dim.c)
#define __GPUSYM_GRID_DIM(c) (__gpusym_lane->grid_dim.c)

static __device__ __GPUSYM_INLINE void __syncthreads(void) { __gpusym_barrier(); }
static __device__ __GPUSYM_INLINE void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static __device__ __GPUSYM_INLINE void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#endif

extern "C" __device__ int printf(const char *format, ...);

/* assert() and abort() in device code.  <assert.h>'s assert calls
 * __assert_fail, a host function: this device overload (clang overloads on
 * __host__/__device__) takes device calls, before or after <assert.h>.  On
 * AMDGPU they print and trap as HIP's do; on the simulated device the runtime
 * reports the kernel, block and thread with HIP's text, then aborts. */
#if defined(__AMDGCN__)
static __device__ __GPUSYM_INLINE __attribute__((noreturn)) void __assert_fail(const char *assertion, const char *file,
                                                                               unsigned int line, const char *function) {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, assertion);
  __builtin_trap();
}
static __device__ __GPUSYM_INLINE __attribute__((noreturn)) void abort(void) { __builtin_trap(); }
#else
extern "C" __device__ __attribute__((noreturn)) void __gpusym_assert_fail(const char *assertion, const char *file,
                                                                          unsigned int line, const char *function);
extern "C" __device__ __attribute__((noreturn)) void __gpusym_abort(void);
static __device__ __GPUSYM_INLINE __attribute__((noreturn)) void __assert_fail(const char *assertion, const char *file,
                                                                               unsigned int line, const char *function) {
  __gpusym_assert_fail(assertion, file, line, function);
}
static __device__ __GPUSYM_INLINE __attribute__((noreturn)) void abort(void) { __gpusym_abort(); }
#endif
namespace std {
using ::abort;  /* std::abort() too, whether <cstdlib> came before or comes after */
}

/* threadIdx.x and friends, as read-only properties like HIP's own. */
#define __GPUSYM_COORDINATES(type, getter)                                       \
  struct type {                                                                  \
    __declspec(property(get = __get_x)) unsigned int x;                          \
    __declspec(property(get = __get_y)) unsigned int y;                          \
    __declspec(property(get = __get_z)) unsigned int z;                          \
    static __device__ __GPUSYM_INLINE unsigned int __get_x(void) { return getter(x); }    \
    static __device__ __GPUSYM_INLINE unsigned int __get_y(void) { return getter(y); }    \
    static __device__ __GPUSYM_INLINE unsigned int __get_z(void) { return getter(z); }    \
    __device__ inline operator dim3() const { return dim3(getter(x), getter(y), getter(z)); } \
  }

__GPUSYM_COORDINATES(__gpusym_thread_idx_t, __GPUSYM_THREAD_IDX);
__GPUSYM_COORDINATES(__gpusym_block_idx_t, __GPUSYM_BLOCK_IDX);
__GPUSYM_COORDINATES(__gpusym_block_dim_t, __GPUSYM_BLOCK_DIM);
__GPUSYM_COORDINATES(__gpusym_grid_dim_t, __GPUSYM_GRID_DIM);

extern const __device__ __attribute__((weak)) __gpusym_thread_idx_t threadIdx;
extern const __device__ __attribute__((weak)) __gpusym_block_idx_t blockIdx;
extern const __device__ __attribute__((weak)) __gpusym_block_dim_t blockDim;
extern const __device__ __attribute__((weak)) __gpusym_grid_dim_t gridDim;

#if defined(__AMDGCN__)
static constexpr int warpSize = __AMDGCN_WAVEFRONT_SIZE;
#else
static constexpr int warpSize = GPUSYM_WAVE_SIZE;
#endif

/* __syncthreads() that also reduces a predicate over the block: how many of
 * its threads passed a nonzero one, whether all did, whether any did.  The
 * block counts in shared memory, which is 0 between calls: every thread adds
 * its 0 or 1, reads the total after a barrier, and takes its part back after
 * another (so threads that have returned, whichever they are, count for
 * nothing, and no thread has to clear the count).  A thread's taking back
 * comes before its next adding, so the next call needs no barrier first. */
static __device__ __GPUSYM_INLINE int __gpusym_syncthreads_count(int predicate) {
  __shared__ unsigned int count;
  unsigned int mine = predicate ? 1u : 0u;
  __hip_atomic_fetch_add(&count, mine, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  unsigned int total = __hip_atomic_load(&count, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  __hip_atomic_fetch_sub(&count, mine, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  return static_cast<int>(total);
}
static __device__ __GPUSYM_INLINE int __syncthreads_count(int predicate) {
  return __gpusym_syncthreads_count(predicate);
}
static __device__ __GPUSYM_INLINE int __syncthreads_and(int predicate) {
  return __gpusym_syncthreads_count(!predicate) == 0;
}
static __device__ __GPUSYM_INLINE int __syncthreads_or(int predicate) {
  return __gpusym_syncthreads_count(predicate) != 0;
}

#endif
