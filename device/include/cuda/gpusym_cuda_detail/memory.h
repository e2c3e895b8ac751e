/*
 * CUDA's loads and stores with a cache hint (__ldcg, __ldca, __ldcs, __ldlu,
 * __ldcv; __stwb, __stcg, __stcs, __stwt) for every type, as __ldg is: on
 * the simulated device each is a plain access (__ldcv and __stwt, which
 * bypass the caches, volatile ones); and the conversions between generic
 * and shared addresses, the same addresses here.
 */
#ifndef GPUSYM_CUDA_MEMORY_H
#define GPUSYM_CUDA_MEMORY_H

template <typename T>
struct __gpusym_same {
  typedef T type;
};

#define __GPUSYM_CUDA_LOAD(name, access)                                       \
  template <typename T>                                                        \
  static __device__ __GPUSYM_INLINE T name(const T *address) {                 \
    return *static_cast<access T *>(address);                                  \
  }
#define __GPUSYM_CUDA_STORE(name, access)                                      \
  template <typename T>                                                        \
  static __device__ __GPUSYM_INLINE void name(T *address, typename __gpusym_same<T>::type value) { \
    *static_cast<access T *>(address) = value;                                 \
  }
__GPUSYM_CUDA_LOAD(__ldcg, const)
__GPUSYM_CUDA_LOAD(__ldca, const)
__GPUSYM_CUDA_LOAD(__ldcs, const)
__GPUSYM_CUDA_LOAD(__ldlu, const)
__GPUSYM_CUDA_LOAD(__ldcv, const volatile)
__GPUSYM_CUDA_STORE(__stwb, )
__GPUSYM_CUDA_STORE(__stcg, )
__GPUSYM_CUDA_STORE(__stcs, )
__GPUSYM_CUDA_STORE(__stwt, volatile)
#undef __GPUSYM_CUDA_LOAD
#undef __GPUSYM_CUDA_STORE

/* Shared-window addresses are generic ones on the simulated device. */
static __device__ __GPUSYM_INLINE size_t __cvta_generic_to_shared(const void *address) {
  return reinterpret_cast<size_t>(address);
}
static __device__ __GPUSYM_INLINE void *__cvta_shared_to_generic(size_t address) {
  return reinterpret_cast<void *>(address);
}

#endif
