/*
 * cuRAND's host API (CUDA 12.4, cuRAND 10.3) on the gpusym simulated
 * device: generators over gpusym's rocRAND (device/libraries/curand), writing
 * device memory in the generator's stream order (host memory at once for
 * curandCreateGeneratorHost).
 *
 * A pseudorandom generator gives the sequence of cuRAND's device API from
 * curand_init(seed, 0, offset): its subsequence 0, continued by each call
 * (cuRAND's own host generators interleave many subsequences, in an order of
 * their GPU launches).  XORWOW and Philox4x32-10 have curand_kernel.h's
 * conversions (curand_uniform, curand_uniform_double, Box-Muller pairs);
 * MRG32k3a's uniforms and normals are cuRAND's too, its 32-bit outputs
 * rocRAND's scaling of them.  Sobol32 (21 dimensions) has bits and
 * uniforms.  Poisson counts have the right distribution, not cuRAND's
 * values.  MTGP32, MT19937, the 64-bit and scrambled Sobol generators and
 * the normals of Sobol return CURAND_STATUS_TYPE_ERROR.  Functions cuRAND has
 * and gpusym does not (discrete distributions, direction vectors) are not
 * declared.
 */
#ifndef GPUSYM_CURAND_H
#define GPUSYM_CURAND_H
#define CURAND_H_

#include <stddef.h>

#include "cuda_runtime_api.h"
#include "library_types.h"

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 3
#define CURAND_VER_PATCH 5
#define CURAND_VER_BUILD 147
#define CURAND_VERSION (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)
#define CURANDAPI

enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
};
typedef enum curandStatus curandStatus_t;

enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100, /* XORWOW */
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200, /* Sobol32 */
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
};
typedef enum curandRngType curandRngType_t;

/* Every ordering gives the one order gpusym has. */
enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
};
typedef enum curandOrdering curandOrdering_t;

struct curandGenerator_st;
typedef struct curandGenerator_st *curandGenerator_t;

#ifdef __cplusplus
extern "C" {
#endif

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t curandGetVersion(int *version);
curandStatus_t curandGetProperty(libraryPropertyType type, int *value);
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream);
/* The seed (0 until set) and offset (0) restart the sequence. */
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed);
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset);
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order);
curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator, unsigned int num_dimensions);
/* Nothing to do: seeding happens with the first generation. */
curandStatus_t curandGenerateSeeds(curandGenerator_t generator);

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num);
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr, size_t num);
/* n even for the pseudorandom generators (Box-Muller pairs). */
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean,
                                    float stddev);
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                          double stddev);
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean,
                                       float stddev);
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                             double stddev);
curandStatus_t curandGeneratePoisson(curandGenerator_t generator, unsigned int *outputPtr, size_t n, double lambda);

#ifdef __cplusplus
}
#endif

#endif
