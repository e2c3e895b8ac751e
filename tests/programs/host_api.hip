// The wider host API on the simulated device.  Each check prints
// `case: ok` or `case: got G, want W`; a few print values for
// tests/device/test_host_api.py to compare with its own: `memset bytes: HEX`,
// `error CODE: NAME | STRING`.  Exits 2 when a call it needs fails.
#include <hip/hip_runtime.h>
#include <hip/hip_version.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    hipError_t status_ = (call);                                                        \
    if (status_ != hipSuccess) {                                                        \
      printf("failed: %s: %s at line %d\n", #call, hipGetErrorName(status_), __LINE__); \
      exit(2);                                                                          \
    }                                                                                   \
  } while (0)

static void expect(const char *what, long long got, long long want) {
  if (got == want)
    printf("%s: ok\n", what);
  else
    printf("%s: got %lld, want %lld\n", what, got, want);
}

static void expect_error(const char *what, hipError_t got, hipError_t want) {
  if (got == want)
    printf("%s: ok\n", what);
  else
    printf("%s: got %s, want %s\n", what, hipGetErrorName(got), hipGetErrorName(want));
}

__global__ void times_three(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * i;
}

// Busy for a while (tens of milliseconds), then as times_three: what runs
// after it out of order sees zeros.
__global__ void slow_times_three(int *out, int n) {
  for (volatile long i = 0; i < 100000000; i = i + 1) {
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * i;
}

__global__ void add_one(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

__global__ void copy_value(int *out, const int *in) { *out = *in; }

__device__ int table[8];

__global__ void sum_table(int *out) {
  int sum = 0;
  for (int i = 0; i < 8; i++) sum += table[i];
  *out = sum;
}

// ---- host memory the device reads ----
static void pinned_and_registered() {
  const int n = 1000;
  int *host = nullptr;
  CHECK(hipHostMalloc(&host, n * sizeof(int), hipHostMallocMapped));
  int *device = nullptr;
  CHECK(hipHostGetDevicePointer(reinterpret_cast<void **>(&device), host, 0));
  expect("pinned device pointer is the host pointer", device == host, 1);
  unsigned flags = 0;
  CHECK(hipHostGetFlags(&flags, host));
  expect("pinned flags", flags, hipHostMallocMapped);
  hipPointerAttribute_t attr;
  CHECK(hipPointerGetAttributes(&attr, host + 10));
  expect("pinned attribute type", attr.type, hipMemoryTypeHost);
  expect("pinned attribute host pointer", attr.hostPointer == host + 10, 1);
  memset(host, 0, n * sizeof(int));
  times_three<<<(n + 255) / 256, 256>>>(device, n);
  CHECK(hipDeviceSynchronize());
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += host[i] != 3 * i;
  expect("kernel writes pinned memory", wrong, 0);
  CHECK(hipHostFree(host));
  expect_error("pinned double free", hipHostFree(host), hipErrorInvalidValue);

  std::vector<int> plain(n, 7);
  CHECK(hipHostRegister(plain.data(), n * sizeof(int), hipHostRegisterDefault));
  expect_error("register twice", hipHostRegister(plain.data() + 5, 4, 0), hipErrorHostMemoryAlreadyRegistered);
  CHECK(hipHostGetDevicePointer(reinterpret_cast<void **>(&device), plain.data(), 0));
  add_one<<<(n + 255) / 256, 256>>>(device, n);
  int *copy = nullptr;
  CHECK(hipMalloc(&copy, n * sizeof(int)));
  CHECK(hipMemcpy(copy, plain.data(), n * sizeof(int), hipMemcpyHostToDevice));  // after the kernel
  std::vector<int> back(n);
  CHECK(hipMemcpy(back.data(), copy, n * sizeof(int), hipMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += plain[i] != 8 || back[i] != 8;
  expect("kernel updates registered memory", wrong, 0);
  CHECK(hipHostUnregister(plain.data()));
  expect_error("unregister twice", hipHostUnregister(plain.data()), hipErrorHostMemoryNotRegistered);
  expect_error("device pointer of unregistered memory",
               hipHostGetDevicePointer(reinterpret_cast<void **>(&device), plain.data(), 0), hipErrorInvalidValue);
  CHECK(hipFree(copy));

  int *old = nullptr;
  CHECK(hipMallocHost(reinterpret_cast<void **>(&old), 64));
  CHECK(hipFreeHost(old));
  size_t free_bytes = 0, total = 0;
  CHECK(hipMemGetInfo(&free_bytes, &total));
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  expect("mem info total is totalGlobalMem", total, prop.totalGlobalMem);
  expect("mem info free within total", free_bytes > 0 && free_bytes <= total, 1);
}

static void managed() {
  const int n = 300;
  int *data = nullptr;
  CHECK(hipMallocManaged(&data, n * sizeof(int)));
  for (int i = 0; i < n; i++) data[i] = i;
  CHECK(hipMemAdvise(data, n * sizeof(int), hipMemAdviseSetReadMostly, 0));
  CHECK(hipMemPrefetchAsync(data, n * sizeof(int), 0, 0));
  add_one<<<2, 256>>>(data, n);
  CHECK(hipDeviceSynchronize());
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += data[i] != i + 1;
  expect("kernel updates managed memory", wrong, 0);
  hipPointerAttribute_t attr;
  CHECK(hipPointerGetAttributes(&attr, data));
  expect("managed attribute type", attr.type, hipMemoryTypeManaged);
  expect("managed attribute isManaged", attr.isManaged, 1);
  CHECK(hipFree(data));
  expect_error("advice on freed managed memory", hipMemAdvise(data, 4, hipMemAdviseSetReadMostly, 0),
               hipErrorInvalidValue);
}

// ---- copies and memsets of every shape ----
static void one_dimensional() {
  unsigned char *d = nullptr;
  CHECK(hipMalloc(&d, 64));
  const float *read_only = nullptr;  // a pointer to const, as programs keep their inputs
  CHECK(hipMalloc(&read_only, 64));
  CHECK(hipFree(const_cast<float *>(read_only)));
  CHECK(hipMemset(d, 0, 64));
  CHECK(hipMemsetD16(d + 2, 0xABCD, 5));
  CHECK(hipMemsetD32(d + 16, 0x11223344, 3));
  CHECK(hipMemsetD8(d + 40, 0x7f, 4));
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  CHECK(hipMemsetD16Async(d + 48, 0x0102, 2, s));
  CHECK(hipMemsetD32Async(d + 56, -2, 1, s));
  CHECK(hipMemsetD8Async(d + 60, 0x55, 3, s));
  unsigned char host[64];
  CHECK(hipMemcpyDtoHAsync(host, d, 64, s));
  CHECK(hipStreamSynchronize(s));
  printf("memset bytes: ");
  for (unsigned char byte : host) printf("%02x", byte);
  printf("\n");

  int src[16], out[16] = {};
  for (int i = 0; i < 16; i++) src[i] = 100 + i;
  int *a = nullptr, *b = nullptr;
  CHECK(hipMallocAsync(reinterpret_cast<void **>(&a), sizeof src, s));
  CHECK(hipMalloc(&b, sizeof src));
  CHECK(hipMemcpyHtoD(a, src, sizeof src));
  CHECK(hipMemcpyDtoD(b, a, sizeof src));
  CHECK(hipMemcpyWithStream(out, b, sizeof out, hipMemcpyDeviceToHost, s));
  expect("HtoD, DtoD, copy with stream", memcmp(src, out, sizeof out), 0);
  memset(out, 0, sizeof out);
  CHECK(hipMemcpyHtoDAsync(b, src + 8, 8 * sizeof(int), s));
  CHECK(hipMemcpyDtoDAsync(a, b, 8 * sizeof(int), s));
  CHECK(hipMemcpyDtoH(out, a, 8 * sizeof(int)));  // waits for s: a blocking stream
  expect("async HtoD, DtoD", memcmp(src + 8, out, 8 * sizeof(int)), 0);
  expect_error("HtoD into host memory", hipMemcpyHtoD(out, src, 4), hipErrorInvalidValue);
  CHECK(hipFreeAsync(a, s));
  CHECK(hipFree(b));
  CHECK(hipFree(d));
  CHECK(hipStreamDestroy(s));
}

static void two_dimensional() {
  const size_t width = 100, height = 7;
  unsigned char *d = nullptr;
  size_t pitch = 0;
  CHECK(hipMallocPitch(reinterpret_cast<void **>(&d), &pitch, width, height));
  expect("pitch of 100-byte rows", pitch, 256);
  CHECK(hipMemset2D(d, pitch, 0x11, width, height));
  // 90 x 5 bytes from (col 5, row 1) of a host image of 120-byte rows to (col 4, row 2).
  const size_t spitch = 120;
  std::vector<unsigned char> src(spitch * 8);
  for (size_t i = 0; i < src.size(); i++) src[i] = static_cast<unsigned char>(i * 7 + 3);
  CHECK(hipMemcpy2D(d + 2 * pitch + 4, pitch, src.data() + spitch + 5, spitch, 90, 5, hipMemcpyHostToDevice));
  // A 3 x 2 memset at (col 10, row 0), on a stream.
  CHECK(hipMemset2DAsync(d + 10, pitch, 0xEE, 3, 2, 0));
  std::vector<unsigned char> back(width * height, 0);
  CHECK(hipMemcpy2D(back.data(), width, d, pitch, width, height, hipMemcpyDeviceToHost));
  int wrong = 0;
  for (size_t y = 0; y < height; y++) {
    for (size_t x = 0; x < width; x++) {
      unsigned char want = 0x11;
      if (y >= 2 && y < 7 && x >= 4 && x < 94) want = src[(y - 2 + 1) * spitch + (x - 4 + 5)];
      if (y < 2 && x >= 10 && x < 13) want = 0xEE;
      wrong += back[y * width + x] != want;
    }
  }
  expect("2D copies and memsets", wrong, 0);
  std::vector<unsigned char> async_back(width * height, 0);
  CHECK(hipMemcpy2DAsync(async_back.data(), width, d, pitch, width, height, hipMemcpyDeviceToHost, 0));
  CHECK(hipStreamSynchronize(0));
  expect("2D async copy", memcmp(async_back.data(), back.data(), back.size()), 0);
  expect_error("2D copy wider than its pitch",
               hipMemcpy2D(back.data(), width, d, pitch, 300, 1, hipMemcpyDeviceToHost), hipErrorInvalidPitchValue);
  expect_error("2D copy past the allocation",
               hipMemcpy2D(d, pitch, src.data(), spitch, 100, 8, hipMemcpyHostToDevice), hipErrorInvalidValue);
  CHECK(hipFree(d));

  hipDeviceptr_t driver = nullptr;
  CHECK(hipMemAllocPitch(&driver, &pitch, 300, 2, 4));
  expect("driver pitch of 300-byte rows", pitch, 512);
  CHECK(hipFree(driver));
}

static void three_dimensional() {
  hipExtent extent = make_hipExtent(40, 6, 4);  // bytes, rows, slices
  hipPitchedPtr d;
  CHECK(hipMalloc3D(&d, extent));
  expect("3D pitch", d.pitch, 256);
  expect("3D xsize and ysize", d.xsize * 1000 + d.ysize, 40 * 1000 + 6);
  CHECK(hipMemset3D(d, 0x22, extent));
  // A host volume of 50-byte rows, 8 rows a slice, 4 slices.
  std::vector<unsigned char> host(50 * 8 * 4);
  for (size_t i = 0; i < host.size(); i++) host[i] = static_cast<unsigned char>(i * 13 + 1);
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr(host.data(), 50, 50, 8);
  p.srcPos = make_hipPos(2, 1, 1);
  p.dstPtr = d;
  p.dstPos = make_hipPos(3, 2, 0);
  p.extent = make_hipExtent(30, 4, 3);
  p.kind = hipMemcpyHostToDevice;
  CHECK(hipMemcpy3D(&p));
  std::vector<unsigned char> back(40 * 6 * 4, 0);
  hipMemcpy3DParms q = {};
  q.srcPtr = d;
  q.dstPtr = make_hipPitchedPtr(back.data(), 40, 40, 6);
  q.extent = extent;
  q.kind = hipMemcpyDeviceToHost;
  hipStream_t s;
  CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  CHECK(hipMemcpy3DAsync(&q, s));
  CHECK(hipStreamSynchronize(s));
  int wrong = 0;
  for (size_t z = 0; z < 4; z++)
    for (size_t y = 0; y < 6; y++)
      for (size_t x = 0; x < 40; x++) {
        unsigned char want = 0x22;
        if (z < 3 && y >= 2 && y < 6 && x >= 3 && x < 33)
          want = host[(z + 1) * 50 * 8 + (y - 2 + 1) * 50 + (x - 3 + 2)];
        wrong += back[(z * 6 + y) * 40 + x] != want;
      }
  expect("3D copies with offsets", wrong, 0);
  p.dstArray = reinterpret_cast<hipArray_t>(&p);
  expect_error("3D copy to an array", hipMemcpy3D(&p), hipErrorInvalidValue);
  CHECK(hipStreamDestroy(s));
  CHECK(hipFree(d.ptr));
}

// ---- device queries ----
static void queries() {
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 1));
  struct {
    hipDeviceAttribute_t attr;
    long long want;
    const char *name;
  } pairs[] = {
      {hipDeviceAttributeMaxThreadsPerBlock, prop.maxThreadsPerBlock, "MaxThreadsPerBlock"},
      {hipDeviceAttributeWarpSize, prop.warpSize, "WarpSize"},
      {hipDeviceAttributeMultiprocessorCount, prop.multiProcessorCount, "MultiprocessorCount"},
      {hipDeviceAttributeMaxBlockDimX, prop.maxThreadsDim[0], "MaxBlockDimX"},
      {hipDeviceAttributeMaxBlockDimZ, prop.maxThreadsDim[2], "MaxBlockDimZ"},
      {hipDeviceAttributeMaxGridDimX, prop.maxGridSize[0], "MaxGridDimX"},
      {hipDeviceAttributeMaxGridDimY, prop.maxGridSize[1], "MaxGridDimY"},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, (long long)prop.sharedMemPerBlock, "MaxSharedMemoryPerBlock"},
      {hipDeviceAttributeClockRate, prop.clockRate, "ClockRate"},
      {hipDeviceAttributeMemoryClockRate, prop.memoryClockRate, "MemoryClockRate"},
      {hipDeviceAttributeMemoryBusWidth, prop.memoryBusWidth, "MemoryBusWidth"},
      {hipDeviceAttributeL2CacheSize, prop.l2CacheSize, "L2CacheSize"},
      {hipDeviceAttributeComputeCapabilityMajor, prop.major, "ComputeCapabilityMajor"},
      {hipDeviceAttributeComputeCapabilityMinor, prop.minor, "ComputeCapabilityMinor"},
      {hipDeviceAttributePciBusId, prop.pciBusID, "PciBusId"},
      {hipDeviceAttributeConcurrentKernels, prop.concurrentKernels, "ConcurrentKernels"},
      {hipDeviceAttributeManagedMemory, prop.managedMemory, "ManagedMemory"},
      {hipDeviceAttributeCanMapHostMemory, prop.canMapHostMemory, "CanMapHostMemory"},
      {hipDeviceAttributeMaxRegistersPerBlock, prop.regsPerBlock, "MaxRegistersPerBlock"},
      {hipDeviceAttributeTotalConstantMemory, (long long)prop.totalConstMem, "TotalConstantMemory"},
      {hipDeviceAttributeMaxBlocksPerMultiProcessor, prop.maxBlocksPerMultiProcessor, "MaxBlocksPerMultiProcessor"},
      {hipDeviceAttributeClockInstructionRate, prop.clockInstructionRate, "ClockInstructionRate"},
      {hipDeviceAttributeIsMultiGpuBoard, prop.isMultiGpuBoard, "IsMultiGpuBoard"},
      {hipDeviceAttributeStreamPrioritiesSupported, prop.streamPrioritiesSupported, "StreamPrioritiesSupported"},
      {hipDeviceAttributeUnifiedAddressing, prop.unifiedAddressing, "UnifiedAddressing"},
  };
  for (const auto &pair : pairs) {
    int value = -12345;
    CHECK(hipDeviceGetAttribute(&value, pair.attr, 1));
    std::string what = std::string("attribute ") + pair.name + " agrees with properties";
    expect(what.c_str(), value, pair.want);
  }
  int refused = 0;
  for (int attr = 0; attr <= 91; attr++) {
    int value;
    refused += hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(attr), 0) != hipSuccess;
  }
  for (int attr = 10000; attr <= 10017; attr++) {
    int value;
    refused += hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(attr), 0) != hipSuccess;
  }
  expect("every attribute answered", refused, 0);
  int value = 0;
  expect_error("attribute 9999", hipDeviceGetAttribute(&value, hipDeviceAttributeCudaCompatibleEnd, 0),
               hipErrorInvalidValue);
  CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeWallClockRate, 0));
  printf("wall clock rate: %d\n", value);
  printf("warp size: %d\n", prop.warpSize);
  printf("arch: %s\n", prop.gcnArchName);
  char bus[32];
  CHECK(hipDeviceGetPCIBusId(bus, sizeof bus, 1));
  printf("pci bus id of device 1: %s\n", bus);
  int found = -1;
  CHECK(hipDeviceGetByPCIBusId(&found, bus));
  expect("device of its bus id", found, 1);
  char name[256];
  CHECK(hipDeviceGetName(name, sizeof name, 1));
  expect("device name is the properties' name", strcmp(name, prop.name), 0);
  size_t total = 0;
  CHECK(hipDeviceTotalMem(&total, 1));
  expect("total memory is totalGlobalMem", total, prop.totalGlobalMem);
  int major = 0, minor = -1;
  CHECK(hipDeviceComputeCapability(&major, &minor, 1));
  expect("compute capability", major * 10 + minor, prop.major * 10 + prop.minor);
  int driver = 0, runtime = 0;
  CHECK(hipDriverGetVersion(&driver));
  CHECK(hipRuntimeGetVersion(&runtime));
  expect("versions", driver == runtime && runtime == HIP_VERSION && runtime > 0, 1);
  CHECK(hipInit(0));
  hipDevice_t device = -1;
  CHECK(hipDeviceGet(&device, 1));
  expect("hipDeviceGet", device, 1);
  expect_error("hipDeviceGet out of range", hipDeviceGet(&device, 64), hipErrorInvalidDevice);
  CHECK(hipSetDeviceFlags(hipDeviceScheduleYield | hipDeviceMapHost));
  unsigned flags = 0;
  CHECK(hipGetDeviceFlags(&flags));
  expect("device flags", flags, hipDeviceScheduleYield | hipDeviceMapHost);
  CHECK(hipDeviceSetCacheConfig(hipFuncCachePreferL1));
  hipFuncCache_t cache;
  CHECK(hipDeviceGetCacheConfig(&cache));
  expect("cache config", cache, hipFuncCachePreferL1);
  hipSharedMemConfig bank;
  CHECK(hipDeviceGetSharedMemConfig(&bank));
  expect("shared memory config", bank, hipSharedMemBankSizeFourByte);
  size_t limit = 0;
  CHECK(hipDeviceSetLimit(hipLimitMallocHeapSize, 1 << 24));
  CHECK(hipDeviceGetLimit(&limit, hipLimitMallocHeapSize));
  expect("heap limit", limit, 1 << 24);
  CHECK(hipDeviceGetLimit(&limit, hipLimitStackSize));
  expect_error("stack limit past the lanes' stacks", hipDeviceSetLimit(hipLimitStackSize, limit + 1),
               hipErrorUnsupportedLimit);
  CHECK(hipChooseDevice(&found, &prop));
  expect("chosen device", found, 0);
  int least = 0, greatest = 0, priority = 0;
  CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  expect("stream priority range", least * 10 + greatest, 1 * 10 + -1);
  hipStream_t s;
  CHECK(hipStreamCreateWithPriority(&s, hipStreamDefault, -7));
  CHECK(hipStreamGetPriority(s, &priority));
  expect("priority clamped", priority, greatest);
  CHECK(hipStreamDestroy(s));
  hipCtx_t ctx;
  CHECK(hipDevicePrimaryCtxRetain(&ctx, 1));
  CHECK(hipCtxSetCurrent(ctx));
  CHECK(hipGetDevice(&found));
  expect("context makes its device current", found, 1);
  CHECK(hipSetDevice(0));
}

