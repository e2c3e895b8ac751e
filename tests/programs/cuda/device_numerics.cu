// CUDA's math API, integer intrinsics, constants and half types in device
// code, against values known exactly or to a few ulps: one line per check,
// "NAME: ok" or "NAME: FAIL".
#include <cmath>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math_constants.h>
#include <device_functions.h>
#include <sm_61_intrinsics.h>
#include <vector_functions.h>

enum Check { kIntegers, kDotProducts, kSimd, kRounded, kNorms, kSpecial, kConstants, kHalf, kBfloat16, kCount };

__device__ bool near(double value, double expected, double tolerance = 1e-6) {
  return fabs(value - expected) <= tolerance * fmax(1.0, fabs(expected));
}

__global__ void numerics(int *out, float x) {
  out[kIntegers] = __fns(0xaaaaaaaau, 3, 1) == 3 && __fns(0xaaaaaaaau, 2, -1) == 1 && __fns(0xaaaaaaaau, 2, 1) == 3 &&
                   __fns(0xaaaaaaaau, 0, 0) == 0xffffffffu && __fns(0xf0u, 4, 3) == 6 && __brev(1u) == 0x80000000u &&
                   __byte_perm(0x33221100u, 0x77665544u, 0x7531u) == 0x77553311u &&
                   __funnelshift_l(0x80000000u, 1u, 1) == 3u && __funnelshift_r(1u, 1u, 1) == 0x80000000u &&
                   __popc(0xffu) == 8 && __clz(1) == 31 && __ffs(8) == 4 && __mulhi(0x40000000, 8) == 2 &&
                   __sad(3, 10, 1) == 8u;
  out[kDotProducts] = __dp4a(0x01020304, 0x01010101, 10) == 20 && __dp4a(-1, 0x01010101, 0) == -4 &&
                      __dp4a(0xffffffffu, 0x01010101u, 0u) == 1020u &&
                      __dp4a(make_char4(1, -2, 3, -4), make_char4(5, 6, 7, 8), 1) == 1 + 5 - 12 + 21 - 32 &&
                      __dp2a_lo(0x0002fffe, 0x00000302, 5) == 5 + (-2) * 2 + 2 * 3 &&
                      __dp2a_hi(0x00010001, 0x04030000, 0) == 7 &&
                      __dp2a_lo(0xffffffffu, 0x0101u, 0u) == 2u * 65535u;
  out[kSimd] = __vmaxs4(0x80ff7f01u, 0x01fe8002u) == 0x01ff7f02u && __vmaxu2(0x8000ffffu, 0x7fff0001u) == 0x8000ffffu &&
                __vaddss2(0x7fff8000u, 0x00018000u) == 0x7fff8000u && __vadd4(0xff010203u, 0x01010101u) == 0x00020304u &&
                __vsubus4(0x01020304u, 0x02020202u) == 0x00000102u && __vcmpgtu4(0x80010203u, 0x7f020103u) == 0xff00ff00u &&
                __vcmplts2(0xffff0001u, 0x00000001u) == 0xffff0000u && __vsetlts2(0xffff0001u, 0x00000001u) == 0x00010000u &&
                __vsadu4(0x0a000010u, 0x000a1000u) == 52u && __vsads2(0xffff0002u, 0x00010000u) == 4u &&
                __vabsss4(0x80817f00u) == 0x7f7f7f00u && __vabs4(0x80817f00u) == 0x807f7f00u &&
                __vavgs2(0xfffd0003u, 0u) == 0xfffe0002u && __vavgu4(0x01030000u, 0x00000101u) == 0x01020101u &&
                __vhaddu4(0x01030000u, 0x00000101u) == 0x00010000u && __vminu4(0x80010203u, 0x7f020103u) == 0x7f010103u &&
                __vneg2(0x00018000u) == 0xffff8000u && __vnegss2(0x00018000u) == 0xffff7fffu &&
                __vabsdiffu4(0x0005ff00u, 0x0300fe00u) == 0x03050100u &&
                __viaddmax_s32(2, 3, 4) == 5 && __viaddmax_s32_relu(-5, 1, -7) == 0 &&
                __viaddmin_u16x2(0xffff0001u, 0x00020001u, 0x00050001u) == 0x00010001u &&
                __vimax3_s16x2(0xffff0001u, 0xfffe0003u, 0x80000002u) == 0xffff0003u &&
                __vimin3_s16x2_relu(0xffff0001u, 0xfffe0003u, 0x80000002u) == 0x00000001u &&
                __vimax_s32_relu(-3, -4) == 0 && __vimin3_u32(3u, 1u, 2u) == 1u;
  bool hi = false, lo = false, pred = false;
  out[kSimd] = out[kSimd] && __vibmax_s16x2(0xffff0001u, 0x00000001u, &hi, &lo) == 0x00000001u && !hi && lo &&
               __vibmin_u32(3u, 7u, &pred) == 3u && pred;
  out[kRounded] = __saturatef(x * 3) == 1.0f && __saturatef(-x) == 0.0f && __frcp_rn(4.0f) == 0.25f &&
                  __fsqrt_rn(x * x) == x && __fdiv_rn(1.0f, 4.0f) == 0.25f && __fmaf_rn(x, 2.0f, 1.0f) == 2 * x + 1 &&
                  __float2int_rn(2.5f) == 2 && __float2int_ru(2.1f) == 3 && __double2int_rz(-2.7) == -2 &&
                  __fadd_rd(1.0f, 1e-10f) == 1.0f && __fadd_ru(1.0f, 1e-10f) > 1.0f && __dsqrt_rn(16.0) == 4.0;
  float sine, cosine;
  sincospif(0.5f, &sine, &cosine);
  out[kNorms] = near(norm3df(3, 4, 12), 13) && near(rnorm3df(3, 4, 12), 1.0 / 13) && near(norm4df(1, 1, 1, 1), 2) &&
                near(rnorm4df(1, 1, 1, 1), 0.5) && near(rhypotf(3, 4), 0.2) && near(sine, 1) && near(cosine, 0, 1e-7) &&
                near(sinpif(1.0f / 6), 0.5) && near(cospi(1.0 / 3), 0.5, 1e-12) && near(rsqrtf(4), 0.5) &&
                near(rcbrtf(8), 0.5) && near(exp10f(2), 100) && near(__expf(1), M_E, 1e-5) && near(__logf(M_E), 1, 1e-5) &&
                near(__fdividef(1, 3), 1.0 / 3) && near(__powf(2, 10), 1024, 1e-5);
  out[kSpecial] = near(cyl_bessel_i0f(1), 1.2660658777520084) && near(cyl_bessel_i1f(1), 0.5651591039924851) &&
                  near(erfcxf(1), 0.42758357615580705) && near(erfinvf(0.5f), 0.4769362762044699) &&
                  near(erfcinvf(0.5f), 0.4769362762044699) && near(normcdff(0), 0.5) && near(normcdfinvf(0.5f), 0, 1e-7) &&
                  near(tgammaf(5), 24) && near(lgammaf(5), log(24.0)) && near(j0f(1), 0.7651976865579666) &&
                  near(y0f(1), 0.08825696421567697) && near(erfcx(2.0), 0.2553956763105057, 1e-12);
  out[kConstants] = CUDART_PI_F == 3.14159265358979f && CUDART_PI == M_PI && isinf(CUDART_INF_F) &&
                    isnan(CUDART_NAN_F) && CUDART_SQRT_TWO == M_SQRT2 && CUDART_LN2 == M_LN2 &&
                    __float_as_uint(CUDART_NAN_F) == 0x7fffffffu;
  __half h = __float2half_rn(x), two = __float2half(2.0f);
  __half2 pair = __floats2half2_rn(x, 2.0f);
  out[kHalf] = __half2float(__hadd(h, two)) == x + 2 && __half2float(__hmul(h, two)) == 2 * x &&
               __half2float(hsqrt(__float2half(4.0f))) == 2.0f && __half2float(__low2half(pair)) == x &&
               __half2float(__high2half(__hmul2(pair, pair))) == 4.0f && __heq(h, __float2half(x)) &&
               __half_as_ushort(CUDART_ONE_FP16) == 0x3c00 && __half2int_rn(__float2half(2.5f)) == 2 &&
               __half2float(__shfl_sync(0xffffffffu, h, 0)) == x;
  // An empty or two-element braced list assigns through the copy assignment.
  __half zero = h;
  zero = {};
  __half2 zeros = pair, both = pair;
  zeros = {};
  both = {two, h};
  __half2_raw raw = {};
  raw.x = 0x3c00;
  raw.y = 0x4000;
  __half2 from_raw = pair;
  from_raw = raw;
  out[kHalf] = out[kHalf] && __half2float(zero) == 0.0f && __low2float(zeros) == 0.0f && __high2float(zeros) == 0.0f &&
               __low2float(both) == 2.0f && __high2float(both) == x && __low2float(from_raw) == 1.0f &&
               __high2float(from_raw) == 2.0f;
  __nv_bfloat16 b = __float2bfloat16(x);
  __nv_bfloat162 bpair = __floats2bfloat162_rn(x, 2.0f);
  out[kBfloat16] = __bfloat162float(__hadd(b, __float2bfloat16(1.0f))) == x + 1 &&
                   __bfloat162float(__high2bfloat16(bpair)) == 2.0f && __bfloat16_as_ushort(CUDART_ONE_BF16) == 0x3f80 &&
                   __bfloat162float(__float2bfloat16_rn(1.00390625f)) == 1.0f && __bfloat162float(hfloor(b)) == 0.0f &&
                   __low2float(bpair) == x;
  __nv_bfloat16 bzero = b;
  bzero = {};
  __nv_bfloat162 bzeros = bpair;
  bzeros = {};
  // Casts between the two halves of precision (a third: bfloat16 0x3eab, as
  // a half 0x3558, exactly; and back).
  __half third = static_cast<__half>(__float2bfloat16(x / 1.5f));
  out[kBfloat16] = out[kBfloat16] && __bfloat162float(bzero) == 0.0f && __low2float(bzeros) == 0.0f &&
                   __high2float(bzeros) == 0.0f && __half_as_ushort(third) == 0x3558 &&
                   __bfloat16_as_ushort(static_cast<__nv_bfloat16>(third)) == 0x3eab;
}

int main() {
  static const char *names[kCount] = {"integer intrinsics (__fns, __brev, __byte_perm, funnel shifts)",
                                      "__dp4a and __dp2a", "SIMD and DPX intrinsics (__vmaxs4, __vaddss2, __viaddmax_s32, ...)", "rounded arithmetic and conversions",
                                      "norms, sincospif and fast math", "special functions", "math_constants.h",
                                      "cuda_fp16.h (with `h = {}`)", "cuda_bf16.h (with `b = {}`, casts to and from __half)"};
  int *device = nullptr, host[kCount] = {};
  cudaMalloc(&device, sizeof host);
  numerics<<<1, 1>>>(device, 0.5f);
  cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  int failures = 0;
  for (int i = 0; i < kCount; i++) {
    printf("%s: %s\n", names[i], host[i] == 1 ? "ok" : "FAIL");
    failures += host[i] != 1;
  }
  return failures != 0 || cudaGetLastError() != cudaSuccess;
}
