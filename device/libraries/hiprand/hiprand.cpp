/*
 * gpusym's hipRAND host API: as ROCm's, a layer over rocRAND's (a
 * hiprandGenerator_t is a rocrand_generator, this library links gpusym's
 * librocrand); hipRAND's generator types and statuses are mapped to
 * rocRAND's and back.
 */
#include <hiprand/hiprand.h>

#include <cstdio>

#include "not_supported.h"

namespace {

hiprandStatus_t status(rocrand_status status) {
  switch (status) {
    case ROCRAND_STATUS_SUCCESS:
      return HIPRAND_STATUS_SUCCESS;
    case ROCRAND_STATUS_VERSION_MISMATCH:
      return HIPRAND_STATUS_VERSION_MISMATCH;
    case ROCRAND_STATUS_NOT_CREATED:
      return HIPRAND_STATUS_NOT_INITIALIZED;
    case ROCRAND_STATUS_ALLOCATION_FAILED:
      return HIPRAND_STATUS_ALLOCATION_FAILED;
    case ROCRAND_STATUS_TYPE_ERROR:
      return HIPRAND_STATUS_TYPE_ERROR;
    case ROCRAND_STATUS_OUT_OF_RANGE:
      return HIPRAND_STATUS_OUT_OF_RANGE;
    case ROCRAND_STATUS_LENGTH_NOT_MULTIPLE:
      return HIPRAND_STATUS_LENGTH_NOT_MULTIPLE;
    case ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED:
      return HIPRAND_STATUS_DOUBLE_PRECISION_REQUIRED;
    case ROCRAND_STATUS_LAUNCH_FAILURE:
      return HIPRAND_STATUS_LAUNCH_FAILURE;
    case ROCRAND_STATUS_NOT_IMPLEMENTED:
      return HIPRAND_STATUS_NOT_IMPLEMENTED;
    default:
      return HIPRAND_STATUS_INTERNAL_ERROR;
  }
}

/* hipRAND's numbering of the generators differs from rocRAND's. */
rocrand_rng_type rng_type(hiprandRngType_t type) {
  switch (type) {
    case HIPRAND_RNG_PSEUDO_DEFAULT:
      return ROCRAND_RNG_PSEUDO_DEFAULT;
    case HIPRAND_RNG_PSEUDO_XORWOW:
      return ROCRAND_RNG_PSEUDO_XORWOW;
    case HIPRAND_RNG_PSEUDO_MRG32K3A:
      return ROCRAND_RNG_PSEUDO_MRG32K3A;
    case HIPRAND_RNG_PSEUDO_MTGP32:
      return ROCRAND_RNG_PSEUDO_MTGP32;
    case HIPRAND_RNG_PSEUDO_MT19937:
      return ROCRAND_RNG_PSEUDO_MT19937;
    case HIPRAND_RNG_PSEUDO_PHILOX4_32_10:
      return ROCRAND_RNG_PSEUDO_PHILOX4_32_10;
    case HIPRAND_RNG_QUASI_DEFAULT:
      return ROCRAND_RNG_QUASI_DEFAULT;
    case HIPRAND_RNG_QUASI_SOBOL32:
      return ROCRAND_RNG_QUASI_SOBOL32;
    case HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL32:
      return ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL32;
    case HIPRAND_RNG_QUASI_SOBOL64:
      return ROCRAND_RNG_QUASI_SOBOL64;
    default:
      return ROCRAND_RNG_QUASI_SCRAMBLED_SOBOL64;
  }
}

hiprandStatus_t not_implemented(const char *function) {
  gpusym_library::report_not_supported("hipRAND", function, "HIPRAND_STATUS_NOT_IMPLEMENTED");
  return HIPRAND_STATUS_NOT_IMPLEMENTED;
}

}  // namespace