// ---- symbols, kernel attributes, occupancy ----
static void symbols_and_kernels() {
  int values[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {};
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  CHECK(hipMemcpyToSymbolAsync(HIP_SYMBOL(table), values, sizeof values, 0, hipMemcpyHostToDevice, s));
  int *sum = nullptr;
  CHECK(hipMalloc(&sum, sizeof(int)));
  sum_table<<<1, 1, 0, s>>>(sum);
  int host_sum = 0;
  CHECK(hipMemcpyAsync(&host_sum, sum, sizeof(int), hipMemcpyDeviceToHost, s));
  CHECK(hipMemcpyFromSymbolAsync(back, HIP_SYMBOL(table), 4 * sizeof(int), 4 * sizeof(int),
                                 hipMemcpyDeviceToHost, s));
  CHECK(hipStreamSynchronize(s));
  expect("kernel sums the symbol", host_sum, 36);
  expect("copy from symbol at an offset", back[0] * 1000 + back[3], 5 * 1000 + 8);
  void *address = nullptr;
  size_t size = 0;
  CHECK(hipGetSymbolAddress(&address, HIP_SYMBOL(table)));
  CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(table)));
  expect("symbol size", size, sizeof values);
  int direct[8] = {};
  CHECK(hipMemcpy(direct, address, sizeof direct, hipMemcpyDeviceToHost));
  expect("symbol address holds it", memcmp(direct, values, sizeof direct), 0);
  expect_error("symbol copy past its end", hipMemcpyToSymbol(HIP_SYMBOL(table), values, 8, 30), hipErrorInvalidValue);

  hipFuncAttributes attr;
  CHECK(hipFuncGetAttributes(&attr, add_one));
  expect("kernel max threads per block", attr.maxThreadsPerBlock, 1024);
  CHECK(hipFuncSetAttribute(add_one, hipFuncAttributeMaxDynamicSharedMemorySize, 1000));
  CHECK(hipFuncGetAttributes(&attr, reinterpret_cast<const void *>(add_one)));
  expect("kernel max dynamic shared memory", attr.maxDynamicSharedSizeBytes, 1000);
  CHECK(hipFuncSetCacheConfig(add_one, hipFuncCachePreferShared));
  CHECK(hipFuncSetSharedMemConfig(add_one, hipSharedMemBankSizeEightByte));
  expect_error("attributes of a host function",
               hipFuncGetAttributes(&attr, reinterpret_cast<const void *>(&expect)), hipErrorInvalidDeviceFunction);

  int blocks = -1, grid = -1, block = -1;
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_one, 256, 0));
  expect("active blocks per multiprocessor", blocks, 1);
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, add_one, 2048, 0, hipOccupancyDefault));
  expect("active blocks of a block too large", blocks, 0);
  CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, add_one, 0, 0));
  int multiprocessors = 0;
  CHECK(hipDeviceGetAttribute(&multiprocessors, hipDeviceAttributeMultiprocessorCount, 0));
  expect("potential block size", block, 1024);
  expect("potential grid size", grid, multiprocessors);
  CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, add_one, 0, 96));
  expect("potential block size under a limit", block, 96);
  CHECK(hipStreamDestroy(s));
  CHECK(hipFree(sum));
}

