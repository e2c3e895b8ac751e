/*
 * Device atomics with HIP's names and overloads, on clang's __hip_atomic
 * builtins (relaxed order, as HIP's): atomicAdd and friends at device scope,
 * their _system forms at system scope and _block forms at work-group scope.
 * On the simulated device they are the host's own atomic instructions.
 */
#ifndef GPUSYM_DEVICE_ATOMICS_H
#define GPUSYM_DEVICE_ATOMICS_H

#define __GPUSYM_ATOMIC_FN static __device__ __GPUSYM_INLINE

/* name, name_system and name_block for one type, from a body (the variable
 * arguments) using `scope`. */
#define __GPUSYM_ATOMIC_SCOPES(name, type, params, ...)                                   \
  __GPUSYM_ATOMIC_FN type name params {                                                   \
    constexpr int scope = __HIP_MEMORY_SCOPE_AGENT;                                       \
    __VA_ARGS__                                                                           \
  }                                                                                       \
  __GPUSYM_ATOMIC_FN type name##_system params {                                          \
    constexpr int scope = __HIP_MEMORY_SCOPE_SYSTEM;                                      \
    __VA_ARGS__                                                                           \
  }                                                                                       \
  __GPUSYM_ATOMIC_FN type name##_block params {                                           \
    constexpr int scope = __HIP_MEMORY_SCOPE_WORKGROUP;                                   \
    __VA_ARGS__                                                                           \
  }

#define __GPUSYM_ATOMIC(name, builtin, type)                                              \
  __GPUSYM_ATOMIC_SCOPES(name, type, (type * address, type value),                        \
                         return builtin(address, value, __ATOMIC_RELAXED, scope);)

#define __GPUSYM_ATOMIC_INTEGERS(name, builtin)                                           \
  __GPUSYM_ATOMIC(name, builtin, int)                                                     \
  __GPUSYM_ATOMIC(name, builtin, unsigned int)                                            \
  __GPUSYM_ATOMIC(name, builtin, unsigned long)                                           \
  __GPUSYM_ATOMIC(name, builtin, long long)                                               \
  __GPUSYM_ATOMIC(name, builtin, unsigned long long)

#define __GPUSYM_ATOMIC_NUMBERS(name, builtin)                                            \
  __GPUSYM_ATOMIC_INTEGERS(name, builtin)                                                 \
  __GPUSYM_ATOMIC(name, builtin, float)                                                   \
  __GPUSYM_ATOMIC(name, builtin, double)

#ifndef GPUSYM_CUDA_HEADERS
__GPUSYM_ATOMIC_NUMBERS(atomicAdd, __hip_atomic_fetch_add)
__GPUSYM_ATOMIC_NUMBERS(atomicSub, __hip_atomic_fetch_sub)
__GPUSYM_ATOMIC_NUMBERS(atomicMax, __hip_atomic_fetch_max)
__GPUSYM_ATOMIC_NUMBERS(atomicMin, __hip_atomic_fetch_min)
__GPUSYM_ATOMIC_NUMBERS(atomicExch, __hip_atomic_exchange)
__GPUSYM_ATOMIC_INTEGERS(atomicAnd, __hip_atomic_fetch_and)
__GPUSYM_ATOMIC_INTEGERS(atomicOr, __hip_atomic_fetch_or)
__GPUSYM_ATOMIC_INTEGERS(atomicXor, __hip_atomic_fetch_xor)
#else
/* A CUDA source gets CUDA's overloads only: programs define the others
 * themselves (atomicMax on a float or a double is a common one), and HIP's
 * would be redefinitions. */
#define __GPUSYM_ATOMIC_CUDA_INTEGERS(name, builtin)                                      \
  __GPUSYM_ATOMIC(name, builtin, int)                                                     \
  __GPUSYM_ATOMIC(name, builtin, unsigned int)                                            \
  __GPUSYM_ATOMIC(name, builtin, unsigned long long)
