/*
 * hipRAND's device API, as ROCm's: a layer over rocRAND's
 * (rocrand/rocrand_kernel.h, where the generators and conversions are
 * described).  Each hipRAND state derives from its rocRAND state
 * (hiprandState_t and hiprandStateXORWOW_t from rocrand_state_xorwow,
 * hiprandStatePhilox4_32_10_t, hiprandStateMRG32k3a_t, hiprandStateSobol32_t,
 * hiprandStateScrambledSobol32_t), and each function calls rocRAND's on the
 * base: hiprand_init, hiprand, hiprand4, hiprand_uniform(2/4)(_double),
 * hiprand_normal(2/4)(_double), hiprand_log_normal(2/4)(_double),
 * hiprand_poisson(4), skipahead, skipahead_subsequence and
 * skipahead_sequence (rocRAND's skipahead_subsequence, as hipRAND's is).
 * Not provided: MTGP32 (hiprandStateMtgp32_t) and hiprand_discrete.
 */
#ifndef GPUSYM_HIPRAND_KERNEL_H
#define GPUSYM_HIPRAND_KERNEL_H

#include <rocrand/rocrand_kernel.h>

#include "hiprand/hiprand.h"

#define __GPUSYM_HIPRAND_STATE(Name, Base) \
  struct Name : public Base {              \
    typedef Base base;                     \
  };                                       \
  typedef struct Name Name##_t;
__GPUSYM_HIPRAND_STATE(hiprandState, rocrand_state_xorwow)
__GPUSYM_HIPRAND_STATE(hiprandStateXORWOW, rocrand_state_xorwow)
__GPUSYM_HIPRAND_STATE(hiprandStatePhilox4_32_10, rocrand_state_philox4x32_10)
__GPUSYM_HIPRAND_STATE(hiprandStateMRG32k3a, rocrand_state_mrg32k3a)
__GPUSYM_HIPRAND_STATE(hiprandStateSobol32, rocrand_state_sobol32)
__GPUSYM_HIPRAND_STATE(hiprandStateScrambledSobol32, rocrand_state_scrambled_sobol32)
#undef __GPUSYM_HIPRAND_STATE

typedef unsigned int hiprandDirectionVectors32_t[32];

#define __GPUSYM_HIPRAND static __device__ __GPUSYM_INLINE

template <typename State>
__GPUSYM_HIPRAND typename State::base *__gpusym_hiprand_base(State *state) {
  return static_cast<typename State::base *>(state);
}

template <typename State>
__GPUSYM_HIPRAND void hiprand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, State *state) {
  rocrand_init(seed, subsequence, offset, __gpusym_hiprand_base(state));
}
__GPUSYM_HIPRAND void hiprand_init(hiprandDirectionVectors32_t direction_vectors, unsigned int offset,
                                   hiprandStateSobol32_t *state) {
  rocrand_init(direction_vectors, offset, __gpusym_hiprand_base(state));
}
__GPUSYM_HIPRAND void hiprand_init(hiprandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                                   unsigned int offset, hiprandStateScrambledSobol32_t *state) {
  rocrand_init(direction_vectors, scramble_c, offset, __gpusym_hiprand_base(state));
}

template <typename State>
__GPUSYM_HIPRAND void skipahead(unsigned long long n, State *state) {
  skipahead(n, __gpusym_hiprand_base(state));
}
template <typename State>
__GPUSYM_HIPRAND void skipahead_subsequence(unsigned long long n, State *state) {
  skipahead_subsequence(n, __gpusym_hiprand_base(state));
}
template <typename State>
__GPUSYM_HIPRAND void skipahead_sequence(unsigned long long n, State *state) {
  skipahead_subsequence(n, __gpusym_hiprand_base(state));
}

/* Name(state, args...) is RocName on the base. */
#define __GPUSYM_HIPRAND_FORWARD(Name, RocName)                                 \
  template <typename State, typename... Arguments>                              \
  __GPUSYM_HIPRAND auto Name(State *state, Arguments... arguments)              \
      ->decltype(RocName(__gpusym_hiprand_base(state), arguments...)) {         \
    return RocName(__gpusym_hiprand_base(state), arguments...);                 \
  }
__GPUSYM_HIPRAND_FORWARD(hiprand, rocrand)
__GPUSYM_HIPRAND_FORWARD(hiprand4, rocrand4)
__GPUSYM_HIPRAND_FORWARD(hiprand_uniform, rocrand_uniform)
__GPUSYM_HIPRAND_FORWARD(hiprand_uniform2, rocrand_uniform2)
__GPUSYM_HIPRAND_FORWARD(hiprand_uniform4, rocrand_uniform4)
__GPUSYM_HIPRAND_FORWARD(hiprand_uniform_double, rocrand_uniform_double)
__GPUSYM_HIPRAND_FORWARD(hiprand_uniform2_double, rocrand_uniform_double2)
__GPUSYM_HIPRAND_FORWARD(hiprand_uniform4_double, rocrand_uniform_double4)
__GPUSYM_HIPRAND_FORWARD(hiprand_normal, rocrand_normal)
__GPUSYM_HIPRAND_FORWARD(hiprand_normal2, rocrand_normal2)
__GPUSYM_HIPRAND_FORWARD(hiprand_normal4, rocrand_normal4)
__GPUSYM_HIPRAND_FORWARD(hiprand_normal_double, rocrand_normal_double)
__GPUSYM_HIPRAND_FORWARD(hiprand_normal2_double, rocrand_normal_double2)
__GPUSYM_HIPRAND_FORWARD(hiprand_normal4_double, rocrand_normal_double4)
__GPUSYM_HIPRAND_FORWARD(hiprand_log_normal, rocrand_log_normal)
__GPUSYM_HIPRAND_FORWARD(hiprand_log_normal2, rocrand_log_normal2)
__GPUSYM_HIPRAND_FORWARD(hiprand_log_normal4, rocrand_log_normal4)
__GPUSYM_HIPRAND_FORWARD(hiprand_log_normal_double, rocrand_log_normal_double)
__GPUSYM_HIPRAND_FORWARD(hiprand_log_normal2_double, rocrand_log_normal_double2)
__GPUSYM_HIPRAND_FORWARD(hiprand_log_normal4_double, rocrand_log_normal_double4)
__GPUSYM_HIPRAND_FORWARD(hiprand_poisson, rocrand_poisson)
__GPUSYM_HIPRAND_FORWARD(hiprand_poisson4, rocrand_poisson4)
#undef __GPUSYM_HIPRAND_FORWARD

#undef __GPUSYM_HIPRAND

#endif
