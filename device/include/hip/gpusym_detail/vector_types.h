/*
 * HIP's short vector types (char1 ... double4) and their make_* functions.
 *
 * Layout as HIP's: a vector of 1, 2 or 4 components is aligned to its size
 * (float4: 16 bytes aligned 16, double4: 32 aligned 32), a vector of 3 is
 * three packed components aligned as one (float3: 12 bytes aligned 4).  C++
 * gets HIP's operators: arithmetic with vectors or scalars on either side,
 * the compound assignments, ++ and --, unary + - ~, == and != (true when
 * every component compares so); % ^ | & << >> and ~ for integer components.
 * C gets the plain structs and the make_* functions.
 */
#ifndef GPUSYM_DETAIL_VECTOR_TYPES_H
#define GPUSYM_DETAIL_VECTOR_TYPES_H

#include "hip/hip_common.h"

#define __GPUSYM_VEC_ALIGN(type, rank) __attribute__((aligned((rank) == 3 ? sizeof(type) : (rank) * sizeof(type))))

#ifdef __cplusplus

#include <type_traits>

/* constexpr where the language allows such bodies: from C++14 on (C++11's
 * constexpr functions are single returns, and its constexpr members const). */
#if __cplusplus >= 201402L
#define __GPUSYM_VEC_FN __HOST_DEVICE__ inline constexpr
#else
#define __GPUSYM_VEC_FN __HOST_DEVICE__ inline
#endif

template <typename T> using __gpusym_if_scalar = typename std::enable_if<std::is_arithmetic<T>::value, int>::type;
/* Enabled for every component type, or for integer ones only. */
template <bool IntegerOnly, typename T>
using __gpusym_vec_op = typename std::enable_if<!IntegerOnly || std::is_integral<T>::value, int>::type;

/* The components, with the constructors: default (uninitialized, so vectors
 * can be __shared__), one value for every component, or one per component. */
template <typename T, unsigned int N> struct __gpusym_vec_fields;

template <typename T> struct __GPUSYM_VEC_ALIGN(T, 1) __gpusym_vec_fields<T, 1> {
  T x;
  __gpusym_vec_fields() = default;
  template <typename U, __gpusym_if_scalar<U> = 0> __GPUSYM_VEC_FN explicit __gpusym_vec_fields(U v) : x(T(v)) {}
};
template <typename T> struct __GPUSYM_VEC_ALIGN(T, 2) __gpusym_vec_fields<T, 2> {
  T x, y;
  __gpusym_vec_fields() = default;
  template <typename U, __gpusym_if_scalar<U> = 0> __GPUSYM_VEC_FN explicit __gpusym_vec_fields(U v) : x(T(v)), y(T(v)) {}
  template <typename A, typename B> __GPUSYM_VEC_FN __gpusym_vec_fields(A a, B b) : x(T(a)), y(T(b)) {}
};
template <typename T> struct __GPUSYM_VEC_ALIGN(T, 3) __gpusym_vec_fields<T, 3> {
  T x, y, z;
  __gpusym_vec_fields() = default;
  template <typename U, __gpusym_if_scalar<U> = 0> __GPUSYM_VEC_FN explicit __gpusym_vec_fields(U v) : x(T(v)), y(T(v)), z(T(v)) {}
  template <typename A, typename B, typename C>
  __GPUSYM_VEC_FN __gpusym_vec_fields(A a, B b, C c) : x(T(a)), y(T(b)), z(T(c)) {}
};
template <typename T> struct __GPUSYM_VEC_ALIGN(T, 4) __gpusym_vec_fields<T, 4> {
  T x, y, z, w;
  __gpusym_vec_fields() = default;
  template <typename U, __gpusym_if_scalar<U> = 0> __GPUSYM_VEC_FN explicit __gpusym_vec_fields(U v) : x(T(v)), y(T(v)), z(T(v)), w(T(v)) {}
  template <typename A, typename B, typename C, typename D>
  __GPUSYM_VEC_FN __gpusym_vec_fields(A a, B b, C c, D d) : x(T(a)), y(T(b)), z(T(c)), w(T(d)) {}
};

