/*
 * hipRAND's host API on the simulated device (gpusym's libhiprand, from
 * device/libraries/hiprand): as in ROCm, a layer over rocRAND's
 * (rocrand/rocrand.h), a hiprandGenerator_t being a rocrand_generator.
 * What is declared here but not provided returns
 * HIPRAND_STATUS_NOT_IMPLEMENTED, with one line on stderr naming the function.
 */
#ifndef GPUSYM_HIPRAND_H
#define GPUSYM_HIPRAND_H

#include "rocrand/rocrand.h"

#define HIPRAND_VERSION_MAJOR 2
#define HIPRAND_VERSION_MINOR 11
#define HIPRAND_VERSION_PATCH 0
#define HIPRAND_VERSION 201100
#define HIPRANDAPI
#define HIPRAND_DEFAULT_MAX_BLOCK_SIZE 256
#define HIPRAND_DEFAULT_MIN_WARPS_PER_EU 1

typedef struct rocrand_generator_base_type hiprandGenerator_st;
typedef hiprandGenerator_st *hiprandGenerator_t;
typedef struct rocrand_discrete_distribution_st hiprandDiscreteDistribution_st;
typedef hiprandDiscreteDistribution_st *hiprandDiscreteDistribution_t;

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hiprandStatus {
  HIPRAND_STATUS_SUCCESS = 0,
  HIPRAND_STATUS_VERSION_MISMATCH = 100,
  HIPRAND_STATUS_NOT_INITIALIZED = 101,
  HIPRAND_STATUS_ALLOCATION_FAILED = 102,
  HIPRAND_STATUS_TYPE_ERROR = 103,
  HIPRAND_STATUS_OUT_OF_RANGE = 104,
  HIPRAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  HIPRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  HIPRAND_STATUS_LAUNCH_FAILURE = 201,
  HIPRAND_STATUS_PREEXISTING_FAILURE = 202,
  HIPRAND_STATUS_INITIALIZATION_FAILED = 203,
  HIPRAND_STATUS_ARCH_MISMATCH = 204,
  HIPRAND_STATUS_INTERNAL_ERROR = 999,
  HIPRAND_STATUS_NOT_IMPLEMENTED = 1000
} hiprandStatus_t;

typedef enum hiprandRngType {
  HIPRAND_RNG_TEST = 0,
  HIPRAND_RNG_PSEUDO_DEFAULT = 400,
  HIPRAND_RNG_PSEUDO_XORWOW = 401,
  HIPRAND_RNG_PSEUDO_MRG32K3A = 402,
  HIPRAND_RNG_PSEUDO_MTGP32 = 403,
  HIPRAND_RNG_PSEUDO_MT19937 = 404,
  HIPRAND_RNG_PSEUDO_PHILOX4_32_10 = 405,
  HIPRAND_RNG_QUASI_DEFAULT = 500,
  HIPRAND_RNG_QUASI_SOBOL32 = 501,
  HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 502,
  HIPRAND_RNG_QUASI_SOBOL64 = 503,
  HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 504
} hiprandRngType_t;

typedef enum hiprandOrdering {
  HIPRAND_ORDERING_PSEUDO_BEST = 100,
  HIPRAND_ORDERING_PSEUDO_DEFAULT = 101,
  HIPRAND_ORDERING_PSEUDO_SEEDED = 102,
  HIPRAND_ORDERING_PSEUDO_LEGACY = 103,
  HIPRAND_ORDERING_PSEUDO_DYNAMIC = 104,
  HIPRAND_ORDERING_QUASI_DEFAULT = 201
} hiprandOrdering_t;

typedef enum hiprandDirectionVectorSet {
  HIPRAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
  HIPRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102,
  HIPRAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
  HIPRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104
} hiprandDirectionVectorSet_t;

hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t *generator, hiprandRngType_t rng_type);
hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t *generator, hiprandRngType_t rng_type);
hiprandStatus_t hiprandDestroyGenerator(hiprandGenerator_t generator);
hiprandStatus_t hiprandGenerate(hiprandGenerator_t generator, unsigned int *output_data, size_t n);
hiprandStatus_t hiprandGenerateChar(hiprandGenerator_t generator, unsigned char *output_data, size_t n);
hiprandStatus_t hiprandGenerateShort(hiprandGenerator_t generator, unsigned short *output_data, size_t n);
hiprandStatus_t hiprandGenerateLongLong(hiprandGenerator_t generator, unsigned long long *output_data, size_t n);
hiprandStatus_t hiprandGenerateUniform(hiprandGenerator_t generator, float *output_data, size_t n);
hiprandStatus_t hiprandGenerateUniformDouble(hiprandGenerator_t generator, double *output_data, size_t n);
hiprandStatus_t hiprandGenerateUniformHalf(hiprandGenerator_t generator, half *output_data, size_t n);
hiprandStatus_t hiprandGenerateNormal(hiprandGenerator_t generator, float *output_data, size_t n, float mean,
                                      float stddev);
hiprandStatus_t hiprandGenerateNormalDouble(hiprandGenerator_t generator, double *output_data, size_t n,
                                            double mean, double stddev);
hiprandStatus_t hiprandGenerateNormalHalf(hiprandGenerator_t generator, half *output_data, size_t n, half mean,
                                          half stddev);
hiprandStatus_t hiprandGenerateLogNormal(hiprandGenerator_t generator, float *output_data, size_t n, float mean,
                                         float stddev);
hiprandStatus_t hiprandGenerateLogNormalDouble(hiprandGenerator_t generator, double *output_data, size_t n,
                                               double mean, double stddev);
hiprandStatus_t hiprandGenerateLogNormalHalf(hiprandGenerator_t generator, half *output_data, size_t n, half mean,
                                             half stddev);
hiprandStatus_t hiprandGeneratePoisson(hiprandGenerator_t generator, unsigned int *output_data, size_t n,
                                       double lambda);
hiprandStatus_t hiprandGenerateSeeds(hiprandGenerator_t generator);
hiprandStatus_t hiprandSetStream(hiprandGenerator_t generator, hipStream_t stream);
hiprandStatus_t hiprandSetPseudoRandomGeneratorSeed(hiprandGenerator_t generator, unsigned long long seed);
hiprandStatus_t hiprandSetGeneratorOffset(hiprandGenerator_t generator, unsigned long long offset);
hiprandStatus_t hiprandSetGeneratorOrdering(hiprandGenerator_t generator, hiprandOrdering_t order);
hiprandStatus_t hiprandSetQuasiRandomGeneratorDimensions(hiprandGenerator_t generator, unsigned int dimensions);
hiprandStatus_t hiprandGetVersion(int *version);
hiprandStatus_t hiprandCreatePoissonDistribution(double lambda, hiprandDiscreteDistribution_t *discrete_distribution);
hiprandStatus_t hiprandDestroyDistribution(hiprandDiscreteDistribution_t discrete_distribution);
hiprandStatus_t hiprandGetDirectionVectors32(unsigned int (**vectors)[32], hiprandDirectionVectorSet_t set);
hiprandStatus_t hiprandGetDirectionVectors64(unsigned long long (**vectors)[64], hiprandDirectionVectorSet_t set);
hiprandStatus_t hiprandGetScrambleConstants32(const unsigned int **constants);
hiprandStatus_t hiprandGetScrambleConstants64(const unsigned long long **constants);

#ifdef __cplusplus
}
#endif

#endif
