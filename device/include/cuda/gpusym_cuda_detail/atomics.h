/*
 * CUDA's atomics beyond HIP's (hip/gpusym_detail/device_atomics.h): atomicCAS
 * on an unsigned short, and atomicAdd on float2 and float4, atomic for each
 * element (as CUDA's are), each with its _block and _system forms.
 */
#ifndef GPUSYM_CUDA_ATOMICS_H
#define GPUSYM_CUDA_ATOMICS_H

/* name, name_block and name_system, from a body (the variable arguments) using `scope`. */
#define __GPUSYM_CUDA_ATOMIC(name, type, params, ...)                                                     \
  static __device__ __GPUSYM_INLINE type name params {                                                    \
    constexpr int scope = __HIP_MEMORY_SCOPE_AGENT;                                                       \
    __VA_ARGS__                                                                                           \
  }                                                                                                       \
  static __device__ __GPUSYM_INLINE type name##_block params {                                            \
    constexpr int scope = __HIP_MEMORY_SCOPE_WORKGROUP;                                                   \
    __VA_ARGS__                                                                                           \
  }                                                                                                       \
  static __device__ __GPUSYM_INLINE type name##_system params {                                           \
    constexpr int scope = __HIP_MEMORY_SCOPE_SYSTEM;                                                      \
    __VA_ARGS__                                                                                           \
  }

__GPUSYM_CUDA_ATOMIC(atomicCAS, unsigned short, (unsigned short *address, unsigned short compare, unsigned short value),
                     __hip_atomic_compare_exchange_strong(address, &compare, value, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                                          scope);
                     return compare;)

#define __GPUSYM_ADD(element) __hip_atomic_fetch_add(&address->element, value.element, __ATOMIC_RELAXED, scope)
__GPUSYM_CUDA_ATOMIC(atomicAdd, float2, (float2 *address, float2 value),
                     return make_float2(__GPUSYM_ADD(x), __GPUSYM_ADD(y));)
__GPUSYM_CUDA_ATOMIC(atomicAdd, float4, (float4 *address, float4 value),
                     float x = __GPUSYM_ADD(x), y = __GPUSYM_ADD(y), z = __GPUSYM_ADD(z);
                     return make_float4(x, y, z, __GPUSYM_ADD(w));)
#undef __GPUSYM_ADD
#undef __GPUSYM_CUDA_ATOMIC

#endif