/* Calls f(a.c, b.c) for each component c: one overload per rank, since
 * C++11 and C++14 have no `if constexpr`. */
template <unsigned int N> using __gpusym_rank = std::integral_constant<unsigned int, N>;
template <typename F, typename A, typename B>
__GPUSYM_VEC_FN void __gpusym_vec_each(A &a, B &b, F f, __gpusym_rank<1>) {
  f(a.x, b.x);
}
template <typename F, typename A, typename B>
__GPUSYM_VEC_FN void __gpusym_vec_each(A &a, B &b, F f, __gpusym_rank<2>) {
  f(a.x, b.x);
  f(a.y, b.y);
}
template <typename F, typename A, typename B>
__GPUSYM_VEC_FN void __gpusym_vec_each(A &a, B &b, F f, __gpusym_rank<3>) {
  f(a.x, b.x);
  f(a.y, b.y);
  f(a.z, b.z);
}
template <typename F, typename A, typename B>
__GPUSYM_VEC_FN void __gpusym_vec_each(A &a, B &b, F f, __gpusym_rank<4>) {
  f(a.x, b.x);
  f(a.y, b.y);
  f(a.z, b.z);
  f(a.w, b.w);
}
template <typename F, typename A, typename B>
__GPUSYM_VEC_FN void __gpusym_vec_each(A &a, B &b, F f) {
  __gpusym_vec_each(a, b, f, __gpusym_rank<std::remove_cv<A>::type::rank>());
}

#define __GPUSYM_VEC_COMPOUND(op, integer_only)                                                \
  template <typename E = T, __gpusym_vec_op<integer_only, E> = 0>                              \
  __GPUSYM_VEC_FN HIP_vector_type &operator op##=(const HIP_vector_type & other) {             \
    __gpusym_vec_each(*this, other, [](T &a, const T &b) { a = T(a op b); });                  \
    return *this;                                                                              \
  }                                                                                            \
  template <typename U, typename E = T, __gpusym_if_scalar<U> = 0, __gpusym_vec_op<integer_only, E> = 0> \
  __GPUSYM_VEC_FN HIP_vector_type &operator op##=(U value) {                                   \
    return *this op## = HIP_vector_type(value);                                                \
  }

template <typename T, unsigned int N> struct HIP_vector_type : __gpusym_vec_fields<T, N> {
  using value_type = T;
  static constexpr unsigned int rank = N;
  using __gpusym_vec_fields<T, N>::__gpusym_vec_fields;
  HIP_vector_type() = default;

  __GPUSYM_VEC_COMPOUND(+, false)
  __GPUSYM_VEC_COMPOUND(-, false)
  __GPUSYM_VEC_COMPOUND(*, false)
  __GPUSYM_VEC_COMPOUND(/, false)
  __GPUSYM_VEC_COMPOUND(%, true)
  __GPUSYM_VEC_COMPOUND(^, true)
  __GPUSYM_VEC_COMPOUND(|, true)
  __GPUSYM_VEC_COMPOUND(&, true)
  __GPUSYM_VEC_COMPOUND(<<, true)
  __GPUSYM_VEC_COMPOUND(>>, true)

  __GPUSYM_VEC_FN HIP_vector_type &operator++() { return *this += T(1); }
  __GPUSYM_VEC_FN HIP_vector_type &operator--() { return *this -= T(1); }
  __GPUSYM_VEC_FN HIP_vector_type operator++(int) {
    HIP_vector_type old = *this;
    ++*this;
    return old;
  }
  __GPUSYM_VEC_FN HIP_vector_type operator--(int) {
    HIP_vector_type old = *this;
    --*this;
    return old;
  }
  __GPUSYM_VEC_FN HIP_vector_type operator+() const { return *this; }
  __GPUSYM_VEC_FN HIP_vector_type operator-() const { return HIP_vector_type(T(0)) -= *this; }
  template <typename E = T, __gpusym_vec_op<true, E> = 0> __GPUSYM_VEC_FN HIP_vector_type operator~() const {
    HIP_vector_type r = *this;
    __gpusym_vec_each(r, *this, [](T &a, const T &b) { a = T(~b); });
    return r;
  }
};
#undef __GPUSYM_VEC_COMPOUND

