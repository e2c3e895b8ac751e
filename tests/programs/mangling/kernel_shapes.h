// Kernel shapes whose host stubs gpusym maps to device kernels by name.
// Included by shapes.hip (clang HIP) and shapes.cu (clang CUDA and nvcc);
// launch_all() instantiates every template and launches every kernel.
#pragma once

#include <string>

__global__ void plain(int *out) { *out = 1; }
__global__ void no_parameters() {}
__global__ void Zeta(int *out) { *out = 2; }  // starts like a mangled name

__global__ void overloaded(int *out) { *out = 3; }
__global__ void overloaded(float *out, int n) { out[n] = 4; }
__global__ void overloaded(double value, char c, int *out) { *out = int(value) + c; }

namespace outer { namespace middle { namespace inner {
__global__ void deep(int *out) { *out = 5; }
template <typename T> __global__ void deep_template(T *out, T value) { *out = value; }
struct Payload { int x; };
}}}  // namespace outer::middle::inner

namespace ns {
template <typename T> struct A { T value; };
template <typename T> __global__ void fill(T *out, int n) { out[n] = T(); }
// Parameter lists full of substitutions (S_, S0_, S1_... and T_).
__global__ void substitutions(A<int> *a, A<int> *b, const A<int> &c) { a->value = b->value + c.value; }
template <typename T> __global__ void template_substitutions(A<T> *a, A<T> *b, const A<T> &c, T *d) { *d = c.value; }
#ifndef __NVCC__  // nvcc's generated stub code fails to name the type: "same ... does not name a type"
// A type and a kernel of the same name.
struct same { int x; };
__global__ void same(struct same *s) { s->x = 6; }
#endif
static __global__ void static_in_namespace(int *out) { *out = 7; }
}  // namespace ns

template <int N, bool B, char C> __global__ void non_type(int *out) { *out = N + B + C; }
template <long N> __global__ void negative(int *out) { *out = int(N); }
template <template <typename> class Box, typename T> __global__ void template_template(Box<T> *box) { box->value = T(); }
template <typename... Ts> __global__ void pack(int *out, Ts... values) { *out = sizeof...(Ts); }
template <int... Ns> __global__ void int_pack(int *out) { *out = (Ns + ... + 0); }

__device__ int twice(int x) { return 2 * x; }
template <int (*F)(int)> __global__ void function_argument(int *out) { *out = F(4); }

extern "C" __global__ void c_kernel(int *out) { *out = 8; }
extern "C" {
__global__ void c_block_kernel(float *out) { *out = 9; }
}
namespace ns {
extern "C" __global__ void c_kernel_in_namespace(int *out) { *out = 10; }
}

namespace {
__global__ void anonymous(int *out) { *out = 11; }
template <typename T> __global__ void anonymous_template(T *out) { *out = T(); }
struct Hidden { int x; };
}  // namespace
static __global__ void file_static(int *out) { *out = 12; }
template <typename T> static __global__ void static_template(T *out) { *out = T(); }

struct __attribute__((abi_tag("tagged"))) Tagged { int x; };
__global__ __attribute__((abi_tag("v2"))) void abi_tagged(int *out) { *out = 13; }
inline namespace __attribute__((abi_tag("inl"))) versioned {
__global__ void in_tagged_namespace(int *out) { *out = 14; }
}

namespace std {
__global__ void gpusym_in_std(int *out) { *out = 15; }
namespace gpusym_test { __global__ void in_std_nested(int *out) { *out = 16; } }
}  // namespace std

template <typename T> __global__ void with_type(T *out) {}
template <typename F> __global__ void apply(F f, int *out) { *out = f(1); }

// A long name: nvcc's stub for it has a three-digit length prefix.
template <typename T> struct Wrapper_with_a_name_long_enough_to_make_long_mangled_names { T value; };
using Long = Wrapper_with_a_name_long_enough_to_make_long_mangled_names<
    Wrapper_with_a_name_long_enough_to_make_long_mangled_names<
        Wrapper_with_a_name_long_enough_to_make_long_mangled_names<outer::middle::inner::Payload>>>;

inline void launch_all(int *i, float *f) {
  plain<<<1, 1>>>(i);
  no_parameters<<<1, 1>>>();
  Zeta<<<1, 1>>>(i);
  overloaded<<<1, 1>>>(i);
  overloaded<<<1, 1>>>(f, 0);
  overloaded<<<1, 1>>>(1.0, 'c', i);
  outer::middle::inner::deep<<<1, 1>>>(i);
  outer::middle::inner::deep_template<<<1, 1>>>(f, 1.0f);
  outer::middle::inner::deep_template<outer::middle::inner::Payload *><<<1, 1>>>(nullptr, nullptr);
  ns::fill<<<1, 1>>>(f, 0);
  ns::fill<ns::A<ns::A<int>>><<<1, 1>>>(nullptr, 0);
  ns::substitutions<<<1, 1>>>(nullptr, nullptr, ns::A<int>{});
  ns::template_substitutions<float><<<1, 1>>>(nullptr, nullptr, ns::A<float>{}, f);
  ns::template_substitutions<ns::A<int>><<<1, 1>>>(nullptr, nullptr, ns::A<ns::A<int>>{}, nullptr);
  ns::static_in_namespace<<<1, 1>>>(i);
  non_type<3, true, 'x'><<<1, 1>>>(i);
  negative<-5><<<1, 1>>>(i);
  template_template<ns::A, float><<<1, 1>>>(nullptr);
  pack<<<1, 1>>>(i);
  pack<<<1, 1>>>(i, 1, 2.0f, 'c');
  pack<ns::A<int>, ns::A<int>, ns::A<int> *><<<1, 1>>>(i, {}, {}, nullptr);
  int_pack<1, 2, 3><<<1, 1>>>(i);
  function_argument<twice><<<1, 1>>>(i);
  c_kernel<<<1, 1>>>(i);
  c_block_kernel<<<1, 1>>>(f);
  ns::c_kernel_in_namespace<<<1, 1>>>(i);
  anonymous<<<1, 1>>>(i);
  anonymous_template<<<1, 1>>>(f);
  with_type<Hidden><<<1, 1>>>(nullptr);
  file_static<<<1, 1>>>(i);
  static_template<<<1, 1>>>(i);
  with_type<Tagged><<<1, 1>>>(nullptr);
  abi_tagged<<<1, 1>>>(i);
  in_tagged_namespace<<<1, 1>>>(i);
  std::gpusym_in_std<<<1, 1>>>(i);
  std::gpusym_test::in_std_nested<<<1, 1>>>(i);
  with_type<std::string><<<1, 1>>>(nullptr);
  with_type<Long><<<1, 1>>>(nullptr);
  apply<<<1, 1>>>([] __device__(int x) { return x + 1; }, i);
  apply<<<1, 1>>>([] __device__(int x) { return x + 2; }, i);
#ifndef __NVCC__
  ns::same<<<1, 1>>>(nullptr);
  // nvcc: "A type defined inside a __host__ function cannot be used in the
  // template argument type of a __global__ function template instantiation".
  struct Local { int x; };
  with_type<Local><<<1, 1>>>(nullptr);
#endif
}