extern "C" {

hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t *generator, hiprandRngType_t rng_type_) {
  return status(rocrand_create_generator(generator, rng_type(rng_type_)));
}
hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t *generator, hiprandRngType_t rng_type_) {
  return status(rocrand_create_generator_host_blocking(generator, rng_type(rng_type_)));
}
hiprandStatus_t hiprandDestroyGenerator(hiprandGenerator_t generator) {
  return status(rocrand_destroy_generator(generator));
}
hiprandStatus_t hiprandGenerate(hiprandGenerator_t generator, unsigned int *output_data, size_t n) {
  return status(rocrand_generate(generator, output_data, n));
}
hiprandStatus_t hiprandGenerateChar(hiprandGenerator_t, unsigned char *, size_t) {
  return not_implemented("hiprandGenerateChar");
}
hiprandStatus_t hiprandGenerateShort(hiprandGenerator_t, unsigned short *, size_t) {
  return not_implemented("hiprandGenerateShort");
}
hiprandStatus_t hiprandGenerateLongLong(hiprandGenerator_t, unsigned long long *, size_t) {
  return not_implemented("hiprandGenerateLongLong");
}
hiprandStatus_t hiprandGenerateUniform(hiprandGenerator_t generator, float *output_data, size_t n) {
  return status(rocrand_generate_uniform(generator, output_data, n));
}
hiprandStatus_t hiprandGenerateUniformDouble(hiprandGenerator_t generator, double *output_data, size_t n) {
  return status(rocrand_generate_uniform_double(generator, output_data, n));
}
hiprandStatus_t hiprandGenerateUniformHalf(hiprandGenerator_t, half *, size_t) {
  return not_implemented("hiprandGenerateUniformHalf");
}
hiprandStatus_t hiprandGenerateNormal(hiprandGenerator_t generator, float *output_data, size_t n, float mean,
                                      float stddev) {
  return status(rocrand_generate_normal(generator, output_data, n, mean, stddev));
}
hiprandStatus_t hiprandGenerateNormalDouble(hiprandGenerator_t generator, double *output_data, size_t n,
                                            double mean, double stddev) {
  return status(rocrand_generate_normal_double(generator, output_data, n, mean, stddev));
}
hiprandStatus_t hiprandGenerateNormalHalf(hiprandGenerator_t, half *, size_t, half, half) {
  return not_implemented("hiprandGenerateNormalHalf");
}
hiprandStatus_t hiprandGenerateLogNormal(hiprandGenerator_t generator, float *output_data, size_t n, float mean,
                                         float stddev) {
  return status(rocrand_generate_log_normal(generator, output_data, n, mean, stddev));
}
hiprandStatus_t hiprandGenerateLogNormalDouble(hiprandGenerator_t generator, double *output_data, size_t n,
                                               double mean, double stddev) {
  return status(rocrand_generate_log_normal_double(generator, output_data, n, mean, stddev));
}
hiprandStatus_t hiprandGenerateLogNormalHalf(hiprandGenerator_t, half *, size_t, half, half) {
  return not_implemented("hiprandGenerateLogNormalHalf");
}
hiprandStatus_t hiprandGeneratePoisson(hiprandGenerator_t generator, unsigned int *output_data, size_t n,
                                       double lambda) {
  return status(rocrand_generate_poisson(generator, output_data, n, lambda));
}
hiprandStatus_t hiprandGenerateSeeds(hiprandGenerator_t generator) {
  return status(rocrand_initialize_generator(generator));
}
hiprandStatus_t hiprandSetStream(hiprandGenerator_t generator, hipStream_t stream) {
  return status(rocrand_set_stream(generator, stream));
}
hiprandStatus_t hiprandSetPseudoRandomGeneratorSeed(hiprandGenerator_t generator, unsigned long long seed) {
  return status(rocrand_set_seed(generator, seed));
}
hiprandStatus_t hiprandSetGeneratorOffset(hiprandGenerator_t generator, unsigned long long offset) {
  return status(rocrand_set_offset(generator, offset));
}
hiprandStatus_t hiprandSetGeneratorOrdering(hiprandGenerator_t generator, hiprandOrdering_t order) {
  return status(rocrand_set_ordering(generator, static_cast<rocrand_ordering>(order)));
}
hiprandStatus_t hiprandSetQuasiRandomGeneratorDimensions(hiprandGenerator_t generator, unsigned int dimensions) {
  return status(rocrand_set_quasi_random_generator_dimensions(generator, dimensions));
}
hiprandStatus_t hiprandGetVersion(int *version) {
  if (!version) return HIPRAND_STATUS_OUT_OF_RANGE;
  *version = HIPRAND_VERSION;
  return HIPRAND_STATUS_SUCCESS;
}
hiprandStatus_t hiprandCreatePoissonDistribution(double, hiprandDiscreteDistribution_t *) {
  return not_implemented("hiprandCreatePoissonDistribution");
}
hiprandStatus_t hiprandDestroyDistribution(hiprandDiscreteDistribution_t) {
  return not_implemented("hiprandDestroyDistribution");
}
hiprandStatus_t hiprandGetDirectionVectors32(unsigned int (**)[32], hiprandDirectionVectorSet_t) {
  return not_implemented("hiprandGetDirectionVectors32");
}
hiprandStatus_t hiprandGetDirectionVectors64(unsigned long long (**)[64], hiprandDirectionVectorSet_t) {
  return not_implemented("hiprandGetDirectionVectors64");
}
hiprandStatus_t hiprandGetScrambleConstants32(const unsigned int **) {
  return not_implemented("hiprandGetScrambleConstants32");
}
hiprandStatus_t hiprandGetScrambleConstants64(const unsigned long long **) {
  return not_implemented("hiprandGetScrambleConstants64");
}

}  // extern "C"
