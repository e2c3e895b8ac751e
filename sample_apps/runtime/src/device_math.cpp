// The ROCm device library's math functions (__ocml_*), for device code on the
// simulated device.  clang's HIP math headers (sqrtf, expf, std::sin, ...)
// call these; here they are libm's functions.  Rounding-mode variants follow
// their names (rte: to nearest, rtn: down, rtp: up, rtz: toward zero).
#include <cfenv>
#include <cmath>

namespace {

template <typename F>
auto with_rounding(int mode, F compute) {
  int saved = fegetround();
  fesetround(mode);
  auto result = compute();
  fesetround(saved);
  return result;
}

}  // namespace

extern "C" {

#define GPUSYM_OCML_1(name, expr)                                              \
  float __ocml_##name##_f32(float x) { using T [[maybe_unused]] = float; return expr; }   \
  double __ocml_##name##_f64(double x) { using T [[maybe_unused]] = double; return expr; }
#define GPUSYM_OCML_2(name, expr)                                              \
  float __ocml_##name##_f32(float x, float y) { using T [[maybe_unused]] = float; return expr; } \
  double __ocml_##name##_f64(double x, double y) { using T [[maybe_unused]] = double; return expr; }
#define GPUSYM_OCML_LIBM_1(name) GPUSYM_OCML_1(name, std::name(x))
#define GPUSYM_OCML_LIBM_2(name) GPUSYM_OCML_2(name, std::name(x, y))

GPUSYM_OCML_LIBM_1(acos) GPUSYM_OCML_LIBM_1(acosh) GPUSYM_OCML_LIBM_1(asin) GPUSYM_OCML_LIBM_1(asinh)
GPUSYM_OCML_LIBM_1(atan) GPUSYM_OCML_LIBM_1(atanh) GPUSYM_OCML_LIBM_1(cbrt) GPUSYM_OCML_LIBM_1(ceil)
GPUSYM_OCML_LIBM_1(cos) GPUSYM_OCML_LIBM_1(cosh) GPUSYM_OCML_LIBM_1(erf) GPUSYM_OCML_LIBM_1(erfc)
GPUSYM_OCML_LIBM_1(exp) GPUSYM_OCML_LIBM_1(exp2) GPUSYM_OCML_LIBM_1(expm1) GPUSYM_OCML_LIBM_1(fabs)
GPUSYM_OCML_LIBM_1(floor) GPUSYM_OCML_LIBM_1(lgamma) GPUSYM_OCML_LIBM_1(log) GPUSYM_OCML_LIBM_1(log10)
GPUSYM_OCML_LIBM_1(log1p) GPUSYM_OCML_LIBM_1(log2) GPUSYM_OCML_LIBM_1(logb) GPUSYM_OCML_LIBM_1(nearbyint)
GPUSYM_OCML_LIBM_1(rint) GPUSYM_OCML_LIBM_1(round) GPUSYM_OCML_LIBM_1(sin) GPUSYM_OCML_LIBM_1(sinh)
GPUSYM_OCML_LIBM_1(sqrt) GPUSYM_OCML_LIBM_1(tan) GPUSYM_OCML_LIBM_1(tanh) GPUSYM_OCML_LIBM_1(tgamma)
GPUSYM_OCML_LIBM_1(trunc)
GPUSYM_OCML_1(exp10, std::pow(T(10), x))
GPUSYM_OCML_1(rsqrt, T(1) / std::sqrt(x))
GPUSYM_OCML_1(rcbrt, T(1) / std::cbrt(x))
GPUSYM_OCML_1(sinpi, std::sin(T(M_PI) * x))
GPUSYM_OCML_1(cospi, std::cos(T(M_PI) * x))
GPUSYM_OCML_1(ncdf, T(0.5) * std::erfc(-x / std::sqrt(T(2))))
GPUSYM_OCML_1(erfcx, std::exp(x * x) * std::erfc(x))
GPUSYM_OCML_1(j0, T(::j0(x)))
GPUSYM_OCML_1(j1, T(::j1(x)))
GPUSYM_OCML_1(y0, T(::y0(x)))
GPUSYM_OCML_1(y1, T(::y1(x)))
GPUSYM_OCML_1(sqrt_rte, std::sqrt(x))
GPUSYM_OCML_1(sqrt_rtn, with_rounding(FE_DOWNWARD, [=] { return std::sqrt(x); }))
GPUSYM_OCML_1(sqrt_rtp, with_rounding(FE_UPWARD, [=] { return std::sqrt(x); }))
GPUSYM_OCML_1(sqrt_rtz, with_rounding(FE_TOWARDZERO, [=] { return std::sqrt(x); }))

GPUSYM_OCML_LIBM_2(atan2) GPUSYM_OCML_LIBM_2(copysign) GPUSYM_OCML_LIBM_2(fdim) GPUSYM_OCML_LIBM_2(fmax)
GPUSYM_OCML_LIBM_2(fmin) GPUSYM_OCML_LIBM_2(fmod) GPUSYM_OCML_LIBM_2(hypot) GPUSYM_OCML_LIBM_2(nextafter)
GPUSYM_OCML_LIBM_2(pow) GPUSYM_OCML_LIBM_2(remainder)
GPUSYM_OCML_2(rhypot, T(1) / std::hypot(x, y))
GPUSYM_OCML_2(scalb, std::scalbn(x, static_cast<int>(y)))

#define GPUSYM_OCML_ROUNDED(op, expr)                                                        \
  GPUSYM_OCML_2(op##_rte, expr)                                                              \
  GPUSYM_OCML_2(op##_rtn, with_rounding(FE_DOWNWARD, [=] { return expr; }))                  \
  GPUSYM_OCML_2(op##_rtp, with_rounding(FE_UPWARD, [=] { return expr; }))                    \
  GPUSYM_OCML_2(op##_rtz, with_rounding(FE_TOWARDZERO, [=] { return expr; }))
GPUSYM_OCML_ROUNDED(add, x + y)
GPUSYM_OCML_ROUNDED(sub, x - y)
GPUSYM_OCML_ROUNDED(mul, x * y)
GPUSYM_OCML_ROUNDED(div, x / y)

#define GPUSYM_OCML_TYPED(type, suffix)                                                      \
  type __ocml_fma_##suffix(type x, type y, type z) { return std::fma(x, y, z); }             \
  type __ocml_fma_rte_##suffix(type x, type y, type z) { return std::fma(x, y, z); }         \
  type __ocml_fma_rtn_##suffix(type x, type y, type z) {                                     \
    return with_rounding(FE_DOWNWARD, [=] { return std::fma(x, y, z); });                    \
  }                                                                                          \
  type __ocml_fma_rtp_##suffix(type x, type y, type z) {                                     \
    return with_rounding(FE_UPWARD, [=] { return std::fma(x, y, z); });                      \
  }                                                                                          \
  type __ocml_fma_rtz_##suffix(type x, type y, type z) {                                     \
    return with_rounding(FE_TOWARDZERO, [=] { return std::fma(x, y, z); });                  \
  }                                                                                          \
  type __ocml_len3_##suffix(type x, type y, type z) { return std::sqrt(x * x + y * y + z * z); } \
  type __ocml_rlen3_##suffix(type x, type y, type z) { return 1 / __ocml_len3_##suffix(x, y, z); } \
  type __ocml_len4_##suffix(type x, type y, type z, type w) {                                \
    return std::sqrt(x * x + y * y + z * z + w * w);                                         \
  }                                                                                          \
  type __ocml_rlen4_##suffix(type x, type y, type z, type w) {                               \
    return 1 / __ocml_len4_##suffix(x, y, z, w);                                             \
  }                                                                                          \
  type __ocml_sincos_##suffix(type x, type *cosine) {                                        \
    *cosine = std::cos(x);                                                                   \
    return std::sin(x);                                                                      \
  }                                                                                          \
  type __ocml_sincospi_##suffix(type x, type *cosine) {                                      \
    *cosine = std::cos(type(M_PI) * x);                                                      \
    return std::sin(type(M_PI) * x);                                                         \
  }                                                                                          \
  type __ocml_frexp_##suffix(type x, int *exponent) { return std::frexp(x, exponent); }      \
  type __ocml_modf_##suffix(type x, type *whole) { return std::modf(x, whole); }             \
  type __ocml_remquo_##suffix(type x, type y, int *quotient) { return std::remquo(x, y, quotient); } \
  type __ocml_ldexp_##suffix(type x, int exponent) { return std::ldexp(x, exponent); }       \
  type __ocml_scalbn_##suffix(type x, int exponent) { return std::scalbn(x, exponent); }     \
  type __ocml_pown_##suffix(type x, int n) { return std::pow(x, n); }                        \
  int __ocml_ilogb_##suffix(type x) { return std::ilogb(x); }                                \
  int __ocml_isinf_##suffix(type x) { return std::isinf(x); }                                \
  int __ocml_isnan_##suffix(type x) { return std::isnan(x); }                                \
  int __ocml_isfinite_##suffix(type x) { return std::isfinite(x); }                          \
  int __ocml_signbit_##suffix(type x) { return std::signbit(x); }
GPUSYM_OCML_TYPED(float, f32)
GPUSYM_OCML_TYPED(double, f64)

float __ocml_native_sin_f32(float x) { return std::sin(x); }
float __ocml_native_cos_f32(float x) { return std::cos(x); }
float __ocml_native_exp_f32(float x) { return std::exp(x); }
float __ocml_native_exp10_f32(float x) { return std::pow(10.0f, x); }
float __ocml_native_log_f32(float x) { return std::log(x); }
float __ocml_native_log2_f32(float x) { return std::log2(x); }
float __ocml_native_log10_f32(float x) { return std::log10(x); }
float __ocml_native_sqrt_f32(float x) { return std::sqrt(x); }

}  // extern "C"
