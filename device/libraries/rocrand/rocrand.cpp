/*
 * gpusym's rocRAND host API: generators on the CPU over the engines of
 * gpusym/random_engines.h, writing into device memory (ordinary memory) in
 * the generator's stream order (hipLaunchHostFunc); a host generator
 * (rocrand_create_generator_host) writes at once.
 *
 * The numbers of a pseudorandom generator are its plain sequence from its
 * seed, skipped by the offset and continued by each call: XORWOW,
 * MRG32k3a (rocRAND's seeding) and Philox4x32-10, subsequence 0.  For
 * Philox that is rocRAND's order too; rocRAND's XORWOW and MRG32k3a
 * interleave the subsequences of as many engines as its launch has threads
 * (an order that depends on the GPU), which gpusym does not copy.  The
 * conversions are rocRAND's (random_engines.h): a uniform float takes one
 * output, a double two (MRG32k3a: one each), a normal pair two (doubles
 * four; MRG32k3a two), the second of the last pair dropped when n is odd.
 * Poisson counts follow gpusym_random::poisson, not rocRAND's algorithm.
 * gpusym's cuRAND (device/libraries/curand) makes its generators here and
 * switches XORWOW and MRG32k3a to cuRAND's seeding
 * (gpusym_rocrand_use_curand_seeding).
 * Sobol32 has Joe and Kuo's first 21 dimensions, each dimension's n / d
 * points after one another, from point `offset` on (rocRAND's order); its
 * normals, Poisson and the scrambled Sobol are not provided.
 */
#include <rocrand/rocrand.h>

#include <cstdio>
#include <functional>
#include <new>

#include "gpusym/random_engines.h"
#include "joe_kuo.h"
#include "not_supported.h"
#include "stream_work.h"

namespace R = gpusym_random;

namespace {

rocrand_status not_implemented(const char *function) {
  gpusym_library::report_not_supported("rocRAND", function, "ROCRAND_STATUS_NOT_IMPLEMENTED");
  return ROCRAND_STATUS_NOT_IMPLEMENTED;
}

/* The direction vectors of the Sobol32 dimensions, 32 a dimension. */
const unsigned int *sobol_vectors() {
  static const auto *table = [] {
    auto *vectors = new unsigned int[kSobolDimensions * 32];
    for (int k = 0; k < 32; k++) vectors[k] = 1u << (31 - k);
    for (unsigned int d = 1; d < kSobolDimensions; d++) {
      const JoeKuoRow &row = kJoeKuo[d - 1];
      unsigned int *v = vectors + 32 * d;
      for (unsigned int k = 0; k < 32; k++) {
        if (k < row.s) {
          v[k] = row.m[k] << (31 - k);
          continue;
        }
        v[k] = v[k - row.s] ^ (v[k - row.s] >> row.s);
        for (unsigned int j = 1; j < row.s; j++)
          if ((row.a >> (row.s - 1 - j)) & 1) v[k] ^= v[k - j];
      }
    }
    return vectors;
  }();
  return table;
}

/* A pseudorandom generator's state. */
struct Engine {
  rocrand_rng_type type;
  bool curand_seeding; /* cuRAND's constants, not rocRAND's */
  unsigned int d, v[5];                                   /* XORWOW */
  unsigned int counter[4], key[2], block[4], position;   /* Philox */
  unsigned int g1[3], g2[3];                             /* MRG32k3a */

  void restart(unsigned long long seed, unsigned long long offset) {
    switch (type) {
      case ROCRAND_RNG_PSEUDO_XORWOW:
        R::xorwow_init(curand_seeding ? R::curand_xorwow_seeding : R::rocrand_xorwow_seeding, seed, 0, offset, d, v);
        break;
      case ROCRAND_RNG_PSEUDO_PHILOX4_32_10:
        key[0] = static_cast<unsigned int>(seed);
        key[1] = static_cast<unsigned int>(seed >> 32);
        counter[0] = counter[1] = counter[2] = counter[3] = position = 0;
        R::philox_advance(counter, R::philox_skip(position, offset), false);
        R::philox_block(counter, key, block);
        break;
      default:
        if (curand_seeding)
          R::mrg32k3a_seed_curand(seed, g1, g2);
        else
          R::mrg32k3a_seed_rocrand(seed, g1, g2);
        R::mrg32k3a_skip(g1, g2, offset, 0);
    }
  }

  /* The next output: the 32 bits, or MRG32k3a's z. */
  unsigned int next() {
    switch (type) {
      case ROCRAND_RNG_PSEUDO_XORWOW:
        return R::xorwow_next(d, v);
      case ROCRAND_RNG_PSEUDO_PHILOX4_32_10: {
        unsigned int value = block[position++];
        if (position == 4) {
          position = 0;
          R::philox_advance(counter, 1, false);
          R::philox_block(counter, key, block);
        }
        return value;
      }
      default:
        return R::mrg32k3a_next(g1, g2);
    }
  }

