/*
 * CUDA's warp matrix functions (nvcuda::wmma): fragments of a matrix held
 * by a warp's 32 lanes, loaded, stored, filled and multiplied together.
 *
 * Each lane holds an equal share of a fragment's matrix: of its elements in
 * row-major order, the run of num_elements at lane * num_elements (CUDA
 * leaves the mapping unspecified; element-wise code over x[0..num_elements)
 * works with any).  On the simulated device, mma_sync is one meeting of the
 * warp, at which the runtime multiplies the lanes' shares together
 * (GPUSYM_WAVE_MMA); on AMDGPU, each lane gathers the rows and columns it
 * needs with shuffles.
 *
 * The shapes: m16n16k16, m32n8k16 and m8n32k16 of half, __nv_bfloat16,
 * signed char and unsigned char; m16n16k8 of precision::tf32; m8n8k4 of
 * double.  Accumulators are float (or half) for the first two and tf32,
 * int for the bytes and double for doubles.
 */
#ifndef GPUSYM_CUDA_MMA_H
#define GPUSYM_CUDA_MMA_H

#include "cuda_bf16.h"
#include "cuda_fp16.h"

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};
}  // namespace precision

namespace gpusym_detail {

template <typename A, typename B>
struct same {
  static const bool value = false;
};
template <typename A>
struct same<A, A> {
  static const bool value = true;
};

/* A fragment's matrix: rows x columns, of the shape m x n x k. */
template <typename Use, int M, int N, int K>
struct dims;
template <int M, int N, int K>
struct dims<matrix_a, M, N, K> {
  static const int rows = M, columns = K;
};
template <int M, int N, int K>
struct dims<matrix_b, M, N, K> {
  static const int rows = K, columns = N;
};
template <int M, int N, int K>
struct dims<accumulator, M, N, K> {
  static const int rows = M, columns = N;
};

template <int M, int N, int K>
struct shape {
  static const bool valid = (M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) ||
                            (M == 8 && N == 32 && K == 16) || (M == 16 && N == 16 && K == 8) ||
                            (M == 8 && N == 8 && K == 4);
};

/* What a fragment of T stores, and, for the inputs of a multiply, the type
 * it accumulates in and the runtime's name of T. */
template <typename T>
struct element {
  typedef T storage;
};
template <>
struct element<precision::tf32> {
  typedef float storage;
  typedef float accumulate;
  static const gpusym_mma_type type = GPUSYM_MMA_TF32;
  static const int k = 8;
};
template <>
struct element<__half> {
  typedef __half storage;
  typedef float accumulate;
  static const gpusym_mma_type type = GPUSYM_MMA_F16;
  static const int k = 16;
};
template <>
struct element<__nv_bfloat16> {
  typedef __nv_bfloat16 storage;
  typedef float accumulate;
  static const gpusym_mma_type type = GPUSYM_MMA_BF16;
  static const int k = 16;
};
template <>
struct element<signed char> {
  typedef signed char storage;
  typedef int accumulate;
  static const gpusym_mma_type type = GPUSYM_MMA_S8;
  static const int k = 16;
};
template <>
struct element<unsigned char> {
  typedef unsigned char storage;
  typedef int accumulate;
  static const gpusym_mma_type type = GPUSYM_MMA_U8;
  static const int k = 16;
};
template <>
struct element<double> {
  typedef double storage;
  typedef double accumulate;
  static const gpusym_mma_type type = GPUSYM_MMA_F64;
  static const int k = 4;
};

/* Conversions between an accumulator's storage and the type it adds in. */
static __device__ __GPUSYM_INLINE float widen(__half value) { return __half2float(value); }
static __device__ __GPUSYM_INLINE float widen(__nv_bfloat16 value) { return __bfloat162float(value); }
template <typename T>
static __device__ __GPUSYM_INLINE T widen(T value) {
  return value;
}
template <typename T>
struct narrow {
  template <typename Acc>
  static __device__ __GPUSYM_INLINE T from(Acc value) {
    return static_cast<T>(value);
  }
};
template <>
struct narrow<__half> {
  static __device__ __GPUSYM_INLINE __half from(float value) { return __float2half(value); }
};

/* satf: a float result beyond the largest finite value of the accumulator's
 * type Out (a float or a half) becomes that value, NaN 0. */
template <typename Out>
static __device__ __GPUSYM_INLINE float finite(float value) {
  const float largest = same<Out, __half>::value ? 65504.0f : 3.40282347e38f;
  return value != value ? 0.0f : value > largest ? largest : value < -largest ? -largest : value;
}
template <typename Out, typename T>
static __device__ __GPUSYM_INLINE T finite(T value) {
  return value;
}

static __device__ __GPUSYM_INLINE unsigned int lane() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;
}

}  // namespace gpusym_detail

template <typename Use, int M, int N, int K, typename T, typename Layout = void>
class fragment {
  static_assert(gpusym_detail::shape<M, N, K>::valid, "wmma: not a shape of CUDA's warp matrix functions");

 public:
  typedef T element_type;
  typedef typename gpusym_detail::element<T>::storage storage_element_type;
  enum {
    num_elements = gpusym_detail::dims<Use, M, N, K>::rows * gpusym_detail::dims<Use, M, N, K>::columns / 32
  };
  storage_element_type x[num_elements];
};

namespace gpusym_detail {

/* This lane's share of a rows x columns matrix at `p`, whose rows (or
 * columns) are `ldm` elements apart. */
template <typename Use, int M, int N, int K, typename T, typename L, typename P>
static __device__ __GPUSYM_INLINE void load(fragment<Use, M, N, K, T, L> &f, const P *p, unsigned ldm, bool rows) {
  const int columns = dims<Use, M, N, K>::columns, count = fragment<Use, M, N, K, T, L>::num_elements;
  const int first = static_cast<int>(lane()) * count, row = first / columns, column = first % columns;
  for (int i = 0; i < count; i++)
    f.x[i] = rows ? p[row * ldm + column + i] : p[(column + i) * ldm + row];
}

}  // namespace gpusym_detail