/* Binary operators: vector op vector, vector op scalar, scalar op vector. */
#define __GPUSYM_VEC_BINARY(op)                                                                \
  template <typename T, unsigned int N>                                                        \
  __GPUSYM_VEC_FN HIP_vector_type<T, N> operator op(HIP_vector_type<T, N> a, const HIP_vector_type<T, N> &b) { \
    return a op## = b;                                                                         \
  }                                                                                            \
  template <typename T, unsigned int N, typename U, __gpusym_if_scalar<U> = 0>                 \
  __GPUSYM_VEC_FN HIP_vector_type<T, N> operator op(HIP_vector_type<T, N> a, U b) {            \
    return a op## = HIP_vector_type<T, N>(b);                                                  \
  }                                                                                            \
  template <typename T, unsigned int N, typename U, __gpusym_if_scalar<U> = 0>                 \
  __GPUSYM_VEC_FN HIP_vector_type<T, N> operator op(U a, const HIP_vector_type<T, N> &b) {     \
    return HIP_vector_type<T, N>(a) op## = b;                                                  \
  }
__GPUSYM_VEC_BINARY(+)
__GPUSYM_VEC_BINARY(-)
__GPUSYM_VEC_BINARY(*)
__GPUSYM_VEC_BINARY(/)
__GPUSYM_VEC_BINARY(%)
__GPUSYM_VEC_BINARY(^)
__GPUSYM_VEC_BINARY(|)
__GPUSYM_VEC_BINARY(&)
__GPUSYM_VEC_BINARY(<<)
__GPUSYM_VEC_BINARY(>>)
#undef __GPUSYM_VEC_BINARY

template <typename T, unsigned int N>
__GPUSYM_VEC_FN bool operator==(const HIP_vector_type<T, N> &a, const HIP_vector_type<T, N> &b) {
  bool equal = true;
  __gpusym_vec_each(a, b, [&equal](const T &l, const T &r) { equal = equal && l == r; });
  return equal;
}
template <typename T, unsigned int N, typename U, __gpusym_if_scalar<U> = 0>
__GPUSYM_VEC_FN bool operator==(const HIP_vector_type<T, N> &a, U b) {
  return a == HIP_vector_type<T, N>(b);
}
template <typename T, unsigned int N, typename U, __gpusym_if_scalar<U> = 0>
__GPUSYM_VEC_FN bool operator==(U a, const HIP_vector_type<T, N> &b) {
  return HIP_vector_type<T, N>(a) == b;
}
template <typename T, unsigned int N>
__GPUSYM_VEC_FN bool operator!=(const HIP_vector_type<T, N> &a, const HIP_vector_type<T, N> &b) {
  return !(a == b);
}
template <typename T, unsigned int N, typename U, __gpusym_if_scalar<U> = 0>
__GPUSYM_VEC_FN bool operator!=(const HIP_vector_type<T, N> &a, U b) {
  return !(a == b);
}
template <typename T, unsigned int N, typename U, __gpusym_if_scalar<U> = 0>
__GPUSYM_VEC_FN bool operator!=(U a, const HIP_vector_type<T, N> &b) {
  return !(a == b);
}

#define __GPUSYM_VEC_TYPES(name, type)                                                         \
  using name##1 = HIP_vector_type<type, 1>;                                                    \
  using name##2 = HIP_vector_type<type, 2>;                                                    \
  using name##3 = HIP_vector_type<type, 3>;                                                    \
  using name##4 = HIP_vector_type<type, 4>;
#define __GPUSYM_VEC_MAKE(vec, ...) return vec(__VA_ARGS__)

