/*
 * Texture fetches from texture objects: tex1Dfetch, tex1D, tex2D, tex3D,
 * tex1DLayered, tex2DLayered, texCubemap and texCubemapLayered, in HIP's two forms (`tex2D<float4>(t, x, y)`
 * and `tex2D(&v, t, x, y)`).
 *
 * In software: a texture object points to its descriptor (texture_types.h),
 * and the fetch reads the texels from memory as CUDA's texture fetching
 * specifies, with one difference: linear filtering weights are exact floats,
 * where hardware rounds them to 9-bit fixed point (8 fraction bits).
 * - Normalized coordinates are scaled by the size; unnormalized coordinates
 *   take only clamp and border addressing, wrap and mirror acting as clamp.
 * - Point filtering reads texel floor(x); linear filtering blends texels
 *   floor(x - 0.5) and the next with the weight frac(x - 0.5), per dimension.
 * - Each texel index out of range is wrapped, mirrored or clamped, or reads
 *   the border colour (hipTextureDesc.borderColor, zero when unset).
 * - hipReadModeNormalizedFloat reads 8- and 16-bit integer channels as
 *   v / (2^n - 1) when unsigned, max(v / (2^(n-1) - 1), -1) when signed.
 * - Only float results are filtered: an integer result is always the point
 *   sample, as an integer texel cannot be blended.
 * - tex1Dfetch reads element x unfiltered, and zero outside the texture.
 * - Channels the format lacks read as 0, the fourth (w) as 1.
 * These are plain loads and arithmetic, so they compile for AMDGPU too, but
 * only the simulated device, which shares the runtime's memory, runs them.
 */
#ifndef GPUSYM_TEXTURE_FETCH_H
#define GPUSYM_TEXTURE_FETCH_H

/* The texels of one sample along one dimension: i0, and i1 with weight w1;
 * an index of -1 reads the border. */
struct __gpusym_tex_axis {
  int i0, i1;
  float w1;
};

static __device__ __GPUSYM_INLINE int __gpusym_tex_address(int i, int size, int mode) {
  if (mode == hipAddressModeWrap) {
    int m = i % size;
    return m < 0 ? m + size : m;
  }
  if (mode == hipAddressModeMirror) {
    int m = i % (2 * size);
    if (m < 0) m += 2 * size;
    return m < size ? m : 2 * size - 1 - m;
  }
  if (mode == hipAddressModeBorder) return i >= 0 && i < size ? i : -1;
  return i < 0 ? 0 : i >= size ? size - 1 : i;
}

static __device__ __GPUSYM_INLINE __gpusym_tex_axis __gpusym_tex_locate(const __hip_texture *t, float coordinate,
                                                                        unsigned int size, int dimension,
                                                                        bool linear) {
  int mode = t->desc.addressMode[dimension];
  float x = coordinate;
  if (t->desc.normalizedCoords) {
    /* Reduced to one period first, so that a far coordinate keeps its fraction. */
    if (mode == hipAddressModeWrap) x -= __builtin_floorf(x);
    if (mode == hipAddressModeMirror) x -= 2.0f * __builtin_floorf(0.5f * x);
    x *= static_cast<float>(size);
  } else if (mode == hipAddressModeWrap || mode == hipAddressModeMirror) {
    mode = hipAddressModeClamp;
  }
  if (linear) x -= 0.5f;
  float base = __builtin_floorf(x);
  __gpusym_tex_axis axis;
  axis.w1 = linear ? x - base : 0.0f;
  /* Far outside (or NaN): any index that far out addresses the same texel. */
  const float far = 1073741824.0f;
  int i = !(base > -far) ? -static_cast<int>(far) : base > far ? static_cast<int>(far) : static_cast<int>(base);
  axis.i0 = __gpusym_tex_address(i, static_cast<int>(size), mode);
  axis.i1 = linear ? __gpusym_tex_address(i + 1, static_cast<int>(size), mode) : axis.i0;
  return axis;
}

