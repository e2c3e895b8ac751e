// Launches through <<<>>> and through the handle, for a test that links
// against another HIP runtime (tests/programs/other_runtime_entry_points.c) instead
// of gpusym's simulated one.
#include <hip/hip_runtime.h>

__global__ void poke(int* p, int value) { *p = value; }

int main() {
  int* p = nullptr;
  int value = 7;
  poke<<<3, 32>>>(p, value);
  void* args[] = {&p, &value};
  hipLaunchKernel(reinterpret_cast<const void*>(poke), dim3(2), dim3(64), args, 0, nullptr);
  return 0;
}
