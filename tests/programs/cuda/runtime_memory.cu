// The CUDA runtime's memory calls: one line per check, "NAME: ok" or what failed.
#include <cstdio>
#include <cstring>
#include <nvtx3/nvToolsExt.h>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

__device__ int device_value;
__constant__ float scale[4];

__global__ void read_symbols(float *out) { out[threadIdx.x] = scale[threadIdx.x] * device_value; }

__global__ void fill(int *data, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value + i;
}

int main() {
  int *device = nullptr;
  CHECK("malloc", cudaMalloc(&device, 256 * sizeof(int)) == cudaSuccess && device);
  // Into a pointer to const, as programs keep their read-only inputs.
  const float *inputs[2] = {};
  CHECK("malloc_const", cudaMalloc(inputs + 1, 64) == cudaSuccess && inputs[1] && cudaFree(const_cast<float *>(inputs[1])) == cudaSuccess);
  nvtxRangePushA("fill");  // NVTX annotations compile and do nothing
  fill<<<4, 64>>>(device, 10, 256);
  nvtxRangePop();
  int host[256];
  CHECK("memcpy", cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess && host[255] == 265);
  CHECK("memset", cudaMemset(device, 0, sizeof host) == cudaSuccess &&
                      cudaMemcpy(host, device, sizeof host, cudaMemcpyDefault) == cudaSuccess && host[7] == 0);

  int *pinned = nullptr;
  CHECK("malloc_host", cudaMallocHost(&pinned, 64 * sizeof(int)) == cudaSuccess && pinned);
  int *mapped = nullptr;
  CHECK("host_alloc", cudaHostAlloc(&mapped, 64 * sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  int *mapped_device = nullptr;
  CHECK("host_device_pointer", cudaHostGetDevicePointer(&mapped_device, mapped, 0) == cudaSuccess && mapped_device);
  static int registered[64];
  CHECK("host_register", cudaHostRegister(registered, sizeof registered, cudaHostRegisterDefault) == cudaSuccess &&
                             cudaHostUnregister(registered) == cudaSuccess);

  int *managed = nullptr;
  CHECK("malloc_managed", cudaMallocManaged(&managed, 64 * sizeof(int)) == cudaSuccess);
  fill<<<1, 64>>>(managed, 1, 64);
  CHECK("managed_after_sync", cudaDeviceSynchronize() == cudaSuccess && managed[63] == 64);
  cudaMemLocation on_device{cudaMemLocationTypeDevice, 0}, on_host{cudaMemLocationTypeHost, 0}, nowhere{};
  CHECK("managed_advise_prefetch",
        cudaMemAdvise(managed, 64 * sizeof(int), cudaMemAdviseSetReadMostly, 0) == cudaSuccess &&
            cudaMemAdvise(managed, 64 * sizeof(int), cudaMemAdviseSetPreferredLocation, on_host) == cudaSuccess &&
            cudaMemPrefetchAsync(managed, 64 * sizeof(int), on_device, 0) == cudaSuccess &&
            cudaMemPrefetchAsync_v2(managed, 64 * sizeof(int), on_host, 0, 0) == cudaSuccess &&
            cudaMemPrefetchAsync(managed, 64 * sizeof(int), nowhere, 0) == cudaErrorInvalidValue &&
            cudaGetLastError() == cudaErrorInvalidValue && managed[0] == 1);

  int *pitched = nullptr;
  size_t pitch = 0;
  CHECK("malloc_pitch", cudaMallocPitch(&pitched, &pitch, 10 * sizeof(int), 8) == cudaSuccess && pitch >= 40);
  int rows[8][10];
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 10; x++) rows[y][x] = y * 100 + x;
  int back[8][10] = {};
  CHECK("memcpy_2d", cudaMemcpy2D(pitched, pitch, rows, sizeof rows[0], sizeof rows[0], 8, cudaMemcpyHostToDevice) ==
                             cudaSuccess &&
                         cudaMemcpy2D(back, sizeof back[0], pitched, pitch, sizeof back[0], 8,
                                      cudaMemcpyDeviceToHost) == cudaSuccess &&
                         back[7][9] == 709);
  CHECK("memset_2d", cudaMemset2D(pitched, pitch, 0, sizeof rows[0], 8) == cudaSuccess);

  cudaPitchedPtr volume;
  CHECK("malloc_3d", cudaMalloc3D(&volume, make_cudaExtent(16, 4, 2)) == cudaSuccess && volume.pitch >= 16);
  CHECK("memset_3d", cudaMemset3D(volume, 7, make_cudaExtent(16, 4, 2)) == cudaSuccess);
  unsigned char slab[2][4][16] = {};
  cudaMemcpy3DParms parms = {};
  parms.srcPtr = volume;
  parms.dstPtr = make_cudaPitchedPtr(slab, 16, 16, 4);
  parms.extent = make_cudaExtent(16, 4, 2);
  parms.kind = cudaMemcpyDeviceToHost;
  CHECK("memcpy_3d", cudaMemcpy3D(&parms) == cudaSuccess && slab[1][3][15] == 7);

  float scales[4] = {1, 2, 3, 4};
  int value = 3;
  float *out = nullptr;
  cudaMalloc(&out, sizeof scales);
  CHECK("memcpy_to_symbol", cudaMemcpyToSymbol(scale, scales, sizeof scales) == cudaSuccess &&
                                cudaMemcpyToSymbolAsync(device_value, &value, sizeof value, 0,
                                                        cudaMemcpyHostToDevice, 0) == cudaSuccess);
  read_symbols<<<1, 4>>>(out);
  float results[4];
  cudaMemcpy(results, out, sizeof results, cudaMemcpyDeviceToHost);
  int read_back = 0;
  CHECK("memcpy_from_symbol", cudaMemcpyFromSymbol(&read_back, device_value, sizeof read_back) == cudaSuccess &&
                                  read_back == 3 && results[3] == 12.0f);
  void *symbol_address = nullptr;
  size_t symbol_size = 0;
  CHECK("symbol_address", cudaGetSymbolAddress(&symbol_address, device_value) == cudaSuccess && symbol_address &&
                              cudaGetSymbolSize(&symbol_size, scale) == cudaSuccess && symbol_size == 16);

  cudaStream_t stream;
  cudaStreamCreate(&stream);
  CHECK("memcpy_async", cudaMemcpyAsync(device, host, sizeof host, cudaMemcpyHostToDevice, stream) == cudaSuccess &&
                            cudaMemsetAsync(device, 1, 4, stream) == cudaSuccess &&
                            cudaMemcpyAsync(pinned, device, 64 * sizeof(int), cudaMemcpyDeviceToHost, stream) ==
                                cudaSuccess &&
                            cudaStreamSynchronize(stream) == cudaSuccess && pinned[0] == 0x01010101);

  int device_count = 0;
  cudaGetDeviceCount(&device_count);
  if (device_count > 1) {
    int *other = nullptr;
    cudaSetDevice(1);
    cudaMalloc(&other, sizeof host);
    cudaSetDevice(0);
    CHECK("memcpy_peer", cudaMemcpyPeer(other, 1, device, 0, sizeof host) == cudaSuccess &&
                             cudaMemcpyPeerAsync(device, 0, other, 1, sizeof host, stream) == cudaSuccess &&
                             cudaStreamSynchronize(stream) == cudaSuccess);
    cudaFree(other);
  }

  size_t free_bytes = 0, total_bytes = 0;
  CHECK("mem_get_info", cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess && free_bytes <= total_bytes &&
                            total_bytes > 0);
  cudaPointerAttributes attributes;
  CHECK("pointer_device", cudaPointerGetAttributes(&attributes, device) == cudaSuccess &&
                              attributes.type == cudaMemoryTypeDevice && attributes.device == 0);
  CHECK("pointer_host", cudaPointerGetAttributes(&attributes, pinned) == cudaSuccess &&
                            attributes.type == cudaMemoryTypeHost);
  CHECK("pointer_managed", cudaPointerGetAttributes(&attributes, managed) == cudaSuccess &&
                               attributes.type == cudaMemoryTypeManaged);
  int plain = 0;
  CHECK("pointer_unregistered", cudaPointerGetAttributes(&attributes, &plain) == cudaSuccess &&
                                    attributes.type == cudaMemoryTypeUnregistered);

  CHECK("free", cudaFree(device) == cudaSuccess && cudaFreeHost(pinned) == cudaSuccess &&
                    cudaFreeHost(mapped) == cudaSuccess && cudaFree(managed) == cudaSuccess &&
                    cudaFree(pitched) == cudaSuccess && cudaFree(volume.ptr) == cudaSuccess);
  cudaStreamDestroy(stream);
  CHECK("last_error", cudaGetLastError() == cudaSuccess);
  return 0;
}