// ---- host functions in stream order ----
struct Log {
  std::mutex mutex;
  std::vector<std::string> entries;
  std::thread::id main_thread;
  int *device_value;  // what the kernel before the callback wrote
  int *managed;       // written by the callback, read by the kernel after it
  bool on_main = false;
  void add(const std::string &entry) {
    std::lock_guard<std::mutex> lock(mutex);
    entries.push_back(entry);
    if (std::this_thread::get_id() == main_thread) on_main = true;
  }
};


static void stream_callback(hipStream_t, hipError_t status, void *data) {
  auto *log = static_cast<Log *>(data);
  log->add("callback sees " + std::to_string(log->device_value[5]) + " status " + hipGetErrorName(status));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // later work must wait for it
  *log->managed = 42;
}

static void host_function(void *data) {
  auto *log = static_cast<Log *>(data);
  log->add("host function sees " + std::to_string(log->device_value[7]));
}

static void callbacks() {
  Log log;
  log.main_thread = std::this_thread::get_id();
  const int n = 8;
  CHECK(hipHostMalloc(&log.device_value, n * sizeof(int)));
  CHECK(hipMallocManaged(&log.managed, 2 * sizeof(int)));
  log.managed[0] = log.managed[1] = 0;
  memset(log.device_value, 0, n * sizeof(int));
  int source[n] = {9, 9, 9, 9, 9, 9, 9, 77};
  hipStream_t s;
  CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  slow_times_three<<<1, n, 0, s>>>(log.device_value, n);
  CHECK(hipStreamAddCallback(s, stream_callback, &log, 0));
  copy_value<<<1, 1, 0, s>>>(log.managed + 1, log.managed);
  CHECK(hipMemcpyAsync(log.device_value + 7, source + 7, sizeof(int), hipMemcpyHostToDevice, s));
  CHECK(hipLaunchHostFunc(s, host_function, &log));
  CHECK(hipStreamSynchronize(s));
  for (const std::string &entry : log.entries) printf("order: %s\n", entry.c_str());
  expect("host functions ran on a runtime thread", log.on_main ? 0 : 1, 1);
  expect("kernel after the callback sees its write", log.managed[1], 42);
  expect_error("callback with flags", hipStreamAddCallback(s, stream_callback, &log, 1), hipErrorInvalidValue);
  CHECK(hipStreamDestroy(s));
  CHECK(hipHostFree(log.device_value));
  CHECK(hipFree(log.managed));
}

