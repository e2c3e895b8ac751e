// Streams, events and host callbacks in stream order; launch forms; device
// properties; error semantics: one line per check, "NAME: ok" or what failed.
#include <cstdio>
#include <cstring>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

__global__ void add(int *data, int value) { data[threadIdx.x] += value; }

__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

int order[8];
int order_count = 0;
void CUDART_CB host_step(void *data) { order[order_count++] = *static_cast<int *>(data); }
void CUDART_CB callback_step(cudaStream_t, cudaError_t status, void *data) {
  if (status == cudaSuccess) order[order_count++] = *static_cast<int *>(data);
}

static void streams_and_events() {
  int *data = nullptr;
  cudaMalloc(&data, 32 * sizeof(int));
  cudaMemset(data, 0, 32 * sizeof(int));
  cudaStream_t first, second, priority;
  CHECK("stream_create", cudaStreamCreate(&first) == cudaSuccess &&
                             cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking) == cudaSuccess &&
                             cudaStreamCreateWithPriority(&priority, cudaStreamDefault, -1) == cudaSuccess);
  unsigned flags = 0;
  CHECK("stream_flags", cudaStreamGetFlags(second, &flags) == cudaSuccess && flags == cudaStreamNonBlocking);
  cudaEvent_t start, done;
  CHECK("event_create", cudaEventCreate(&start) == cudaSuccess &&
                            cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess);
  static int steps[] = {1, 2, 3};
  cudaEventRecord(start, first);
  add<<<1, 32, 0, first>>>(data, 1);
  cudaLaunchHostFunc(first, host_step, &steps[0]);
  cudaEventRecord(done, first);
  cudaStreamWaitEvent(second, done, 0);
  add<<<1, 32, 0, second>>>(data, 10);
  cudaStreamAddCallback(second, callback_step, &steps[1], 0);
  cudaLaunchHostFunc(second, host_step, &steps[2]);
  CHECK("stream_sync", cudaStreamSynchronize(second) == cudaSuccess && cudaStreamQuery(second) == cudaSuccess);
  CHECK("host_functions_in_order", order_count == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3);
  int host[32];
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  CHECK("wait_event_order", host[31] == 11);
  cudaEvent_t stop;
  cudaEventCreate(&stop);
  cudaEventRecord(stop, first);
  float ms = -1;
  CHECK("event_elapsed", cudaEventSynchronize(stop) == cudaSuccess &&
                             cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms >= 0);
  CHECK("event_query", cudaEventQuery(stop) == cudaSuccess);
  add<<<1, 32, 0, cudaStreamPerThread>>>(data, 100);
  add<<<1, 32, 0, cudaStreamLegacy>>>(data, 1000);
  CHECK("per_thread_and_legacy", cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess &&
                                     cudaStreamSynchronize(cudaStreamLegacy) == cudaSuccess &&
                                     cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess &&
                                     host[0] == 1111);
  CHECK("destroy", cudaEventDestroy(start) == cudaSuccess && cudaEventDestroy(done) == cudaSuccess &&
                       cudaEventDestroy(stop) == cudaSuccess && cudaStreamDestroy(first) == cudaSuccess &&
                       cudaStreamDestroy(second) == cudaSuccess && cudaStreamDestroy(priority) == cudaSuccess);
  cudaFree(data);
}

static void launch_forms() {
  float host[64];
  for (int i = 0; i < 64; i++) host[i] = 1.0f;
  float *data = nullptr;
  cudaMalloc(&data, sizeof host);
  cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
  int n = 64;
  float factor = 2.0f;
  void *args[] = {&data, &factor, &n};
  CHECK("launch_kernel", cudaLaunchKernel(scale, dim3(2), dim3(32), args, 0, 0) == cudaSuccess);
  CHECK("launch_kernel_void", cudaLaunchKernel(reinterpret_cast<const void *>(scale), dim3(2), dim3(32), args, 0,
                                               0) == cudaSuccess);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(32);
  cudaLaunchAttribute attribute = {};
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK("launch_kernel_ex", cudaLaunchKernelEx(&config, scale, data, 2.0f, n) == cudaSuccess);
  CHECK("launch_kernel_exc", cudaLaunchKernelExC(&config, reinterpret_cast<const void *>(scale), args) ==
                                 cudaSuccess);
  CHECK("launch_cooperative", cudaLaunchCooperativeKernel(scale, dim3(2), dim3(32), args, 0, 0) == cudaSuccess);
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  CHECK("launch_results", host[0] == 32.0f && host[63] == 32.0f);

  cudaFuncAttributes attributes;
  CHECK("func_attributes", cudaFuncGetAttributes(&attributes, scale) == cudaSuccess &&
                               attributes.maxThreadsPerBlock > 0);
  CHECK("func_set_attribute", cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024) ==
                                  cudaSuccess &&
                                  cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1) == cudaSuccess);
  int blocks = 0, min_grid = 0, block_size = 0;
  CHECK("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 128, 0) == cudaSuccess &&
                         blocks > 0 &&
                         cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, scale) == cudaSuccess &&
                         block_size > 0 && block_size <= 1024 && min_grid > 0);
  cudaFree(data);
}

