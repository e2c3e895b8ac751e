/*
 * The functions of CUDA's math API that CUDA gives host code too but the C
 * library lacks (rsqrtf, sincospif, erfinvf, normcdf, norm3df, ...): host
 * overloads beside the device ones of clang's HIP math header; and the
 * integer minima and maxima by type (umin, llmax, ...), for both.  The inverse
 * error functions refine an initial guess by Newton's method on the C
 * library's erf and erfc, to the last bit or so of a double.
 */
#ifndef GPUSYM_CUDA_HOST_MATH_H
#define GPUSYM_CUDA_HOST_MATH_H

#include <cmath>

#define __GPUSYM_HOST static __host__ inline

namespace __gpusym_host_math {
constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoOverSqrtPi = 1.12837916709551257390;

/* x with erfc(x) == y, 0 < y < 2: Newton's method from a guess good to a
 * few digits (Giles' single-precision approximation of erfinv). */
inline double erfcinv(double y) {
  if (!(y > 0.0 && y < 2.0)) return y == 0.0 ? INFINITY : y == 2.0 ? -INFINITY : NAN;
  double z = 1.0 - y, w = -std::log((1.0 - z) * (1.0 + z)), x;
  if (w < 5.0) {
    w -= 2.5;
    x = z * (1.50140941 + w * (0.246640727 + w * (-0.00417768164 + w * (-0.00125372503 + w * 0.00021858087))));
  } else {
    w = std::sqrt(w) - 3.0;
    x = z * (2.83297682 + w * (1.00167406 + w * (0.00943887047 + w * (-0.0076224613 + w * 0.00573950773))));
  }
  for (int step = 0; step < 4; step++) x += (std::erfc(x) - y) / (kTwoOverSqrtPi * std::exp(-x * x));
  return x;
}

/* sin and cos of pi * x, exact at the integers and halves. */
inline void sincospi(double x, double *s, double *c) {
  double r = std::fmod(x, 2.0);
  if (r == std::floor(r) || r * 2 == std::floor(r * 2)) {
    int quarter = static_cast<int>(r * 2) & 3;
    static const double sines[] = {0.0, 1.0, 0.0, -1.0};
    *s = std::copysign(sines[quarter], quarter == 0 || quarter == 2 ? x : 1.0);
    *c = sines[(quarter + 1) & 3];
    return;
  }
  *s = std::sin(kPi * r);
  *c = std::cos(kPi * r);
}
}  // namespace __gpusym_host_math

__GPUSYM_HOST float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
__GPUSYM_HOST double rsqrt(double x) { return 1.0 / std::sqrt(x); }
__GPUSYM_HOST float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
__GPUSYM_HOST double rcbrt(double x) { return 1.0 / std::cbrt(x); }
__GPUSYM_HOST void sincospi(double x, double *s, double *c) { __gpusym_host_math::sincospi(x, s, c); }
__GPUSYM_HOST void sincospif(float x, float *s, float *c) {
  double ds, dc;
  __gpusym_host_math::sincospi(x, &ds, &dc);
  *s = static_cast<float>(ds), *c = static_cast<float>(dc);
}
__GPUSYM_HOST double sinpi(double x) { double s, c; sincospi(x, &s, &c); return s; }
__GPUSYM_HOST double cospi(double x) { double s, c; sincospi(x, &s, &c); return c; }
__GPUSYM_HOST float sinpif(float x) { return static_cast<float>(sinpi(x)); }
__GPUSYM_HOST float cospif(float x) { return static_cast<float>(cospi(x)); }
__GPUSYM_HOST double erfcinv(double y) { return __gpusym_host_math::erfcinv(y); }
__GPUSYM_HOST double erfinv(double x) { return x == 0.0 ? x : __gpusym_host_math::erfcinv(1.0 - x); }
__GPUSYM_HOST float erfcinvf(float y) { return static_cast<float>(erfcinv(y)); }
__GPUSYM_HOST float erfinvf(float x) { return static_cast<float>(erfinv(x)); }
__GPUSYM_HOST double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
__GPUSYM_HOST float normcdff(float x) { return static_cast<float>(normcdf(x)); }
__GPUSYM_HOST double normcdfinv(double p) { return -std::sqrt(2.0) * erfcinv(2.0 * p); }
__GPUSYM_HOST float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
/* exp(x^2) erfc(x) without overflow: the asymptotic series beyond x = 26. */
__GPUSYM_HOST double erfcx(double x) {
  if (x < 26.0) return std::exp(x * x) * std::erfc(x);
  double inverse = 1.0 / (x * x);
  return (1.0 - 0.5 * inverse * (1.0 - 1.5 * inverse)) / (x * std::sqrt(__gpusym_host_math::kPi));
}
__GPUSYM_HOST float erfcxf(float x) { return static_cast<float>(erfcx(x)); }
__GPUSYM_HOST double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
__GPUSYM_HOST float rhypotf(float x, float y) { return 1.0f / std::hypot(x, y); }
__GPUSYM_HOST double norm3d(double a, double b, double c) { return std::hypot(std::hypot(a, b), c); }
__GPUSYM_HOST float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
__GPUSYM_HOST double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
__GPUSYM_HOST float rnorm3df(float a, float b, float c) { return static_cast<float>(rnorm3d(a, b, c)); }
__GPUSYM_HOST double norm4d(double a, double b, double c, double d) { return std::hypot(norm3d(a, b, c), d); }
__GPUSYM_HOST float norm4df(float a, float b, float c, float d) { return static_cast<float>(norm4d(a, b, c, d)); }
__GPUSYM_HOST double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
__GPUSYM_HOST float rnorm4df(float a, float b, float c, float d) { return static_cast<float>(rnorm4d(a, b, c, d)); }
__GPUSYM_HOST double norm(int dim, const double *p) {
  double sum = 0.0;
  for (int i = 0; i < dim; i++) sum = std::hypot(sum, p[i]);
  return sum;
}
__GPUSYM_HOST float normf(int dim, const float *p) {
  double sum = 0.0;
  for (int i = 0; i < dim; i++) sum = std::hypot(sum, static_cast<double>(p[i]));
  return static_cast<float>(sum);
}
__GPUSYM_HOST double rnorm(int dim, const double *p) { return 1.0 / norm(dim, p); }
__GPUSYM_HOST float rnormf(int dim, const float *p) { return 1.0f / normf(dim, p); }

#undef __GPUSYM_HOST

/* CUDA's integer minima and maxima by type, for host and device code. */
#define __GPUSYM_MIN_MAX(type, min_name, max_name)                                           \
  static __host__ __device__ inline type min_name(type a, type b) { return a < b ? a : b; } \
  static __host__ __device__ inline type max_name(type a, type b) { return a < b ? b : a; }
__GPUSYM_MIN_MAX(unsigned int, umin, umax)
__GPUSYM_MIN_MAX(long long, llmin, llmax)
__GPUSYM_MIN_MAX(unsigned long long, ullmin, ullmax)
#undef __GPUSYM_MIN_MAX

#endif