// ---- errors ----
static void errors() {
  const hipError_t codes[] = {
      hipSuccess, hipErrorInvalidValue, hipErrorOutOfMemory, hipErrorNotInitialized, hipErrorDeinitialized,
      hipErrorProfilerDisabled, hipErrorProfilerNotInitialized, hipErrorProfilerAlreadyStarted,
      hipErrorProfilerAlreadyStopped, hipErrorInvalidConfiguration, hipErrorInvalidPitchValue,
      hipErrorInvalidSymbol, hipErrorInvalidDevicePointer, hipErrorInvalidMemcpyDirection,
      hipErrorInsufficientDriver, hipErrorMissingConfiguration, hipErrorPriorLaunchFailure,
      hipErrorInvalidDeviceFunction, hipErrorNoDevice, hipErrorInvalidDevice, hipErrorInvalidImage,
      hipErrorInvalidContext, hipErrorContextAlreadyCurrent, hipErrorMapFailed, hipErrorUnmapFailed,
      hipErrorArrayIsMapped, hipErrorAlreadyMapped, hipErrorNoBinaryForGpu, hipErrorAlreadyAcquired,
      hipErrorNotMapped, hipErrorNotMappedAsArray, hipErrorNotMappedAsPointer, hipErrorECCNotCorrectable,
      hipErrorUnsupportedLimit, hipErrorContextAlreadyInUse, hipErrorPeerAccessUnsupported,
      hipErrorInvalidKernelFile, hipErrorInvalidGraphicsContext, hipErrorInvalidSource, hipErrorFileNotFound,
      hipErrorSharedObjectSymbolNotFound, hipErrorSharedObjectInitFailed, hipErrorOperatingSystem,
      hipErrorInvalidHandle, hipErrorIllegalState, hipErrorNotFound, hipErrorNotReady, hipErrorIllegalAddress,
      hipErrorLaunchOutOfResources, hipErrorLaunchTimeOut, hipErrorPeerAccessAlreadyEnabled,
      hipErrorPeerAccessNotEnabled, hipErrorSetOnActiveProcess, hipErrorContextIsDestroyed, hipErrorAssert,
      hipErrorHostMemoryAlreadyRegistered, hipErrorHostMemoryNotRegistered, hipErrorLaunchFailure,
      hipErrorCooperativeLaunchTooLarge, hipErrorNotSupported, hipErrorStreamCaptureUnsupported,
      hipErrorStreamCaptureInvalidated, hipErrorStreamCaptureMerge, hipErrorStreamCaptureUnmatched,
      hipErrorStreamCaptureUnjoined, hipErrorStreamCaptureIsolation, hipErrorStreamCaptureImplicit,
      hipErrorCapturedEvent, hipErrorStreamCaptureWrongThread, hipErrorGraphExecUpdateFailure,
      hipErrorInvalidChannelDescriptor, hipErrorInvalidTexture, hipErrorUnknown, hipErrorRuntimeMemory,
      hipErrorRuntimeOther,
  };
  for (hipError_t code : codes)
    printf("error %d: %s | %s\n", static_cast<int>(code), hipGetErrorName(code), hipGetErrorString(code));
  printf("error 1054: %s | %s\n", hipGetErrorName(hipErrorTbd), hipGetErrorString(hipErrorTbd));

  hipIpcMemHandle_t handle;
  expect_error("ipc memory handle", hipIpcGetMemHandle(&handle, nullptr), hipErrorNotSupported);
  expect_error("graph", hipGraphDestroyNode(nullptr), hipErrorNotSupported);
}

