/* Another CUDA runtime, as far as capture can tell: the entry points an
 * nvcc-built program (-cudart none) calls, accepting every launch, with a
 * kernel object of its own for each kernel (tests/programs/capture_cuda.cu). */
#include <stddef.h>
#include <stdint.h>

typedef struct {
  unsigned x, y, z;
} dim3;

static struct {
  dim3 grid, block;
  size_t shared;
  void *stream;
} pushed;
static char objects[16];  // kernel objects: addresses no handle has

void **__cudaRegisterFatBinary(void *fatbin) { return (void **)fatbin; }
void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }
void __cudaUnregisterFatBinary(void **handle) { (void)handle; }
char __cudaInitModule(void **handle) { (void)handle; return 1; }
void __cudaRegisterFunction(void) {}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream) {
  pushed.grid = grid, pushed.block = block, pushed.shared = shared, pushed.stream = stream;
  return 0;
}

int __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void **stream) {
  *grid = pushed.grid, *block = pushed.block, *shared = pushed.shared, *stream = pushed.stream;
  return 0;
}

int __cudaGetKernel(void **kernel, const void *function) {
  static unsigned next;
  (void)function;
  *kernel = &objects[next++ % sizeof objects];
  return 0;
}

int __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t shared, void *stream) {
  (void)kernel, (void)grid, (void)block, (void)args, (void)shared, (void)stream;
  return 0;
}

int cudaLaunchKernel(const void *function, dim3 grid, dim3 block, void **args, size_t shared, void *stream) {
  (void)function, (void)grid, (void)block, (void)args, (void)shared, (void)stream;
  return 0;
}

int cudaLaunchKernelExC(const void *config, const void *function, void **args) {
  (void)config, (void)function, (void)args;
  return 0;
}

int cudaGetLastError(void) { return 0; }
const char *cudaGetErrorName(int error) { return error ? "cudaErrorUnknown" : "cudaSuccess"; }