  bool mrg() const { return type == ROCRAND_RNG_PSEUDO_MRG32K3A; }
  unsigned int bits() { return mrg() ? R::rocrand_mrg_bits(next()) : next(); }
  float uniform() { return mrg() ? static_cast<float>(next() * R::mrg_norm) : R::rocrand_uniform_of(next()); }
  double uniform_double() {
    if (mrg()) return next() * R::mrg_norm;
    unsigned int x = next();
    return R::rocrand_uniform_double_of(x, next());
  }
  void normal_pair(float out[2]) {
    unsigned int x = next();
    if (mrg())
      R::rocrand_mrg_normal_pair(x, next(), out);
    else
      R::rocrand_normal_pair(x, next(), out);
  }
  void normal_double_pair(double out[2]) {
    unsigned int x0 = next(), x1 = next();
    if (mrg()) return R::rocrand_mrg_normal_double_pair(x0, x1, out);
    unsigned int y0 = next();
    R::rocrand_normal_double_pair(x0, x1, y0, next(), out);
  }
};

bool is_quasi(rocrand_rng_type type) { return type == ROCRAND_RNG_QUASI_SOBOL32; }

}  // namespace

struct rocrand_generator_base_type {
  rocrand_rng_type type;
  bool host;
  hipStream_t stream = nullptr;
  unsigned long long seed, offset = 0;
  unsigned int dimensions = 1;
  bool restart = true; /* the next generation starts over from seed and offset */
  /* Touched in stream order only. */
  Engine engine{};
  unsigned long long sobol_index = 0; /* the next point of each dimension */
};

namespace {

/* Runs `work` on the generator's state in its stream's order (at once for a
 * host generator), after a restart from the seed and offset set now when
 * they changed. */
rocrand_status enqueue(rocrand_generator generator, std::function<void(rocrand_generator)> work) {
  bool restart = generator->restart;
  unsigned long long seed = generator->seed, offset = generator->offset;
  generator->restart = false;
  auto run = [generator, restart, seed, offset, work = std::move(work)] {
    if (restart) {
      generator->engine.type = generator->type;
      if (is_quasi(generator->type))
        generator->sobol_index = offset;
      else
        generator->engine.restart(seed, offset);
    }
    work(generator);
  };
  if (generator->host) {
    run();
    return ROCRAND_STATUS_SUCCESS;
  }
  hipError_t queued = gpusym_library::in_stream_order(generator->stream, std::move(run));
  if (queued == hipErrorOutOfMemory) return ROCRAND_STATUS_ALLOCATION_FAILED;
  return queued == hipSuccess ? ROCRAND_STATUS_SUCCESS : ROCRAND_STATUS_LAUNCH_FAILURE;
}

/* n values of Make(engine) (pseudorandom) or Point(x) of each Sobol point x. */
template <typename T, typename Make, typename Point>
rocrand_status generate(rocrand_generator generator, T *out, size_t n, Make make, Point point) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  if (is_quasi(generator->type)) {
    if (n % generator->dimensions) return ROCRAND_STATUS_LENGTH_NOT_MULTIPLE;
    return enqueue(generator, [out, n, point](rocrand_generator g) {
      const unsigned int *vectors = sobol_vectors();
      size_t count = n / g->dimensions;
      for (unsigned int d = 0; d < g->dimensions; d++)
        for (size_t i = 0; i < count; i++) {
          unsigned int index = static_cast<unsigned int>(g->sobol_index + i);
          out[d * count + i] = point(R::sobol_point<unsigned int, 32>(vectors + 32 * d, 0u, index));
        }
      g->sobol_index += count;
    });
  }
  return enqueue(generator, [out, n, make](rocrand_generator g) {
    for (size_t i = 0; i < n; i++) out[i] = make(g->engine);
  });
}

/* n values from pairs Pair(engine, out[2]), each mapped by Map. */
template <typename T, typename Pair, typename Map>
rocrand_status generate_pairs(rocrand_generator generator, T *out, size_t n, Pair pair, Map map,
                              const char *function) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  if (is_quasi(generator->type)) return not_implemented(function);
  return enqueue(generator, [out, n, pair, map](rocrand_generator g) {
    for (size_t i = 0; i < n; i += 2) {
      T values[2];
      pair(g->engine, values);
      out[i] = map(values[0]);
      if (i + 1 < n) out[i + 1] = map(values[1]);
    }
  });
}

