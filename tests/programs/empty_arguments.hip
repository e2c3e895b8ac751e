// Empty classes passed by value take no register and no stack slot: the
// arguments after a functor or a captureless lambda arrive unshifted.  The
// template kernel is launched by its bare name, its template arguments
// deduced from the arguments' types, as HIP's hipLaunchKernelGGL allows.
#include <hip/hip_runtime.h>

#include <cstdio>

struct Op {
  __device__ int operator()(int a, int b) const { return a * 100 + b; }
};
inline auto add = [] __host__ __device__(int a, int b) { return a * 1000 + b; };
using Add = decltype(add);

__global__ void with_functor(Op op, int a, int b, int* out) { out[0] = op(a, b); }
__global__ void with_lambda(int a, Add op, int b, int* out) { out[1] = op(a, b); }
template <typename T, typename F>
__global__ void deduced(T* out, F op, T a, unsigned b) { out[2] = op(a, b); }

int main() {
  int* device = nullptr;
  int host[3] = {};
  hipMalloc(&device, sizeof host);
  hipLaunchKernelGGL(with_functor, dim3(1), dim3(1), 0, 0, Op{}, 7, 42, device);
  hipLaunchKernelGGL(with_lambda, dim3(1), dim3(1), 0, 0, 7, add, 42, device);
  const int three = 3;
  hipLaunchKernelGGL(deduced, dim3(1), dim3(1), 0, hipStreamDefault, device, add, three, 4u);
  hipMemcpy(host, device, sizeof host, hipMemcpyDeviceToHost);
  printf("functor %d lambda %d deduced %d\n", host[0], host[1], host[2]);
  return 0;
}
