// CUDA's warp matrix functions (mma.h): every shape and type against a
// product computed on the host, with both layouts, padded rows, element-wise
// code over fragments, and a tiled multiply of several warps over K; one
// line per check, "NAME: ok" or what failed.
#include <mma.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

using namespace nvcuda;

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

// What a matrix of T is in memory: tf32's are floats.
template <typename T>
struct memory_of {
  typedef T type;
};
template <>
struct memory_of<wmma::precision::tf32> {
  typedef float type;
};

// D = A * B + C for one warp: A (M x K, row-major unless LayoutA is col_major),
// B (K x N), C and D (M x N, in `layout`), each with `pad` more elements a row
// (or column) than it has.
template <int M, int N, int K, typename In, typename LayoutA, typename LayoutB, typename Acc>
__global__ void product(const typename memory_of<In>::type *a, const typename memory_of<In>::type *b, const Acc *c, Acc *d, wmma::layout_t layout, int pad) {
  wmma::fragment<wmma::matrix_a, M, N, K, In, LayoutA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, In, LayoutB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  const bool a_rows = std::is_same<LayoutA, wmma::row_major>::value;
  const bool b_rows = std::is_same<LayoutB, wmma::row_major>::value;
  wmma::load_matrix_sync(fa, a, (a_rows ? K : M) + pad);
  wmma::load_matrix_sync(fb, b, (b_rows ? N : K) + pad);
  wmma::load_matrix_sync(fc, c, (layout == wmma::mem_row_major ? N : M) + pad, layout);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, (layout == wmma::mem_row_major ? N : M) + pad, layout);
}

template <typename T>
T from_double(double value) {
  return static_cast<T>(value);
}
template <>
__half from_double<__half>(double value) {
  return __float2half(static_cast<float>(value));
}
template <>
__nv_bfloat16 from_double<__nv_bfloat16>(double value) {
  return __float2bfloat16(static_cast<float>(value));
}
template <typename T>
double to_double(T value) {
  return static_cast<double>(value);
}
template <>
double to_double<__half>(__half value) {
  return __half2float(value);
}

// Element (row, column) of a matrix with `leading` elements a row (or column).
inline int at(bool rows, int row, int column, int leading) { return rows ? row * leading + column : column * leading + row; }

// Runs `product` on small integers (exact in every type) and compares D with the host's.
template <int M, int N, int K, typename In, typename LayoutA, typename LayoutB, typename Acc>
bool multiplies(wmma::layout_t layout, int pad, int seed) {
  typedef typename memory_of<In>::type Stored;
  const bool a_rows = std::is_same<LayoutA, wmma::row_major>::value;
  const bool b_rows = std::is_same<LayoutB, wmma::row_major>::value;
  const bool c_rows = layout == wmma::mem_row_major;
  const int lda = (a_rows ? K : M) + pad, ldb = (b_rows ? N : K) + pad, ldc = (c_rows ? N : M) + pad;
  const int a_size = (a_rows ? M : K) * lda, b_size = (b_rows ? K : N) * ldb, c_size = (c_rows ? M : N) * ldc;
  std::vector<Stored> a(a_size), b(b_size);
  std::vector<Acc> c(c_size), d(c_size, from_double<Acc>(-7));
  std::vector<double> da(M * K), db(K * N), dc(M * N);
  const bool is_unsigned = std::is_same<In, unsigned char>::value;
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++) {
      da[i * K + k] = (i * 7 + k * 3 + seed) % 9 - (is_unsigned ? 0 : 4);
      a[at(a_rows, i, k, lda)] = from_double<Stored>(da[i * K + k]);
    }
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++) {
      db[k * N + j] = (k * 5 + j * 2 + seed) % 7 - (is_unsigned ? 0 : 3);
      b[at(b_rows, k, j, ldb)] = from_double<Stored>(db[k * N + j]);
    }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      dc[i * N + j] = (i + j * 3) % 5 - 2;
      c[at(c_rows, i, j, ldc)] = from_double<Acc>(dc[i * N + j]);
    }
  Stored *ga, *gb;
  Acc *gc, *gd;
  cudaMalloc(&ga, a_size * sizeof(Stored));
  cudaMalloc(&gb, b_size * sizeof(Stored));
  cudaMalloc(&gc, c_size * sizeof(Acc));
  cudaMalloc(&gd, c_size * sizeof(Acc));
  cudaMemcpy(ga, a.data(), a_size * sizeof(Stored), cudaMemcpyHostToDevice);
  cudaMemcpy(gb, b.data(), b_size * sizeof(Stored), cudaMemcpyHostToDevice);
  cudaMemcpy(gc, c.data(), c_size * sizeof(Acc), cudaMemcpyHostToDevice);
  cudaMemcpy(gd, d.data(), c_size * sizeof(Acc), cudaMemcpyHostToDevice);
  product<M, N, K, In, LayoutA, LayoutB, Acc><<<1, 32>>>(ga, gb, gc, gd, layout, pad);
  bool ok = cudaMemcpy(d.data(), gd, c_size * sizeof(Acc), cudaMemcpyDeviceToHost) == cudaSuccess;
  int wrong = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double expected = dc[i * N + j];
      for (int k = 0; k < K; k++) expected += da[i * K + k] * db[k * N + j];
      wrong += to_double(d[at(c_rows, i, j, ldc)]) != expected;
    }
  for (int i = 0; pad && i < c_size; i++)  // the padding is left as it was
    wrong += (i % ldc) >= (c_rows ? N : M) && to_double(d[i]) != -7;
  cudaFree(ga);
  cudaFree(gb);
  cudaFree(gc);
  cudaFree(gd);
  if (wrong) std::printf("  %d wrong elements\n", wrong);
  return ok && wrong == 0;
}

