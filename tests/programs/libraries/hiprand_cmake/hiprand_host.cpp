// Four uniforms of hipRAND's default generator, generated into device memory.
#include <cstdio>
#include <hip/hip_runtime_api.h>
#include <hiprand/hiprand.h>

int main() {
  hiprandGenerator_t generator;
  float *device, host[4];
  if (hiprandCreateGenerator(&generator, HIPRAND_RNG_PSEUDO_DEFAULT) || hipMalloc(&device, sizeof host) ||
      hiprandGenerateUniform(generator, device, 4) ||
      hipMemcpy(host, device, sizeof host, hipMemcpyDeviceToHost) || hiprandDestroyGenerator(generator))
    return 1;
  for (float value : host) std::printf("%.9g\n", value);
  return 0;
}