rocrand_status create(rocrand_generator *generator, rocrand_rng_type type, bool host) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  if (type == ROCRAND_RNG_PSEUDO_DEFAULT) type = ROCRAND_RNG_PSEUDO_XORWOW;
  if (type == ROCRAND_RNG_QUASI_DEFAULT) type = ROCRAND_RNG_QUASI_SOBOL32;
  unsigned long long seed;
  switch (type) {
    case ROCRAND_RNG_PSEUDO_XORWOW:
    case ROCRAND_RNG_QUASI_SOBOL32:
      seed = 0;
      break;
    case ROCRAND_RNG_PSEUDO_PHILOX4_32_10:
      seed = 0xdeadbeefdeadbeefull;
      break;
    case ROCRAND_RNG_PSEUDO_MRG32K3A:
      seed = 12345;
      break;
    default:
      std::fprintf(stderr, "gpusym: generator type %d is not implemented by gpusym's rocRAND\n", type);
      return ROCRAND_STATUS_NOT_IMPLEMENTED;
  }
  *generator = new (std::nothrow) rocrand_generator_base_type{type, host};
  if (!*generator) return ROCRAND_STATUS_ALLOCATION_FAILED;
  (*generator)->seed = seed;
  return ROCRAND_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

rocrand_status rocrand_create_generator(rocrand_generator *generator, rocrand_rng_type rng_type) {
  return create(generator, rng_type, false);
}
rocrand_status rocrand_create_generator_host(rocrand_generator *generator, rocrand_rng_type rng_type) {
  return create(generator, rng_type, true);
}
rocrand_status rocrand_create_generator_host_blocking(rocrand_generator *generator, rocrand_rng_type rng_type) {
  return create(generator, rng_type, true);
}

/* Waits for the generator's work in its stream first. */
rocrand_status rocrand_destroy_generator(rocrand_generator generator) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  if (!generator->host) (void)hipStreamSynchronize(generator->stream);
  delete generator;
  return ROCRAND_STATUS_SUCCESS;
}

rocrand_status rocrand_generate(rocrand_generator generator, unsigned int *output_data, size_t n) {
  return generate(generator, output_data, n, [](Engine &e) { return e.bits(); }, [](unsigned int x) { return x; });
}
rocrand_status rocrand_generate_uniform(rocrand_generator generator, float *output_data, size_t n) {
  return generate(generator, output_data, n, [](Engine &e) { return e.uniform(); },
                  [](unsigned int x) { return R::rocrand_uniform_of(x); });
}
rocrand_status rocrand_generate_uniform_double(rocrand_generator generator, double *output_data, size_t n) {
  return generate(generator, output_data, n, [](Engine &e) { return e.uniform_double(); },
                  [](unsigned int x) { return 0x1p-32 + x * 0x1p-32; });
}
rocrand_status rocrand_generate_normal(rocrand_generator generator, float *output_data, size_t n, float mean,
                                       float stddev) {
  return generate_pairs(generator, output_data, n, [](Engine &e, float *pair) { e.normal_pair(pair); },
                        [=](float x) { return mean + stddev * x; }, "rocrand_generate_normal (Sobol32)");
}
rocrand_status rocrand_generate_normal_double(rocrand_generator generator, double *output_data, size_t n,
                                              double mean, double stddev) {
  return generate_pairs(generator, output_data, n, [](Engine &e, double *pair) { e.normal_double_pair(pair); },
                        [=](double x) { return mean + stddev * x; }, "rocrand_generate_normal_double (Sobol32)");
}
rocrand_status rocrand_generate_log_normal(rocrand_generator generator, float *output_data, size_t n, float mean,
                                           float stddev) {
  return generate_pairs(generator, output_data, n, [](Engine &e, float *pair) { e.normal_pair(pair); },
                        [=](float x) { return expf(mean + stddev * x); }, "rocrand_generate_log_normal (Sobol32)");
}
rocrand_status rocrand_generate_log_normal_double(rocrand_generator generator, double *output_data, size_t n,
                                                  double mean, double stddev) {
  return generate_pairs(generator, output_data, n, [](Engine &e, double *pair) { e.normal_double_pair(pair); },
                        [=](double x) { return exp(mean + stddev * x); },
                        "rocrand_generate_log_normal_double (Sobol32)");
}
rocrand_status rocrand_generate_poisson(rocrand_generator generator, unsigned int *output_data, size_t n,
                                        double lambda) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  if (!(lambda > 0)) return ROCRAND_STATUS_OUT_OF_RANGE;
  if (is_quasi(generator->type)) return not_implemented("rocrand_generate_poisson (Sobol32)");
  return generate(
      generator, output_data, n,
      [lambda](Engine &e) {
        auto normal = [&e] {
          double pair[2];
          e.normal_double_pair(pair);
          return pair[0];
        };
        return R::poisson(lambda, [&e] { return e.uniform_double(); }, normal);
      },
      [](unsigned int x) { return x; });
}

