// cuRAND's host API over gpusym's rocRAND: a curandGenerator_t holds a
// rocRAND generator switched to cuRAND's seeding.  rocRAND generates the
// outputs; the distributions of XORWOW, Philox and Sobol32, whose
// conversions differ from rocRAND's, are made from those outputs in place,
// in the generator's stream order, with curand_kernel.h's conversions.
// MRG32k3a's distributions are rocRAND's, which are cuRAND's.
#include <curand.h>
#include <gpusym/random_engines.h>

#include "stream_work.h"
#include <rocrand/rocrand.h>

#include <cmath>
#include <functional>
#include <new>

extern "C" rocrand_status gpusym_rocrand_use_curand_seeding(rocrand_generator generator);

struct curandGenerator_st {
  rocrand_generator rocrand;
  curandRngType_t type;
  bool host;
  cudaStream_t stream = nullptr;
};

namespace {

curandStatus_t status(rocrand_status status) {
  switch (status) {
    case ROCRAND_STATUS_SUCCESS:
    case ROCRAND_STATUS_VERSION_MISMATCH:
    case ROCRAND_STATUS_NOT_CREATED:
    case ROCRAND_STATUS_ALLOCATION_FAILED:
    case ROCRAND_STATUS_TYPE_ERROR:
    case ROCRAND_STATUS_OUT_OF_RANGE:
    case ROCRAND_STATUS_LENGTH_NOT_MULTIPLE:
    case ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED: return curandStatus_t(status);  // the same values
    case ROCRAND_STATUS_LAUNCH_FAILURE: return CURAND_STATUS_LAUNCH_FAILURE;
    case ROCRAND_STATUS_NOT_IMPLEMENTED: return CURAND_STATUS_TYPE_ERROR;
    default: return CURAND_STATUS_INTERNAL_ERROR;
  }
}

// rocRAND's generator for cuRAND's type; the types gpusym has not give
// ROCRAND_RNG_PSEUDO_MTGP32, which rocRAND refuses.
rocrand_rng_type rocrand_type(curandRngType_t type) {
  switch (type) {
    case CURAND_RNG_PSEUDO_DEFAULT:
    case CURAND_RNG_PSEUDO_XORWOW: return ROCRAND_RNG_PSEUDO_XORWOW;
    case CURAND_RNG_PSEUDO_MRG32K3A: return ROCRAND_RNG_PSEUDO_MRG32K3A;
    case CURAND_RNG_PSEUDO_PHILOX4_32_10: return ROCRAND_RNG_PSEUDO_PHILOX4_32_10;
    case CURAND_RNG_QUASI_DEFAULT:
    case CURAND_RNG_QUASI_SOBOL32: return ROCRAND_RNG_QUASI_SOBOL32;
    default: return ROCRAND_RNG_PSEUDO_MTGP32;
  }
}

bool is_pseudo(const curandGenerator_st *g) { return g->type < CURAND_RNG_QUASI_DEFAULT; }
bool is_mrg(const curandGenerator_st *g) { return g->type == CURAND_RNG_PSEUDO_MRG32K3A; }

curandStatus_t create(curandGenerator_t *generator, curandRngType_t type, bool host) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  rocrand_rng_type rocrand = rocrand_type(type);
  auto *g = new (std::nothrow) curandGenerator_st{nullptr, type, host};
  if (!g) return CURAND_STATUS_ALLOCATION_FAILED;
  rocrand_status made = host ? rocrand_create_generator_host(&g->rocrand, rocrand)
                             : rocrand_create_generator(&g->rocrand, rocrand);
  if (made == ROCRAND_STATUS_SUCCESS) made = gpusym_rocrand_use_curand_seeding(g->rocrand);
  if (made == ROCRAND_STATUS_SUCCESS && is_pseudo(g)) made = rocrand_set_seed(g->rocrand, 0);
  if (made != ROCRAND_STATUS_SUCCESS) {
    if (g->rocrand) rocrand_destroy_generator(g->rocrand);
    delete g;
    return status(made);
  }
  *generator = g;
  return CURAND_STATUS_SUCCESS;
}

// Runs `work` after the generations queued before it (at once for a host generator).
curandStatus_t then(curandGenerator_t g, std::function<void()> work) {
  if (g->host) {
    work();
    return CURAND_STATUS_SUCCESS;
  }
  hipError_t queued = gpusym_library::in_stream_order(g->stream, std::move(work));
  if (queued == hipErrorOutOfMemory) return CURAND_STATUS_ALLOCATION_FAILED;
  return queued == hipSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
}

// `words` outputs of the generator into `out`, then `convert` on them.
curandStatus_t from_outputs(curandGenerator_t g, void *out, size_t words, std::function<void()> convert) {
  rocrand_status generated = rocrand_generate(g->rocrand, static_cast<unsigned int *>(out), words);
  return generated == ROCRAND_STATUS_SUCCESS ? then(g, std::move(convert)) : status(generated);
}

// curand_kernel.h's conversions of outputs (gpusym/random_engines.h).
using gpusym_random::curand_uniform;
using gpusym_random::curand_uniform_double;
void normal_pair(unsigned int x, unsigned int y, float out[2]) { gpusym_random::curand_normals(x, y, out[0], out[1]); }
void normal_double_pair(const unsigned int w[4], double out[2]) {
  gpusym_random::curand_normals_double(w[0], w[1], w[2], w[3], out[0], out[1]);
}