template <typename Use, int M, int N, int K, typename T, typename Layout, typename P>
static __device__ __GPUSYM_INLINE void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &a, const P *mptr,
                                                        unsigned ldm) {
  static_assert(!gpusym_detail::same<Layout, void>::value,
                "wmma: an accumulator's load_matrix_sync takes the memory's layout");
  gpusym_detail::load(a, mptr, ldm, gpusym_detail::same<Layout, row_major>::value);
}

template <int M, int N, int K, typename T, typename P>
static __device__ __GPUSYM_INLINE void load_matrix_sync(fragment<accumulator, M, N, K, T> &a, const P *mptr,
                                                        unsigned ldm, layout_t layout) {
  gpusym_detail::load(a, mptr, ldm, layout == mem_row_major);
}

template <int M, int N, int K, typename T, typename P>
static __device__ __GPUSYM_INLINE void store_matrix_sync(P *mptr, const fragment<accumulator, M, N, K, T> &a,
                                                         unsigned ldm, layout_t layout) {
  const int count = fragment<accumulator, M, N, K, T>::num_elements;
  const int first = static_cast<int>(gpusym_detail::lane()) * count, row = first / N, column = first % N;
  for (int i = 0; i < count; i++) {
    if (layout == mem_row_major)
      mptr[row * ldm + column + i] = a.x[i];
    else
      mptr[(column + i) * ldm + row] = a.x[i];
  }
}

template <typename Use, int M, int N, int K, typename T, typename Layout>
static __device__ __GPUSYM_INLINE void fill_fragment(
    fragment<Use, M, N, K, T, Layout> &a,
    const typename fragment<Use, M, N, K, T, Layout>::storage_element_type &v) {
  for (int i = 0; i < fragment<Use, M, N, K, T, Layout>::num_elements; i++) a.x[i] = v;
}

/* A float rounded to tf32 (10 bits of mantissa), to nearest, ties away
 * from zero. */
static __device__ __GPUSYM_INLINE float __float_to_tf32(float in) {
  unsigned int bits;
  __builtin_memcpy(&bits, &in, sizeof bits);
  if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & ~0x1fffu;
  float out;
  __builtin_memcpy(&out, &bits, sizeof out);
  return out;
}

namespace gpusym_detail {

/* A lane's operands of the runtime's multiply (gpusym/lane.h). */
template <typename In, typename Acc, int A, int B, int D>
struct operands {
  typename element<In>::storage a[A], b[B];
  alignas(8) Acc d[D];
};

#if defined(__AMDGCN__)
/* Element `index` of a matrix whose lanes hold `count` each. */
template <typename S, int count>
static __device__ __GPUSYM_INLINE S gather(const S (&share)[count], int index) {
  S value = share[0];
  for (int i = 0; i < count; i++) {  // every lane reads slot i of the lane holding `index`
    S read = __shfl(share[i], index / count);
    if (i == index % count) value = read;
  }
  return value;
}
#endif

template <int M, int N, int K, typename In, typename Acc>
static __device__ __GPUSYM_INLINE void multiply(operands<In, Acc, M * K / 32, K * N / 32, M * N / 32> &ops) {
#if defined(__AMDGCN__)
  const int count = M * N / 32, first = static_cast<int>(lane()) * count, row = first / N, column = first % N;
  for (int j = 0; j < K; j++) {
    Acc left = static_cast<Acc>(widen(gather(ops.a, row * K + j)));
    for (int i = 0; i < count; i++) ops.d[i] += left * static_cast<Acc>(widen(gather(ops.b, j * N + column + i)));
  }
#else
  __gpusym_wave_call(GPUSYM_WAVE_MMA, reinterpret_cast<unsigned long long>(&ops),
                     static_cast<long long>(gpusym_mma_arg(M, N, K, element<In>::type)), 32);
#endif
}

}  // namespace gpusym_detail

/* D = A * B + C, by the warp's 32 lanes together. */
template <int M, int N, int K, typename TIn, typename LayoutA, typename LayoutB, typename TC, typename TD>
static __device__ __GPUSYM_INLINE void mma_sync(fragment<accumulator, M, N, K, TD> &d,
                                                const fragment<matrix_a, M, N, K, TIn, LayoutA> &a,
                                                const fragment<matrix_b, M, N, K, TIn, LayoutB> &b,
                                                const fragment<accumulator, M, N, K, TC> &c, bool satf = false) {
  typedef typename gpusym_detail::element<TIn>::accumulate Acc;
  static_assert(gpusym_detail::element<TIn>::k == K, "wmma: no multiply of this type has this shape");
  const int a_count = M * K / 32, b_count = K * N / 32, d_count = M * N / 32;
  gpusym_detail::operands<TIn, Acc, a_count, b_count, d_count> ops;
  for (int i = 0; i < a_count; i++) ops.a[i] = a.x[i];
  for (int i = 0; i < b_count; i++) ops.b[i] = b.x[i];
  for (int i = 0; i < d_count; i++) ops.d[i] = static_cast<Acc>(gpusym_detail::widen(c.x[i]));
  gpusym_detail::multiply<M, N, K>(ops);
  for (int i = 0; i < d_count; i++)
    d.x[i] = gpusym_detail::narrow<TD>::from(satf ? gpusym_detail::finite<TD>(ops.d[i]) : ops.d[i]);
}

}  // namespace wmma
}  // namespace nvcuda

#endif