static __device__ __GPUSYM_INLINE float __gpusym_tex_half(unsigned short h) {
  unsigned int sign = (h >> 15) & 1u, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  float magnitude = exponent == 0    ? __builtin_ldexpf(static_cast<float>(mantissa), -24)
                    : exponent == 31 ? (mantissa ? __builtin_nanf("") : __builtin_inff())
                                     : __builtin_ldexpf(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

/* Channel c of the texel at p, as an integer (of an integer format). */
static __device__ __GPUSYM_INLINE long long __gpusym_tex_integer(const __hip_texture *t, const unsigned char *p) {
  bool is_signed = t->kind == hipChannelFormatKindSigned;
  if (t->channel_bytes == 1) return is_signed ? static_cast<long long>(*reinterpret_cast<const signed char *>(p)) : *p;
  if (t->channel_bytes == 2) {
    unsigned short v;
    __builtin_memcpy(&v, p, 2);
    return is_signed ? static_cast<long long>(static_cast<short>(v)) : v;
  }
  unsigned int v;
  __builtin_memcpy(&v, p, 4);
  return is_signed ? static_cast<long long>(static_cast<int>(v)) : v;
}

/* The texel at (x, y, z), each channel as a float as the read mode has it;
 * an index of -1 reads the border colour. */
static __device__ __GPUSYM_INLINE void __gpusym_tex_texel_float(const __hip_texture *t, int x, int y, int z,
                                                                float v[4]) {
  v[0] = v[1] = v[2] = 0.0f;
  v[3] = 1.0f;
  if (x < 0 || y < 0 || z < 0) {
    for (int c = 0; c < 4; ++c) v[c] = t->desc.borderColor[c];
    return;
  }
  const unsigned char *p = t->data + z * t->slice + y * t->pitch + x * t->channels * t->channel_bytes;
  for (unsigned int c = 0; c < t->channels; ++c, p += t->channel_bytes) {
    if (t->kind == hipChannelFormatKindFloat) {
      if (t->channel_bytes == 4) {
        __builtin_memcpy(&v[c], p, 4);
      } else {
        unsigned short h;
        __builtin_memcpy(&h, p, 2);
        v[c] = __gpusym_tex_half(h);
      }
      continue;
    }
    float value = static_cast<float>(__gpusym_tex_integer(t, p));
    if (t->desc.readMode == hipReadModeNormalizedFloat && t->channel_bytes < 4) {
      unsigned int bits = 8 * t->channel_bytes;
      if (t->kind == hipChannelFormatKindUnsigned) {
        value /= static_cast<float>((1u << bits) - 1);
      } else {
        value /= static_cast<float>((1u << (bits - 1)) - 1);
        value = value < -1.0f ? -1.0f : value;
      }
    }
    v[c] = value;
  }
}

/* The same, each channel as an integer (the point sample of an integer result). */
static __device__ __GPUSYM_INLINE void __gpusym_tex_texel_integer(const __hip_texture *t, int x, int y, int z,
                                                                  long long v[4]) {
  if (x < 0 || y < 0 || z < 0 || t->kind == hipChannelFormatKindFloat) {
    float f[4];
    __gpusym_tex_texel_float(t, x, y, z, f);
    for (int c = 0; c < 4; ++c) v[c] = static_cast<long long>(f[c]);
    return;
  }
  v[0] = v[1] = v[2] = 0;
  v[3] = 1;
  const unsigned char *p = t->data + z * t->slice + y * t->pitch + x * t->channels * t->channel_bytes;
  for (unsigned int c = 0; c < t->channels; ++c, p += t->channel_bytes) v[c] = __gpusym_tex_integer(t, p);
}

/* T from the channel values, by T's rank: scalars, then 1 to 4 components. */
template <typename T, typename V> static __device__ __GPUSYM_INLINE T __gpusym_tex_result(const V *v, T *) {
  return static_cast<T>(v[0]);
}
template <typename C, typename V>
static __device__ __GPUSYM_INLINE HIP_vector_type<C, 1> __gpusym_tex_result(const V *v, HIP_vector_type<C, 1> *) {
  return HIP_vector_type<C, 1>(static_cast<C>(v[0]));
}
template <typename C, typename V>
static __device__ __GPUSYM_INLINE HIP_vector_type<C, 2> __gpusym_tex_result(const V *v, HIP_vector_type<C, 2> *) {
  return HIP_vector_type<C, 2>(static_cast<C>(v[0]), static_cast<C>(v[1]));
}
template <typename C, typename V>
static __device__ __GPUSYM_INLINE HIP_vector_type<C, 3> __gpusym_tex_result(const V *v, HIP_vector_type<C, 3> *) {
  return HIP_vector_type<C, 3>(static_cast<C>(v[0]), static_cast<C>(v[1]), static_cast<C>(v[2]));
}
template <typename C, typename V>
static __device__ __GPUSYM_INLINE HIP_vector_type<C, 4> __gpusym_tex_result(const V *v, HIP_vector_type<C, 4> *) {
  return HIP_vector_type<C, 4>(static_cast<C>(v[0]), static_cast<C>(v[1]), static_cast<C>(v[2]),
                               static_cast<C>(v[3]));
}

/* One sample of `dims` dimensions at (x, y, z); `layer` >= 0 picks the
 * layer (clamped) of a layered texture. */
template <typename T>
static __device__ __GPUSYM_INLINE T __gpusym_tex_sample(hipTextureObject_t t, unsigned int dims, float x, float y,
                                                        float z, int layer) {
  const bool floating = std::is_floating_point<typename __gpusym_texel<T>::component>::value;
  const bool linear = floating && t->desc.filterMode == hipFilterModeLinear;
  __gpusym_tex_axis axes[3] = {__gpusym_tex_locate(t, x, t->width, 0, linear), {0, 0, 0.0f}, {0, 0, 0.0f}};
  if (dims > 1) axes[1] = __gpusym_tex_locate(t, y, t->height, 1, linear);
  if (dims > 2) axes[2] = __gpusym_tex_locate(t, z, t->depth, 2, linear);
  if (layer >= 0) {
    int last = static_cast<int>(t->depth) - 1;
    axes[2].i0 = axes[2].i1 = layer < last ? layer : last;
  }
  T *tag = nullptr;
  if (!floating) {
    long long v[4];
    __gpusym_tex_texel_integer(t, axes[0].i0, axes[1].i0, axes[2].i0, v);
    return __gpusym_tex_result(v, tag);
  }
  /* Each corner of the 2^dims texels around the sample, by its weight. */
  float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (unsigned int corner = 0; corner < (linear ? 1u << dims : 1u); ++corner) {
    int index[3];
    float weight = 1.0f;
    for (unsigned int d = 0; d < 3; ++d) {
      bool second = d < dims && ((corner >> d) & 1u);
      index[d] = second ? axes[d].i1 : axes[d].i0;
      if (linear && d < dims) weight *= second ? axes[d].w1 : 1.0f - axes[d].w1;
    }
    float v[4];
    __gpusym_tex_texel_float(t, index[0], index[1], index[2], v);
    for (int c = 0; c < 4; ++c) sum[c] += weight * v[c];
  }
  return __gpusym_tex_result(sum, tag);
}

template <typename T> static __device__ __GPUSYM_INLINE T tex1Dfetch(hipTextureObject_t t, int x) {
  T *tag = nullptr;
  if (x < 0 || static_cast<unsigned int>(x) >= t->width) {
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    return __gpusym_tex_result(zero, tag);
  }
  if (std::is_floating_point<typename __gpusym_texel<T>::component>::value) {
    float v[4];
    __gpusym_tex_texel_float(t, x, 0, 0, v);
    return __gpusym_tex_result(v, tag);
  }
  long long v[4];
  __gpusym_tex_texel_integer(t, x, 0, 0, v);
  return __gpusym_tex_result(v, tag);
}
template <typename T> static __device__ __GPUSYM_INLINE T tex1D(hipTextureObject_t t, float x) {
  return __gpusym_tex_sample<T>(t, 1, x, 0.0f, 0.0f, -1);
}
template <typename T> static __device__ __GPUSYM_INLINE T tex2D(hipTextureObject_t t, float x, float y) {
  return __gpusym_tex_sample<T>(t, 2, x, y, 0.0f, -1);
}
template <typename T> static __device__ __GPUSYM_INLINE T tex3D(hipTextureObject_t t, float x, float y, float z) {
  return __gpusym_tex_sample<T>(t, 3, x, y, z, -1);
}
template <typename T> static __device__ __GPUSYM_INLINE T tex1DLayered(hipTextureObject_t t, float x, int layer) {
  return __gpusym_tex_sample<T>(t, 1, x, 0.0f, 0.0f, layer < 0 ? 0 : layer);
}
template <typename T>
static __device__ __GPUSYM_INLINE T tex2DLayered(hipTextureObject_t t, float x, float y, int layer) {
  return __gpusym_tex_sample<T>(t, 2, x, y, 0.0f, layer < 0 ? 0 : layer);
}

/* A cubemap's face for the direction (x, y, z), and the sample's place on
 * it from 0 to 1 (CUDA's table, OpenGL's): the axis of the largest
 * coordinate picks the face, the other two divided by it give the place. */
static __device__ __GPUSYM_INLINE int __gpusym_tex_cube_face(float x, float y, float z, float *s, float *t) {
  float ax = x < 0 ? -x : x, ay = y < 0 ? -y : y, az = z < 0 ? -z : z;
  int face;
  float major, sc, tc;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    major = ax, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    major = ay, sc = x, tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    major = az, sc = z >= 0 ? x : -x, tc = -y;
  }
  *s = (sc / major + 1.0f) * 0.5f;
  *t = (tc / major + 1.0f) * 0.5f;
  return face;
}

/* A sample of a cubemap (layer 0) or of layer `layer` of a layered one: the
 * face's square, filtered within the face. */
template <typename T>
static __device__ __GPUSYM_INLINE T texCubemapLayered(hipTextureObject_t t, float x, float y, float z, int layer) {
  float s, u;
  int face = __gpusym_tex_cube_face(x, y, z, &s, &u);
  if (!t->desc.normalizedCoords) s *= static_cast<float>(t->width), u *= static_cast<float>(t->height);
  return __gpusym_tex_sample<T>(t, 2, s, u, 0.0f, face + 6 * (layer < 0 ? 0 : layer));
}
template <typename T>
static __device__ __GPUSYM_INLINE T texCubemap(hipTextureObject_t t, float x, float y, float z) {
  return texCubemapLayered<T>(t, x, y, z, 0);
}

/* The forms that store the texel through a pointer. */
template <typename T> static __device__ __GPUSYM_INLINE void tex1Dfetch(T *out, hipTextureObject_t t, int x) {
  *out = tex1Dfetch<T>(t, x);
}
template <typename T> static __device__ __GPUSYM_INLINE void tex1D(T *out, hipTextureObject_t t, float x) {
  *out = tex1D<T>(t, x);
}
template <typename T> static __device__ __GPUSYM_INLINE void tex2D(T *out, hipTextureObject_t t, float x, float y) {
  *out = tex2D<T>(t, x, y);
}
template <typename T>
static __device__ __GPUSYM_INLINE void tex3D(T *out, hipTextureObject_t t, float x, float y, float z) {
  *out = tex3D<T>(t, x, y, z);
}
template <typename T>
static __device__ __GPUSYM_INLINE void tex1DLayered(T *out, hipTextureObject_t t, float x, int layer) {
  *out = tex1DLayered<T>(t, x, layer);
}
template <typename T>
static __device__ __GPUSYM_INLINE void tex2DLayered(T *out, hipTextureObject_t t, float x, float y, int layer) {
  *out = tex2DLayered<T>(t, x, y, layer);
}
template <typename T>
static __device__ __GPUSYM_INLINE void texCubemap(T *out, hipTextureObject_t t, float x, float y, float z) {
  *out = texCubemap<T>(t, x, y, z);
}
template <typename T>
static __device__ __GPUSYM_INLINE void texCubemapLayered(T *out, hipTextureObject_t t, float x, float y, float z,
                                                         int layer) {
  *out = texCubemapLayered<T>(t, x, y, z, layer);
}

#endif