// The last error is per host thread; hipGetLastError returns it and resets
// it, hipPeekAtLastError only returns it, and successful calls leave it.
static void last_error() {
  (void)hipGetLastError();
  expect_error("main: failing call", hipSetDevice(999), hipErrorInvalidDevice);
  hipError_t other_before = hipErrorUnknown, other_peek = hipErrorUnknown, other_get = hipErrorUnknown,
             other_after = hipErrorUnknown;
  std::thread other([&] {
    other_before = hipPeekAtLastError();
    (void)hipMalloc(static_cast<void **>(nullptr), 4);
    other_peek = hipPeekAtLastError();
    other_get = hipGetLastError();
    other_after = hipGetLastError();
  });
  other.join();
  expect_error("other thread: starts clean", other_before, hipSuccess);
  expect_error("other thread: peeks its own error", other_peek, hipErrorInvalidValue);
  expect_error("other thread: gets its own error", other_get, hipErrorInvalidValue);
  expect_error("other thread: reset by get", other_after, hipSuccess);
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  CHECK(hipStreamQuery(s));
  CHECK(hipStreamDestroy(s));
  expect_error("main: peek after successful calls", hipPeekAtLastError(), hipErrorInvalidDevice);
  expect_error("main: peek again", hipPeekAtLastError(), hipErrorInvalidDevice);
  expect_error("main: get", hipGetLastError(), hipErrorInvalidDevice);
  expect_error("main: get after get", hipGetLastError(), hipSuccess);
  (void)hipMemcpy2D(nullptr, 1, nullptr, 1, 2, 1, hipMemcpyHostToHost);
  expect_error("main: a new call's error", hipGetLastError(), hipErrorInvalidPitchValue);
}

