// Code written for older compilers and older HIP, as much of what users have
// is: built with -std=c++11 (and -std=c++14) and -Werror, so any C++17 the
// headers use, even as an extension, fails the build.  It leans on what
// HIP's hip_runtime.h brings in (std::string, std::unique_ptr, std::thread,
// std::tuple with no include of their own), names the properties
// `struct hipDeviceProp_t`, and uses the vector, bfloat16 and intrinsic
// headers, whose results it prints: `name: value` lines.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

#include <cstdio>

__global__ void vectors(float4 *f, int3 *i, float *rounded, unsigned short *bf, int *features) {
  // Older HIP's feature macros, as the simulated device has them.
  features[0] = __HIP_ARCH_HAS_DOUBLES__ + 10 * __HIP_ARCH_HAS_SYNC_THREAD_EXT__ + 100 * __HIP_ARCH_HAS_WARP_SHUFFLE__;
  f[0] += make_float4(1, 2, 3, 4) * 2.0f;
  i[0] = (~i[0] ^ 3) << 1;
  rounded[0] = __ll2float_rd(16777217LL);  // 2^24 + 1 rounded down: 2^24
  rounded[1] = __ll2float_ru(16777217LL);  // rounded up: 2^24 + 2
  bf[0] = __hip_bfloat16(1.0f / 3.0f).data;
}

int main() {
  struct hipDeviceProp_t props;
  if (hipGetDeviceProperties(&props, 0) != hipSuccess) return 2;
  std::string name = props.name;
  std::unique_ptr<int> answer(new int(42));
  std::tuple<int, char> pair(7, 'x');
  int from_thread = 0;
  std::thread worker([&from_thread] { from_thread = 5; });
  worker.join();

  float4 *f;
  int3 *i;
  float *rounded;
  unsigned short *bf;
  hipMallocManaged(&f, sizeof(float4));
  hipMallocManaged(&i, sizeof(int3));
  hipMallocManaged(&rounded, 2 * sizeof(float));
  hipMallocManaged(&bf, sizeof(unsigned short));
  int *features;
  hipMallocManaged(&features, sizeof(int));
  f[0] = make_float4(1, 1, 1, 1);
  i[0] = make_int3(0, 1, 2);
  hipLaunchKernelGGL(vectors, dim3(1), dim3(1), 0, 0, f, i, rounded, bf, features);
  hipDeviceSynchronize();

  float4 host = make_float4(1, 1, 1, 1);
  host += make_float4(1, 2, 3, 4) * 2.0f;
  printf("device name: %s\n", name.c_str());
  printf("library: %d %d%c %d\n", *answer, std::get<0>(pair), std::get<1>(pair), from_thread);
  printf("float4: %g %g %g %g (host %g %g %g %g)\n", f->x, f->y, f->z, f->w, host.x, host.y, host.z, host.w);
  printf("int3: %d %d %d\n", i->x, i->y, i->z);
  printf("directed: %.1f %.1f\n", rounded[0], rounded[1]);
  printf("bfloat16: 0x%04x\n", bf[0]);
  printf("features: device %d, host %d, clang %d\n", *features, __HIP_ARCH_HAS_DOUBLES__, __HIP_CLANG_ONLY__);
  printf("%s\n", hipGetErrorName(hipGetLastError()));
  return 0;
}