static void devices() {
  int count = 0, device = -1;
  CHECK("device_count", cudaGetDeviceCount(&count) == cudaSuccess && count >= 1);
  CHECK("get_device", cudaGetDevice(&device) == cudaSuccess && device == 0);
  cudaDeviceProp prop;
  CHECK("properties", cudaGetDeviceProperties(&prop, 0) == cudaSuccess && prop.warpSize == 32 &&
                          prop.maxThreadsPerBlock == 1024 && prop.multiProcessorCount > 0 && prop.name[0]);
  std::printf("compute capability %d.%d\n", prop.major, prop.minor);
  int major = 0, minor = 0, warp = 0;
  CHECK("attributes", cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess &&
                          cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) == cudaSuccess &&
                          cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0) == cudaSuccess &&
                          major == prop.major && minor == prop.minor && warp == 32);
  if (count > 1) {
    int can = 0;
    CHECK("peer", cudaDeviceCanAccessPeer(&can, 0, 1) == cudaSuccess && can &&
                      cudaDeviceEnablePeerAccess(1, 0) == cudaSuccess && cudaSetDevice(1) == cudaSuccess &&
                      cudaSetDevice(0) == cudaSuccess);
    int access = 0, rank = -1;
    CHECK("p2p_attributes", cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, 0, 1) == cudaSuccess &&
                                access == 1 &&
                                cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, 0, 1) == cudaSuccess &&
                                rank == 0);
  }
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaStreamAttrValue window = {}, read_back;
  window.accessPolicyWindow.num_bytes = 4096;
  window.accessPolicyWindow.hitRatio = 0.6f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  CHECK("stream_attributes",
        cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window) == cudaSuccess &&
            cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &read_back) == cudaSuccess);
  cudaStreamDestroy(stream);
  cudaEvent_t untimed;
  CHECK("event_create_overload", cudaEventCreate(&untimed, cudaEventDisableTiming) == cudaSuccess &&
                                     cudaEventDestroy(untimed) == cudaSuccess &&
                                     cudaCtxResetPersistingL2Cache() == cudaSuccess);
  cudaIpcMemHandle_t handle;
  CHECK("ipc_not_supported", cudaIpcGetMemHandle(&handle, nullptr) == cudaErrorNotSupported &&
                                 cudaGetLastError() == cudaErrorNotSupported);
  size_t heap = 0;
  size_t persisting = 0;
  CHECK("limits", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) == cudaSuccess &&
                      cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess && heap >= (1 << 20) &&
                      prop.persistingL2CacheMaxSize > 0 &&
                      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize) == cudaSuccess &&
                      cudaDeviceGetLimit(&persisting, cudaLimitPersistingL2CacheSize) == cudaSuccess &&
                      persisting == static_cast<size_t>(prop.persistingL2CacheMaxSize));
  int driver = 0, runtime = 0;
  CHECK("versions", cudaDriverGetVersion(&driver) == cudaSuccess && cudaRuntimeGetVersion(&runtime) == cudaSuccess &&
                        runtime == CUDART_VERSION && driver >= runtime);
}

static void errors() {
  void *pointer = nullptr;
  CHECK("failing_malloc", cudaMalloc(&pointer, ~size_t{0} >> 1) == cudaErrorMemoryAllocation);
  CHECK("peek_keeps", cudaPeekAtLastError() == cudaErrorMemoryAllocation &&
                          cudaPeekAtLastError() == cudaErrorMemoryAllocation);
  CHECK("get_resets", cudaGetLastError() == cudaErrorMemoryAllocation && cudaGetLastError() == cudaSuccess);
  CHECK("invalid_device", cudaSetDevice(99) == cudaErrorInvalidDevice && cudaGetLastError() == cudaErrorInvalidDevice);
  add<<<1, 2048>>>(nullptr, 1);
  CHECK("launch_error", cudaGetLastError() == cudaErrorInvalidConfiguration && cudaDeviceSynchronize() == cudaSuccess);
  CHECK("sync_leaves_no_error", cudaGetLastError() == cudaSuccess);
  CHECK("error_names", std::strcmp(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation") == 0 &&
                           std::strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0 &&
                           std::strcmp(cudaGetErrorName(cudaErrorStreamCaptureUnsupported),
                                       "cudaErrorStreamCaptureUnsupported") == 0);
  bool all_named = true;
  for (int code = 0; code <= 1000; code++) {
    const char *name = cudaGetErrorName(static_cast<cudaError_t>(code));
    const char *text = cudaGetErrorString(static_cast<cudaError_t>(code));
    if (std::strcmp(name, "unrecognized error code") == 0) continue;
    all_named = all_named && std::strncmp(name, "cuda", 4) == 0 && text[0];
  }
  CHECK("every_error_named", all_named && cudaGetErrorName(cudaErrorUnknown)[0]);
}

int main() {
  streams_and_events();
  launch_forms();
  devices();
  errors();
  CHECK("reset", cudaDeviceReset() == cudaSuccess);
  return 0;
}