// ---- what holds a pointer, kinds of memory, names, and the calls that only answer ----
static void lookups() {
  char *device = nullptr;
  CHECK(hipExtMallocWithFlags(reinterpret_cast<void **>(&device), 1000, hipDeviceMallocFinegrained));
  size_t size = 0;
  expect_error("size of the allocation holding a pointer", hipMemPtrGetInfo(device + 10, &size), hipSuccess);
  expect("its size", size, 1000);
  hipDeviceptr_t base = nullptr;
  size = 0;
  expect_error("range holding a pointer", hipMemGetAddressRange(&base, &size, device + 999), hipSuccess);
  expect("range base", base == device, 1);
  expect("range size", size, 1000);
  expect_error("range past the end", hipMemGetAddressRange(&base, &size, device + 1000), hipErrorNotFound);
  int local = 0;
  expect_error("size of host memory", hipMemPtrGetInfo(&local, &size), hipErrorInvalidValue);
  CHECK(hipFree(device));
  expect_error("range of freed memory", hipMemGetAddressRange(&base, &size, device), hipErrorNotFound);
  void *kinds[5] = {};
  for (unsigned flags = hipDeviceMallocDefault; flags <= hipDeviceMallocContiguous; flags++)
    CHECK(hipExtMallocWithFlags(&kinds[flags], flags == hipMallocSignalMemory ? 8 : 64, flags));
  for (void *kind : kinds) CHECK(hipFree(kind));
  void *signal = nullptr;
  expect_error("signal memory of other than 8 bytes", hipExtMallocWithFlags(&signal, 16, hipMallocSignalMemory),
               hipErrorInvalidValue);
  expect_error("unknown malloc flags", hipExtMallocWithFlags(&signal, 16, 0x100), hipErrorInvalidValue);
  int *pinned = nullptr;
  CHECK(hipExtHostAlloc(reinterpret_cast<void **>(&pinned), 64, hipHostAllocMapped));
  unsigned flags = 0;
  CHECK(hipHostGetFlags(&flags, pinned));
  expect("ext host alloc flags", flags, hipHostAllocMapped);
  CHECK(hipHostFree(pinned));

  const char *text = nullptr;
  expect_error("driver error name", hipDrvGetErrorName(hipErrorNotReady, &text), hipSuccess);
  expect("driver error name text", text && !strcmp(text, "hipErrorNotReady"), 1);
  expect_error("driver error string", hipDrvGetErrorString(hipErrorNotReady, &text), hipSuccess);
  expect("driver error string text", text && !strcmp(text, hipGetErrorString(hipErrorNotReady)), 1);
  expect_error("driver name of no code", hipDrvGetErrorName(static_cast<hipError_t>(1054), &text),
               hipErrorInvalidValue);
  expect_error("driver name to nowhere", hipDrvGetErrorName(hipSuccess, nullptr), hipErrorInvalidValue);
  (void)hipSetDevice(-1);
  expect_error("ext last error", hipExtGetLastError(), hipErrorInvalidDevice);
  expect_error("ext last error cleared", hipGetLastError(), hipSuccess);

  const char *name = hipKernelNameRefByPtr(reinterpret_cast<const void *>(times_three), nullptr);
  expect("kernel name by its handle", name && !strcmp(name, "_Z11times_threePii"), 1);
  expect("no kernel, no name", hipKernelNameRefByPtr(&local, nullptr) == nullptr, 1);
  expect_error("profiler start", hipProfilerStart(), hipErrorNotSupported);
  expect_error("profiler stop", hipProfilerStop(), hipErrorNotSupported);
  hipStreamCaptureStatus status = hipStreamCaptureStatusActive;
  expect_error("is capturing", hipStreamIsCapturing(nullptr, &status), hipSuccess);
  expect("not capturing", status, hipStreamCaptureStatusNone);
  unsigned long long id = 1;
  status = hipStreamCaptureStatusActive;
  CHECK(hipStreamGetCaptureInfo(nullptr, &status, &id));
  expect("capture info", status == hipStreamCaptureStatusNone && id == 0, 1);
  int runtime = 0;
  CHECK(hipRuntimeGetVersion(&runtime));
  expect("hip_version.h", runtime, HIP_VERSION);
  hipGetLastError();
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  struct {
    const char *name;
    void (*run)();
  } cases[] = {{"pinned", pinned_and_registered}, {"managed", managed}, {"1d", one_dimensional},
               {"2d", two_dimensional}, {"3d", three_dimensional}, {"queries", queries},
               {"symbols", symbols_and_kernels}, {"callbacks", callbacks}, {"errors", errors},
               {"last_error", last_error}, {"lookups", lookups}};
  for (const auto &c : cases)
    if (!strcmp(which, "all") || !strcmp(which, c.name)) c.run();
  return 0;
}