__GPUSYM_ATOMIC_CUDA_INTEGERS(atomicAdd, __hip_atomic_fetch_add)
__GPUSYM_ATOMIC(atomicAdd, __hip_atomic_fetch_add, float)
__GPUSYM_ATOMIC(atomicAdd, __hip_atomic_fetch_add, double)
__GPUSYM_ATOMIC(atomicSub, __hip_atomic_fetch_sub, int)
__GPUSYM_ATOMIC(atomicSub, __hip_atomic_fetch_sub, unsigned int)
__GPUSYM_ATOMIC_CUDA_INTEGERS(atomicMax, __hip_atomic_fetch_max)
__GPUSYM_ATOMIC(atomicMax, __hip_atomic_fetch_max, long long)
__GPUSYM_ATOMIC_CUDA_INTEGERS(atomicMin, __hip_atomic_fetch_min)
__GPUSYM_ATOMIC(atomicMin, __hip_atomic_fetch_min, long long)
__GPUSYM_ATOMIC_CUDA_INTEGERS(atomicExch, __hip_atomic_exchange)
__GPUSYM_ATOMIC(atomicExch, __hip_atomic_exchange, float)
__GPUSYM_ATOMIC_CUDA_INTEGERS(atomicAnd, __hip_atomic_fetch_and)
__GPUSYM_ATOMIC_CUDA_INTEGERS(atomicOr, __hip_atomic_fetch_or)
__GPUSYM_ATOMIC_CUDA_INTEGERS(atomicXor, __hip_atomic_fetch_xor)
#undef __GPUSYM_ATOMIC_CUDA_INTEGERS
#endif

#ifndef GPUSYM_CUDA_HEADERS
/* Floating-point operations that HIP distinguishes by what the hardware may
 * skip (denormals, fine-grained memory); here each is the one exact atomic. */
#define __GPUSYM_ATOMIC_FLOAT(name, atomic)                                               \
  __GPUSYM_ATOMIC_FN float name(float *address, float value) { return atomic(address, value); } \
  __GPUSYM_ATOMIC_FN double name(double *address, double value) { return atomic(address, value); }
__GPUSYM_ATOMIC_FLOAT(unsafeAtomicAdd, atomicAdd)
__GPUSYM_ATOMIC_FLOAT(safeAtomicAdd, atomicAdd)
__GPUSYM_ATOMIC_FLOAT(unsafeAtomicMax, atomicMax)
__GPUSYM_ATOMIC_FLOAT(safeAtomicMax, atomicMax)
__GPUSYM_ATOMIC_FLOAT(unsafeAtomicMin, atomicMin)
__GPUSYM_ATOMIC_FLOAT(safeAtomicMin, atomicMin)
#undef __GPUSYM_ATOMIC_FLOAT
#endif

#define __GPUSYM_ATOMIC_CAS(type)                                                         \
  __GPUSYM_ATOMIC_SCOPES(atomicCAS, type, (type * address, type compare, type value),     \
                         __hip_atomic_compare_exchange_strong(address, &compare, value, __ATOMIC_RELAXED, \
                                                              __ATOMIC_RELAXED, scope);   \
                         return compare;)
__GPUSYM_ATOMIC_CAS(int)
__GPUSYM_ATOMIC_CAS(unsigned int)
__GPUSYM_ATOMIC_CAS(unsigned long long)
#ifndef GPUSYM_CUDA_HEADERS
__GPUSYM_ATOMIC_CAS(unsigned long)
__GPUSYM_ATOMIC_CAS(long long)
__GPUSYM_ATOMIC_CAS(float)
__GPUSYM_ATOMIC_CAS(double)
#endif
#undef __GPUSYM_ATOMIC_CAS

/* atomicInc: old >= limit ? 0 : old + 1; atomicDec: old == 0 || old > limit ?
 * limit : old - 1.  Both return the old value. */
#define __GPUSYM_ATOMIC_WRAP(name, next)                                                  \
  __GPUSYM_ATOMIC_SCOPES(name, unsigned int, (unsigned int *address, unsigned int limit), \
                         unsigned int old = __hip_atomic_load(address, __ATOMIC_RELAXED, scope); \
                         while (!__hip_atomic_compare_exchange_weak(address, &old, (next), __ATOMIC_RELAXED, \
                                                                    __ATOMIC_RELAXED, scope)) {} \
                         return old;)
__GPUSYM_ATOMIC_WRAP(atomicInc, old >= limit ? 0u : old + 1)
__GPUSYM_ATOMIC_WRAP(atomicDec, old == 0 || old > limit ? limit : old - 1)
#undef __GPUSYM_ATOMIC_WRAP

#undef __GPUSYM_ATOMIC_NUMBERS
#undef __GPUSYM_ATOMIC_INTEGERS
#undef __GPUSYM_ATOMIC
#undef __GPUSYM_ATOMIC_SCOPES

#endif
