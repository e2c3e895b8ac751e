// The ROCm device library's math functions (__ocml_*), for device code on the
// simulated device.  clang's HIP math headers (sqrtf, expf, std::sin, ...)
// call these; here they are libm's functions.  Rounding-mode variants follow
// their names (rte: to nearest, rtn: down, rtp: up, rtz: toward zero).
#include <cfenv>
#include <cmath>
#include <limits>

// The rounding-mode variants change the rounding mode around the operation:
// the compiler must neither move the operation across the change nor fold it.
#pragma STDC FENV_ACCESS ON

namespace {

template <typename F>
auto with_rounding(int mode, F compute) {
  int saved = fegetround();
  fesetround(mode);
  auto result = compute();
  fesetround(saved);
  return result;
}

// x with erfc(x) == y, for 0 <= y <= 2: Winitzki's approximation refined by
// Newton's method on erfc (accurate in both tails, unlike erf near +-1).
double inverse_erfc(double y) {
  if (std::isnan(y) || y < 0 || y > 2) return std::numeric_limits<double>::quiet_NaN();
  if (y == 0) return HUGE_VAL;
  if (y == 2) return -HUGE_VAL;
  const bool negative = y > 1;  // erfc(-x) == 2 - erfc(x)
  const double tail = negative ? 2 - y : y;
  const double a = 0.147, log_term = std::log(tail * (2 - tail)), b = 2 / (M_PI * a) + log_term / 2;
  double x = std::sqrt(std::sqrt(b * b - log_term / a) - b);
  for (int step = 0; step < 8; step++) {
    double slope = -2 / std::sqrt(M_PI) * std::exp(-x * x);
    double next = x - (std::erfc(x) - tail) / slope;
    if (!std::isfinite(next) || next == x) break;
    x = next;
  }
  return negative ? -x : x;
}

// x with erf(x) == y: near zero by Newton's method on erf itself, where 1 - y
// would lose the digits of y.
double inverse_erf(double y) {
  if (!(std::fabs(y) < 0.5)) return inverse_erfc(1 - y);
  double x = y * std::sqrt(M_PI) / 2;
  for (int step = 0; step < 8; step++) {
    double next = x - (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
    if (next == x) break;
    x = next;
  }
  return x;
}

// Modified Bessel functions of the first kind (I0 even, I1 odd).  Beyond
// 720 both overflow, and libstdc++ would throw for far larger arguments.
double bessel_i(double order, double x) {
  return std::fabs(x) > 720 ? HUGE_VAL : std::cyl_bessel_i(order, std::fabs(x));
}
double bessel_i0(double x) { return bessel_i(0.0, x); }
double bessel_i1(double x) { return std::copysign(bessel_i(1.0, x), x); }

// exp(x^2) erfc(x), in double: past x = 26 exp(x^2) overflows (and past 9
// in float) where the product does not, so the asymptotic series takes over.
double scaled_erfc(double x) {
  if (x < 26.0) return std::exp(x * x) * std::erfc(x);
  double inverse = 1.0 / (x * x);
  return (1.0 - 0.5 * inverse * (1.0 - 1.5 * inverse)) / (x * std::sqrt(M_PI));
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
GPUSYM_OCML_1(erfcx, T(scaled_erfc(x)))
GPUSYM_OCML_1(j0, T(::j0(x)))
GPUSYM_OCML_1(j1, T(::j1(x)))
GPUSYM_OCML_1(y0, T(::y0(x)))
GPUSYM_OCML_1(y1, T(::y1(x)))
GPUSYM_OCML_1(erfinv, T(inverse_erf(x)))
GPUSYM_OCML_1(erfcinv, T(inverse_erfc(x)))
GPUSYM_OCML_1(ncdfinv, T(-std::sqrt(2.0) * inverse_erfc(2.0 * x)))
GPUSYM_OCML_1(i0, T(bessel_i0(x)))
GPUSYM_OCML_1(i1, T(bessel_i1(x)))
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

// Half precision: computed in float, rounded once to half.  A pair of halves
// is clang's two-element vector, as the ROCm device library declares it.
typedef _Float16 gpusym_2f16 __attribute__((ext_vector_type(2)));
typedef short gpusym_2i16 __attribute__((ext_vector_type(2)));
#define GPUSYM_OCML_F16(name, expr)                                                              \
  _Float16 __ocml_##name##_f16(_Float16 h) { float x = h; return static_cast<_Float16>(expr); }  \
  gpusym_2f16 __ocml_##name##_2f16(gpusym_2f16 v) {                                               \
    return gpusym_2f16{__ocml_##name##_f16(v.x), __ocml_##name##_f16(v.y)};                       \
  }
GPUSYM_OCML_F16(ceil, std::ceil(x)) GPUSYM_OCML_F16(cos, std::cos(x)) GPUSYM_OCML_F16(exp, std::exp(x))
GPUSYM_OCML_F16(exp10, std::pow(10.0f, x)) GPUSYM_OCML_F16(exp2, std::exp2(x)) GPUSYM_OCML_F16(fabs, std::fabs(x))
GPUSYM_OCML_F16(floor, std::floor(x)) GPUSYM_OCML_F16(log, std::log(x)) GPUSYM_OCML_F16(log10, std::log10(x))
GPUSYM_OCML_F16(log2, std::log2(x)) GPUSYM_OCML_F16(rint, std::rint(x)) GPUSYM_OCML_F16(rsqrt, 1.0f / std::sqrt(x))
GPUSYM_OCML_F16(sin, std::sin(x)) GPUSYM_OCML_F16(sqrt, std::sqrt(x)) GPUSYM_OCML_F16(trunc, std::trunc(x))
_Float16 __ocml_fma_f16(_Float16 x, _Float16 y, _Float16 z) { return static_cast<_Float16>(std::fma(float(x), float(y), float(z))); }
gpusym_2f16 __ocml_fma_2f16(gpusym_2f16 x, gpusym_2f16 y, gpusym_2f16 z) {
  return gpusym_2f16{__ocml_fma_f16(x.x, y.x, z.x), __ocml_fma_f16(x.y, y.y, z.y)};
}
_Float16 __ocml_fmax_f16(_Float16 x, _Float16 y) { return static_cast<_Float16>(std::fmax(float(x), float(y))); }
_Float16 __ocml_fmin_f16(_Float16 x, _Float16 y) { return static_cast<_Float16>(std::fmin(float(x), float(y))); }
_Float16 __ocml_pown_f16(_Float16 x, int n) { return static_cast<_Float16>(std::pow(float(x), n)); }
gpusym_2f16 __ocml_pown_2f16(gpusym_2f16 x, gpusym_2i16 n) {
  return gpusym_2f16{__ocml_pown_f16(x.x, n.x), __ocml_pown_f16(x.y, n.y)};
}
int __ocml_isinf_f16(_Float16 x) { return std::isinf(float(x)); }
int __ocml_isnan_f16(_Float16 x) { return std::isnan(float(x)); }
gpusym_2i16 __ocml_isinf_2f16(gpusym_2f16 x) { return gpusym_2i16{short(-std::isinf(float(x.x))), short(-std::isinf(float(x.y)))}; }
gpusym_2i16 __ocml_isnan_2f16(gpusym_2f16 x) { return gpusym_2i16{short(-std::isnan(float(x.x))), short(-std::isnan(float(x.y)))}; }
_Float16 __ocml_cvtrtn_f16_f32(float x) { return with_rounding(FE_DOWNWARD, [=] { return static_cast<_Float16>(x); }); }
_Float16 __ocml_cvtrtp_f16_f32(float x) { return with_rounding(FE_UPWARD, [=] { return static_cast<_Float16>(x); }); }
_Float16 __ocml_cvtrtz_f16_f32(float x) { return with_rounding(FE_TOWARDZERO, [=] { return static_cast<_Float16>(x); }); }
float __ockl_fdot2(gpusym_2f16 a, gpusym_2f16 b, float c, bool /* clamp */) {
  return float(a.x) * float(b.x) + float(a.y) * float(b.y) + c;
}

}  // extern "C"
