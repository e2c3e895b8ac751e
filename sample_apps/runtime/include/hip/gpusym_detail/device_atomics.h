/*
 * Device atomics with HIP's names and overloads, on clang's __hip_atomic
 * builtins (device scope, relaxed order, as HIP's atomicAdd and friends).
 */
#ifndef GPUSYM_DEVICE_ATOMICS_H
#define GPUSYM_DEVICE_ATOMICS_H

#define __GPUSYM_ATOMIC(name, builtin, type)                                      \
  static __device__ __GPUSYM_INLINE type name(type *address, type value) {                \
    return builtin(address, value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);  \
  }

#define __GPUSYM_ATOMIC_ALL_TYPES(name, builtin)                                  \
  __GPUSYM_ATOMIC(name, builtin, int)                                             \
  __GPUSYM_ATOMIC(name, builtin, unsigned int)                                    \
  __GPUSYM_ATOMIC(name, builtin, unsigned long long)                              \
  __GPUSYM_ATOMIC(name, builtin, float)                                           \
  __GPUSYM_ATOMIC(name, builtin, double)

__GPUSYM_ATOMIC_ALL_TYPES(atomicAdd, __hip_atomic_fetch_add)
__GPUSYM_ATOMIC_ALL_TYPES(atomicMax, __hip_atomic_fetch_max)
__GPUSYM_ATOMIC_ALL_TYPES(atomicMin, __hip_atomic_fetch_min)
__GPUSYM_ATOMIC_ALL_TYPES(atomicExch, __hip_atomic_exchange)
__GPUSYM_ATOMIC(atomicAnd, __hip_atomic_fetch_and, int)
__GPUSYM_ATOMIC(atomicAnd, __hip_atomic_fetch_and, unsigned int)
__GPUSYM_ATOMIC(atomicOr, __hip_atomic_fetch_or, int)
__GPUSYM_ATOMIC(atomicOr, __hip_atomic_fetch_or, unsigned int)
__GPUSYM_ATOMIC(atomicXor, __hip_atomic_fetch_xor, int)
__GPUSYM_ATOMIC(atomicXor, __hip_atomic_fetch_xor, unsigned int)

static __device__ __GPUSYM_INLINE int atomicSub(int *address, int value) {
  return atomicAdd(address, -value);
}
static __device__ __GPUSYM_INLINE unsigned int atomicSub(unsigned int *address, unsigned int value) {
  return atomicAdd(address, 0u - value);
}
static __device__ __GPUSYM_INLINE float atomicSub(float *address, float value) {
  return atomicAdd(address, -value);
}
static __device__ __GPUSYM_INLINE double atomicSub(double *address, double value) {
  return atomicAdd(address, -value);
}

#define __GPUSYM_ATOMIC_CAS(type)                                                 \
  static __device__ __GPUSYM_INLINE type atomicCAS(type *address, type compare, type value) { \
    __hip_atomic_compare_exchange_strong(address, &compare, value, __ATOMIC_RELAXED, \
                                         __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); \
    return compare;                                                               \
  }
__GPUSYM_ATOMIC_CAS(int)
__GPUSYM_ATOMIC_CAS(unsigned int)
__GPUSYM_ATOMIC_CAS(unsigned long long)
__GPUSYM_ATOMIC_CAS(float)
__GPUSYM_ATOMIC_CAS(double)

#endif
