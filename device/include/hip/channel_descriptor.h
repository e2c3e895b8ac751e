/*
 * hipCreateChannelDesc<T>(): the channel format of a texel of type T, as in
 * HIP's channel_descriptor.h (C++ only; C has the five-argument function).
 * T is a scalar or a vector of 1 to 4 components; integer components are
 * signed or unsigned channels of their size, float ones float channels.
 */
#ifndef GPUSYM_HIP_CHANNEL_DESCRIPTOR_H
#define GPUSYM_HIP_CHANNEL_DESCRIPTOR_H

#include <type_traits>

#include "hip/hip_runtime_api.h"

/* A texel type's component type and count; also read by the device's
 * texture and surface functions. */
template <typename T> struct __gpusym_texel {
  typedef T component;
  static const unsigned int count = 1;
};
template <typename C, unsigned int N> struct __gpusym_texel<HIP_vector_type<C, N> > {
  typedef C component;
  static const unsigned int count = N;
};

template <typename T> static inline hipChannelFormatDesc hipCreateChannelDesc() {
  typedef typename __gpusym_texel<T>::component C;
  const unsigned int n = __gpusym_texel<T>::count;
  const int bits = static_cast<int>(sizeof(C) * 8);
  hipChannelFormatDesc desc = {bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 3 ? bits : 0,
                               std::is_floating_point<C>::value ? hipChannelFormatKindFloat
                               : std::is_signed<C>::value       ? hipChannelFormatKindSigned
                                                                : hipChannelFormatKindUnsigned};
  if (!std::is_arithmetic<C>::value) desc = hipChannelFormatDesc{0, 0, 0, 0, hipChannelFormatKindNone};
  return desc;
}

/* 16-bit float channels, which have no C++ type of their own here. */
static inline hipChannelFormatDesc hipCreateChannelDescHalf() {
  return hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf1() { return hipCreateChannelDescHalf(); }
static inline hipChannelFormatDesc hipCreateChannelDescHalf2() {
  return hipCreateChannelDesc(16, 16, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf4() {
  return hipCreateChannelDesc(16, 16, 16, 16, hipChannelFormatKindFloat);
}

#endif