rocrand_status rocrand_initialize_generator(rocrand_generator generator) {
  return generator ? ROCRAND_STATUS_SUCCESS : ROCRAND_STATUS_NOT_CREATED;
}
rocrand_status rocrand_set_stream(rocrand_generator generator, hipStream_t stream) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  generator->stream = stream;
  return ROCRAND_STATUS_SUCCESS;
}
rocrand_status rocrand_set_seed(rocrand_generator generator, unsigned long long seed) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  if (is_quasi(generator->type)) return ROCRAND_STATUS_TYPE_ERROR;
  generator->seed = seed;
  generator->restart = true;
  return ROCRAND_STATUS_SUCCESS;
}
rocrand_status rocrand_set_offset(rocrand_generator generator, unsigned long long offset) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  generator->offset = offset;
  generator->restart = true;
  return ROCRAND_STATUS_SUCCESS;
}
/* Every ordering gives the one order gpusym has. */
rocrand_status rocrand_set_ordering(rocrand_generator generator, rocrand_ordering order) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  bool quasi = order == ROCRAND_ORDERING_QUASI_DEFAULT;
  if (quasi != is_quasi(generator->type) ||
      (!quasi && (order < ROCRAND_ORDERING_PSEUDO_BEST || order > ROCRAND_ORDERING_PSEUDO_DYNAMIC)))
    return ROCRAND_STATUS_OUT_OF_RANGE;
  return ROCRAND_STATUS_SUCCESS;
}
rocrand_status rocrand_set_quasi_random_generator_dimensions(rocrand_generator generator, unsigned int dimensions) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  if (!is_quasi(generator->type)) return ROCRAND_STATUS_TYPE_ERROR;
  if (dimensions < 1 || dimensions > kSobolDimensions) return ROCRAND_STATUS_OUT_OF_RANGE;
  generator->dimensions = dimensions;
  generator->restart = true;
  return ROCRAND_STATUS_SUCCESS;
}
/* gpusym's, for its cuRAND: seeds XORWOW and MRG32k3a as cuRAND does from
 * now on; called before the generator's first generation. */
rocrand_status gpusym_rocrand_use_curand_seeding(rocrand_generator generator) {
  if (!generator) return ROCRAND_STATUS_NOT_CREATED;
  generator->engine.curand_seeding = true;
  generator->restart = true;
  return ROCRAND_STATUS_SUCCESS;
}
rocrand_status rocrand_get_version(int *version) {
  if (!version) return ROCRAND_STATUS_OUT_OF_RANGE;
  *version = ROCRAND_VERSION;
  return ROCRAND_STATUS_SUCCESS;
}

rocrand_status rocrand_generate_long_long(rocrand_generator, unsigned long long int *, size_t) {
  return not_implemented("rocrand_generate_long_long");
}
rocrand_status rocrand_generate_char(rocrand_generator, unsigned char *, size_t) {
  return not_implemented("rocrand_generate_char");
}
rocrand_status rocrand_generate_short(rocrand_generator, unsigned short *, size_t) {
  return not_implemented("rocrand_generate_short");
}
rocrand_status rocrand_generate_uniform_half(rocrand_generator, half *, size_t) {
  return not_implemented("rocrand_generate_uniform_half");
}
rocrand_status rocrand_generate_normal_half(rocrand_generator, half *, size_t, half, half) {
  return not_implemented("rocrand_generate_normal_half");
}
rocrand_status rocrand_generate_log_normal_half(rocrand_generator, half *, size_t, half, half) {
  return not_implemented("rocrand_generate_log_normal_half");
}
rocrand_status rocrand_set_seed_uint4(rocrand_generator, uint4) { return not_implemented("rocrand_set_seed_uint4"); }
rocrand_status rocrand_create_poisson_distribution(double, rocrand_discrete_distribution *) {
  return not_implemented("rocrand_create_poisson_distribution");
}
rocrand_status rocrand_create_discrete_distribution(const double *, unsigned int, unsigned int,
                                                    rocrand_discrete_distribution *) {
  return not_implemented("rocrand_create_discrete_distribution");
}
rocrand_status rocrand_destroy_discrete_distribution(rocrand_discrete_distribution) {
  return not_implemented("rocrand_destroy_discrete_distribution");
}
rocrand_status rocrand_get_direction_vectors32(const unsigned int **, rocrand_direction_vector_set) {
  return not_implemented("rocrand_get_direction_vectors32");
}
rocrand_status rocrand_get_direction_vectors64(const unsigned long long **, rocrand_direction_vector_set) {
  return not_implemented("rocrand_get_direction_vectors64");
}
rocrand_status rocrand_get_scramble_constants32(const unsigned int **) {
  return not_implemented("rocrand_get_scramble_constants32");
}
rocrand_status rocrand_get_scramble_constants64(const unsigned long long **) {
  return not_implemented("rocrand_get_scramble_constants64");
}

}  // extern "C"