// Each lane writes its own marks into its share of a fragment: every element
// of the matrix is some lane's, once.
__global__ void shares(int *matrix, int *counts) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> f;
  unsigned lane = threadIdx.x % 32;
  for (int i = 0; i < f.num_elements; i++) f.x[i] = static_cast<int>(lane * 1000 + i);
  wmma::store_matrix_sync(matrix, f, 16, wmma::mem_row_major);
  atomicAdd(counts, f.num_elements);
}

// alpha * A * B + beta * C, the scaling done element-wise on the fragments,
// with satf turning an infinite sum into the largest float.
__global__ void scaled(const __half *a, const __half *b, const float *c, float *d, float alpha, float beta) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
  wmma::fill_fragment(fc, INFINITY);
  wmma::mma_sync(acc, fa, fb, fc, true);
  wmma::store_matrix_sync(d + 256, acc, 16, wmma::mem_row_major);
}

// With satf, sums past a half's range become its largest value, 65504.
__global__ void saturated_half(const __half *a, const __half *b, __half *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(acc, __float2half(60000.0f));
  wmma::mma_sync(acc, fa, fb, acc, true);
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// C = A * B of size x size matrices, by blocks of four warps, each warp a
// 16 x 16 tile, over K in steps of 16 through __shared__ memory; tf32 inputs
// rounded element-wise first.
template <int kSize>
__global__ void tiled(const float *a, const float *b, float *c) {
  __shared__ float tile_a[4][16 * 8], tile_b[4][8 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tile = blockIdx.x * 4 + warp, row = tile / (kSize / 16) * 16, column = tile % (kSize / 16) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < kSize; k += 8) {
    for (int i = lane; i < 128; i += 32) {
      tile_a[warp][i] = a[(row + i / 8) * kSize + k + i % 8];
      tile_b[warp][i] = b[(k + i / 16) * kSize + column + i % 16];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, tile_a[warp], 8);
    wmma::load_matrix_sync(fb, tile_b[warp], 16);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(c + row * kSize + column, acc, kSize, wmma::mem_row_major);
}

__global__ void rounded(const float *in, float *out) { out[threadIdx.x] = wmma::__float_to_tf32(in[threadIdx.x]); }

int main() {
  using wmma::col_major;
  using wmma::mem_col_major;
  using wmma::mem_row_major;
  using wmma::row_major;
  CHECK("half_16x16x16", (multiplies<16, 16, 16, __half, row_major, col_major, float>(mem_row_major, 0, 1)) &&
                             (multiplies<16, 16, 16, __half, col_major, row_major, float>(mem_col_major, 4, 2)) &&
                             (multiplies<16, 16, 16, __half, row_major, row_major, float>(mem_row_major, 8, 3)) &&
                             (multiplies<16, 16, 16, __half, col_major, col_major, float>(mem_col_major, 0, 4)));
  CHECK("half_32x8x16", (multiplies<32, 8, 16, __half, row_major, col_major, float>(mem_row_major, 0, 5)) &&
                            (multiplies<32, 8, 16, __half, col_major, row_major, float>(mem_col_major, 8, 6)));
  CHECK("half_8x32x16", (multiplies<8, 32, 16, __half, row_major, col_major, float>(mem_row_major, 8, 7)) &&
                            (multiplies<8, 32, 16, __half, row_major, row_major, float>(mem_col_major, 0, 8)));
  CHECK("half_accumulator", (multiplies<16, 16, 16, __half, row_major, col_major, __half>(mem_row_major, 0, 9)));
  CHECK("bf16", (multiplies<16, 16, 16, __nv_bfloat16, row_major, col_major, float>(mem_row_major, 0, 10)) &&
                    (multiplies<32, 8, 16, __nv_bfloat16, col_major, col_major, float>(mem_col_major, 4, 11)));
  CHECK("s8", (multiplies<16, 16, 16, signed char, row_major, col_major, int>(mem_row_major, 0, 12)) &&
                  (multiplies<8, 32, 16, signed char, col_major, row_major, int>(mem_col_major, 16, 13)));
  CHECK("u8", (multiplies<16, 16, 16, unsigned char, row_major, col_major, int>(mem_row_major, 16, 14)) &&
                  (multiplies<32, 8, 16, unsigned char, row_major, row_major, int>(mem_row_major, 0, 15)));
  CHECK("tf32", (multiplies<16, 16, 8, wmma::precision::tf32, row_major, col_major, float>(mem_row_major, 0, 16)));
  CHECK("double", (multiplies<8, 8, 4, double, row_major, col_major, double>(mem_row_major, 0, 17)) &&
                      (multiplies<8, 8, 4, double, col_major, row_major, double>(mem_col_major, 2, 18)));

  int *matrix, *counts;
  cudaMallocManaged(&matrix, 256 * sizeof(int));
  cudaMallocManaged(&counts, sizeof(int));
  *counts = 0;
  shares<<<1, 32>>>(matrix, counts);
  cudaDeviceSynchronize();
  std::vector<int> seen(32 * 1000, 0);
  bool once = *counts == 256;
  for (int i = 0; i < 256; i++) once = once && matrix[i] >= 0 && matrix[i] < 32 * 1000 && seen[matrix[i]]++ == 0;
  CHECK("each_element_one_lanes", once);

  __half *ha, *hb;
  float *fc, *fd;
  cudaMallocManaged(&ha, 256 * sizeof(__half));
  cudaMallocManaged(&hb, 256 * sizeof(__half));
  cudaMallocManaged(&fc, 256 * sizeof(float));
  cudaMallocManaged(&fd, 512 * sizeof(float));
  for (int i = 0; i < 256; i++) {
    ha[i] = __float2half(static_cast<float>(i % 5));
    hb[i] = __float2half(static_cast<float>(i % 3));
    fc[i] = static_cast<float>(i % 7);
  }
  scaled<<<1, 32>>>(ha, hb, fc, fd, 2.0f, -1.0f);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      float sum = 0;
      for (int k = 0; k < 16; k++) sum += static_cast<float>((i * 16 + k) % 5 * ((k * 16 + j) % 3));
      wrong += fd[i * 16 + j] != 2.0f * sum - static_cast<float>((i * 16 + j) % 7);
      wrong += fd[256 + i * 16 + j] != 3.40282347e38f;
    }
  __half *hd;
  cudaMallocManaged(&hd, 256 * sizeof(__half));
  for (int i = 0; i < 256; i++) ha[i] = hb[i] = __float2half(100.0f);
  saturated_half<<<1, 32>>>(ha, hb, hd);
  cudaDeviceSynchronize();
  for (int i = 0; i < 256; i++) wrong += __half2float(hd[i]) != 65504.0f;  // 60000 + 16 * 100 * 100
  CHECK("element_wise_and_satf", wrong == 0);

  const int size = 64;
  float *ta, *tb, *tc;
  cudaMallocManaged(&ta, size * size * sizeof(float));
  cudaMallocManaged(&tb, size * size * sizeof(float));
  cudaMallocManaged(&tc, size * size * sizeof(float));
  for (int i = 0; i < size * size; i++) {
    ta[i] = static_cast<float>(i % 11) - 5.0f;
    tb[i] = static_cast<float>(i % 13) - 6.0f;
  }
  tiled<size><<<size * size / 256 / 4, 128>>>(ta, tb, tc);
  cudaDeviceSynchronize();
  wrong = 0;
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++) {
      float sum = 0;
      for (int k = 0; k < size; k++) sum += ta[i * size + k] * tb[k * size + j];
      wrong += tc[i * size + j] != sum;
    }
  CHECK("tiled_over_k", wrong == 0);

  // Ties go away from zero; NaN and infinity stay as they are.
  float in[6] = {1.0f + 0x1p-11f, -(1.0f + 0x1p-11f), 1.0f + 0x1p-12f, 3.0f, INFINITY, NAN}, *gin, *gout;
  float expected[6] = {1.0f + 0x1p-10f, -(1.0f + 0x1p-10f), 1.0f, 3.0f, INFINITY, 0};
  cudaMallocManaged(&gin, sizeof in);
  cudaMallocManaged(&gout, sizeof in);
  std::memcpy(gin, in, sizeof in);
  rounded<<<1, 6>>>(gin, gout);
  cudaDeviceSynchronize();
  bool same = std::isnan(gout[5]);
  for (int i = 0; i < 5; i++) same = same && gout[i] == expected[i];
  CHECK("float_to_tf32", same);
  CHECK("no_error", cudaGetLastError() == cudaSuccess);
  return 0;
}