#else /* C */

#define __GPUSYM_VEC_TYPES(name, type)                                                         \
  typedef struct { type x; } __GPUSYM_VEC_ALIGN(type, 1) name##1;                              \
  typedef struct { type x, y; } __GPUSYM_VEC_ALIGN(type, 2) name##2;                           \
  typedef struct { type x, y, z; } __GPUSYM_VEC_ALIGN(type, 3) name##3;                        \
  typedef struct { type x, y, z, w; } __GPUSYM_VEC_ALIGN(type, 4) name##4;
#define __GPUSYM_VEC_MAKE(vec, ...)                                                            \
  vec __v = {__VA_ARGS__};                                                                     \
  return __v
#define __GPUSYM_VEC_FN __HOST_DEVICE__ inline

#endif /* __cplusplus */

#define __GPUSYM_VEC_MAKERS(name, type)                                                        \
  static __GPUSYM_VEC_FN name##1 make_##name##1(type x) { __GPUSYM_VEC_MAKE(name##1, x); }     \
  static __GPUSYM_VEC_FN name##2 make_##name##2(type x, type y) { __GPUSYM_VEC_MAKE(name##2, x, y); } \
  static __GPUSYM_VEC_FN name##3 make_##name##3(type x, type y, type z) {                     \
    __GPUSYM_VEC_MAKE(name##3, x, y, z);                                                       \
  }                                                                                            \
  static __GPUSYM_VEC_FN name##4 make_##name##4(type x, type y, type z, type w) {             \
    __GPUSYM_VEC_MAKE(name##4, x, y, z, w);                                                    \
  }

#define __GPUSYM_VEC(name, type) __GPUSYM_VEC_TYPES(name, type) __GPUSYM_VEC_MAKERS(name, type)
__GPUSYM_VEC(char, char)
__GPUSYM_VEC(uchar, unsigned char)
__GPUSYM_VEC(short, short)
__GPUSYM_VEC(ushort, unsigned short)
__GPUSYM_VEC(int, int)
__GPUSYM_VEC(uint, unsigned int)
__GPUSYM_VEC(long, long)
__GPUSYM_VEC(ulong, unsigned long)
__GPUSYM_VEC(longlong, long long)
__GPUSYM_VEC(ulonglong, unsigned long long)
__GPUSYM_VEC(float, float)
__GPUSYM_VEC(double, double)
#undef __GPUSYM_VEC
#undef __GPUSYM_VEC_MAKERS
#undef __GPUSYM_VEC_TYPES
#undef __GPUSYM_VEC_MAKE

/* Vectors of 8 and 16 components: clang's vector types (component-wise
 * operators, components by index), aligned to their size.  HIP's alone:
 * CUDA has none, and CUDA programs name their own types int8, uint16, ... */
#if !defined(GPUSYM_CUDA_ARCH) && !defined(GPUSYM_CUDA_HEADERS)
#define __GPUSYM_WIDE_VEC(name, type)                                  \
  typedef type name##8 __attribute__((ext_vector_type(8)));           \
  typedef type name##16 __attribute__((ext_vector_type(16)));
__GPUSYM_WIDE_VEC(char, char)
__GPUSYM_WIDE_VEC(uchar, unsigned char)
__GPUSYM_WIDE_VEC(short, short)
__GPUSYM_WIDE_VEC(ushort, unsigned short)
__GPUSYM_WIDE_VEC(int, int)
__GPUSYM_WIDE_VEC(uint, unsigned int)
__GPUSYM_WIDE_VEC(long, long)
__GPUSYM_WIDE_VEC(ulong, unsigned long)
__GPUSYM_WIDE_VEC(longlong, long long)
__GPUSYM_WIDE_VEC(ulonglong, unsigned long long)
__GPUSYM_WIDE_VEC(float, float)
__GPUSYM_WIDE_VEC(double, double)
#undef __GPUSYM_WIDE_VEC
#endif

#endif