// n normals (mapped by `map`), from pairs of outputs made in place.
template <class T, class Map> curandStatus_t normals(curandGenerator_t g, T *out, size_t n, Map map) {
  if (n % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  constexpr size_t words = sizeof(T) / sizeof(unsigned int);  // outputs per value
  return from_outputs(g, out, n * words, [=] {
    auto *w = reinterpret_cast<unsigned int *>(out);
    for (size_t i = 0; i < n; i += 2) {
      T pair[2];
      if constexpr (words == 1)
        normal_pair(w[i], w[i + 1], pair);
      else
        normal_double_pair(w + 2 * i, pair);
      out[i] = map(pair[0]);
      out[i + 1] = map(pair[1]);
    }
  });
}

}  // namespace

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t type) {
  return create(generator, type, false);
}
curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t type) {
  return create(generator, type, true);
}
curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  rocrand_status destroyed = rocrand_destroy_generator(generator->rocrand);
  delete generator;
  return status(destroyed);
}

curandStatus_t curandGetVersion(int *version) {
  if (!version) return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGetProperty(libraryPropertyType type, int *value) {
  if (!value) return CURAND_STATUS_OUT_OF_RANGE;
  switch (type) {
    case MAJOR_VERSION: *value = CURAND_VER_MAJOR; return CURAND_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CURAND_VER_MINOR; return CURAND_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CURAND_VER_PATCH; return CURAND_STATUS_SUCCESS;
  }
  return CURAND_STATUS_OUT_OF_RANGE;
}

curandStatus_t curandSetStream(curandGenerator_t g, cudaStream_t stream) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  g->stream = stream;
  return status(rocrand_set_stream(g->rocrand, stream));
}
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long seed) {
  return g ? status(rocrand_set_seed(g->rocrand, seed)) : CURAND_STATUS_NOT_INITIALIZED;
}
curandStatus_t curandSetGeneratorOffset(curandGenerator_t g, unsigned long long offset) {
  return g ? status(rocrand_set_offset(g->rocrand, offset)) : CURAND_STATUS_NOT_INITIALIZED;
}
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g, curandOrdering_t order) {
  return g ? status(rocrand_set_ordering(g->rocrand, rocrand_ordering(order))) : CURAND_STATUS_NOT_INITIALIZED;
}
curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t g, unsigned int dimensions) {
  return g ? status(rocrand_set_quasi_random_generator_dimensions(g->rocrand, dimensions))
           : CURAND_STATUS_NOT_INITIALIZED;
}
curandStatus_t curandGenerateSeeds(curandGenerator_t g) {
  return g ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED;
}

curandStatus_t curandGenerate(curandGenerator_t g, unsigned int *out, size_t n) {
  return g ? status(rocrand_generate(g->rocrand, out, n)) : CURAND_STATUS_NOT_INITIALIZED;
}

curandStatus_t curandGenerateUniform(curandGenerator_t g, float *out, size_t n) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (is_mrg(g)) return status(rocrand_generate_uniform(g->rocrand, out, n));
  return from_outputs(g, out, n, [=] {
    auto *w = reinterpret_cast<unsigned int *>(out);
    for (size_t i = 0; i < n; i++) out[i] = curand_uniform(w[i]);
  });
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t g, double *out, size_t n) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (is_mrg(g)) return status(rocrand_generate_uniform_double(g->rocrand, out, n));
  auto *w = reinterpret_cast<unsigned int *>(out);
  if (g->type == CURAND_RNG_PSEUDO_PHILOX4_32_10)  // one output a value, (x + 1) 2^-32, as curand_uniform_double
    return from_outputs(g, out, n, [=] {
      for (size_t i = n; i-- > 0;) out[i] = (w[i] + 1.0) * 0x1p-32;
    });
  if (is_pseudo(g))  // two outputs a value, in the value's place
    return from_outputs(g, out, 2 * n, [=] {
      for (size_t i = 0; i < n; i++) out[i] = curand_uniform_double(w[2 * i], w[2 * i + 1]);
    });
  // Sobol32: one output a value, x 2^-32 + 2^-33; from the last, as values are wider.
  return from_outputs(g, out, n, [=] {
    for (size_t i = n; i-- > 0;) out[i] = w[i] * 0x1p-32 + 0x1p-33;
  });
}

curandStatus_t curandGenerateNormal(curandGenerator_t g, float *out, size_t n, float mean, float stddev) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (is_mrg(g) || !is_pseudo(g)) return status(rocrand_generate_normal(g->rocrand, out, n, mean, stddev));
  return normals(g, out, n, [=](float x) { return mean + stddev * x; });
}
curandStatus_t curandGenerateNormalDouble(curandGenerator_t g, double *out, size_t n, double mean, double stddev) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (is_mrg(g) || !is_pseudo(g)) return status(rocrand_generate_normal_double(g->rocrand, out, n, mean, stddev));
  return normals(g, out, n, [=](double x) { return mean + stddev * x; });
}
curandStatus_t curandGenerateLogNormal(curandGenerator_t g, float *out, size_t n, float mean, float stddev) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (is_mrg(g) || !is_pseudo(g)) return status(rocrand_generate_log_normal(g->rocrand, out, n, mean, stddev));
  return normals(g, out, n, [=](float x) { return expf(mean + stddev * x); });
}
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t g, double *out, size_t n, double mean,
                                             double stddev) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (is_mrg(g) || !is_pseudo(g))
    return status(rocrand_generate_log_normal_double(g->rocrand, out, n, mean, stddev));
  return normals(g, out, n, [=](double x) { return std::exp(mean + stddev * x); });
}

curandStatus_t curandGeneratePoisson(curandGenerator_t g, unsigned int *out, size_t n, double lambda) {
  return g ? status(rocrand_generate_poisson(g->rocrand, out, n, lambda)) : CURAND_STATUS_NOT_INITIALIZED;
}

}  // extern "C"
