// More of the driver API, over the module built with gpusym-nvcc -cubin (its
// path the first argument): context stacks, events, host memory, 2D and 3D
// copies, arrays and texture objects, function attributes, occupancy, a
// cooperative launch, and what is not supported; one line per check.
#include <cuda.h>
#include <cudaProfiler.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

static size_t shared_for(int block_size) { return static_cast<size_t>(block_size) * 4; }

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  cuInit(0);
  CUdevice device;
  cuDeviceGet(&device, 0);
  CUcontext context = nullptr, popped = nullptr, current = nullptr;
  cuDevicePrimaryCtxRetain(&context, device);
  unsigned int api = 0;
  CHECK("context_stack", cuCtxPushCurrent(context) == CUDA_SUCCESS && cuCtxGetCurrent(&current) == CUDA_SUCCESS &&
                             current == context && cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == context &&
                             cuCtxGetApiVersion(context, &api) == CUDA_SUCCESS && api >= 3020);
  cuCtxSetCurrent(context);
  CUuuid uuid;
  int can_access = -1;
  CHECK("device_uuid_peer", cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS &&
                                cuDeviceCanAccessPeer(&can_access, device, device) == CUDA_SUCCESS &&
                                can_access == 0);

  std::ifstream file(argv[1], std::ios::binary);
  std::string image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  CUmodule module = nullptr;
  CUjit_option options[] = {CU_JIT_MAX_REGISTERS};
  void *values[] = {reinterpret_cast<void *>(static_cast<size_t>(32))};
  CHECK("module_load_data_ex", cuModuleLoadDataEx(&module, image.data(), 1, options, values) == CUDA_SUCCESS);
  CUmodule from_ptx = nullptr;
  const char *ptx = "//\n.version 8.0\n.target sm_80\n.address_size 64\n";
  CHECK("ptx_refused", cuModuleLoadDataEx(&from_ptx, ptx, 0, nullptr, nullptr) == CUDA_ERROR_NOT_SUPPORTED);
  CUfunction fill = nullptr;
  cuModuleGetFunction(&fill, module, "fill");

  CUstream stream;
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  CUevent start, stop;
  CHECK("events", cuEventCreate(&start, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
                      cuEventCreate(&stop, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
                      cuEventRecord(start, stream) == CUDA_SUCCESS);

  int *pinned = nullptr, *mapped = nullptr;
  CUdeviceptr mapped_device = 0, out = 0;
  CHECK("host_memory", cuMemAllocHost(reinterpret_cast<void **>(&pinned), 64 * sizeof(int)) == CUDA_SUCCESS &&
                           cuMemHostAlloc(reinterpret_cast<void **>(&mapped), 64 * sizeof(int),
                                          CU_MEMHOSTALLOC_DEVICEMAP) == CUDA_SUCCESS &&
                           cuMemHostGetDevicePointer(&mapped_device, mapped, 0) == CUDA_SUCCESS && mapped_device);
  static int registered[64];
  CHECK("host_register", cuMemHostRegister(registered, sizeof registered, 0) == CUDA_SUCCESS &&
                             cuMemHostUnregister(registered) == CUDA_SUCCESS);

  cuMemAlloc(&out, 64 * sizeof(int));
  CHECK("memsets", cuMemsetD16(out, 0x0101, 128) == CUDA_SUCCESS &&
                       cuMemsetD8Async(out, 2, 4, stream) == CUDA_SUCCESS &&
                       cuMemsetD32Async(out + 4, 9, 1, stream) == CUDA_SUCCESS &&
                       cuStreamSynchronize(stream) == CUDA_SUCCESS &&
                       cuMemcpy(reinterpret_cast<CUdeviceptr>(pinned), out, 8) == CUDA_SUCCESS &&
                       pinned[0] == 0x02020202 && pinned[1] == 9);

  int base = 10;
  void *params[] = {&out, &base};
  CHECK("cooperative_launch", cuLaunchCooperativeKernel(fill, 2, 1, 1, 32, 1, 1, 0, stream, params) == CUDA_SUCCESS &&
                                  cuEventRecord(stop, stream) == CUDA_SUCCESS &&
                                  cuEventSynchronize(stop) == CUDA_SUCCESS);
  float ms = -1.0f;
  CHECK("event_timing", cuEventQuery(stop) == CUDA_SUCCESS && cuStreamQuery(stream) == CUDA_SUCCESS &&
                            cuEventElapsedTime(&ms, start, stop) == CUDA_SUCCESS && ms >= 0.0f);
  CHECK("memcpy_unified", cuMemcpy(reinterpret_cast<CUdeviceptr>(pinned), out, 64 * sizeof(int)) == CUDA_SUCCESS &&
                              pinned[0] == 10 && pinned[63] == 41);

  // A 2D copy into rows of 16 ints and back out of them.
  CUdeviceptr rows = 0;
  cuMemAlloc(&rows, 4 * 16 * sizeof(int));
  CUDA_MEMCPY2D copy2d = {};
  copy2d.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy2d.srcDevice = out;
  copy2d.srcPitch = 8 * sizeof(int);
  copy2d.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy2d.dstDevice = rows;
  copy2d.dstPitch = 16 * sizeof(int);
  copy2d.WidthInBytes = 8 * sizeof(int);
  copy2d.Height = 4;
  int back[4][16] = {};
  CUDA_MEMCPY2D out2d = {};
  out2d.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  out2d.srcDevice = rows;
  out2d.srcPitch = 16 * sizeof(int);
  out2d.dstMemoryType = CU_MEMORYTYPE_HOST;
  out2d.dstHost = back;
  out2d.dstPitch = sizeof back[0];
  out2d.WidthInBytes = 8 * sizeof(int);
  out2d.Height = 4;
  CHECK("memcpy_2d", cuMemcpy2D(&copy2d) == CUDA_SUCCESS && cuMemcpy2D(&out2d) == CUDA_SUCCESS &&
                         back[1][0] == 18 && back[3][7] == 41);

  // An array of floats, filled by cuMemcpy3D, a texture object over it.
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = 4;
  desc.Height = 2;
  desc.Depth = 0;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  CUarray array = nullptr;
  float texels[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}}, texels_back[2][4] = {};
  CUDA_MEMCPY3D in3d = {};
  in3d.srcMemoryType = CU_MEMORYTYPE_HOST;
  in3d.srcHost = texels;
  in3d.srcPitch = sizeof texels[0];
  in3d.srcHeight = 2;
  in3d.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  in3d.dstArray = array;
  in3d.WidthInBytes = sizeof texels[0];
  in3d.Height = 2;
  in3d.Depth = 1;
  bool created = cuArray3DCreate(&array, &desc) == CUDA_SUCCESS && array;
  in3d.dstArray = array;
  CUDA_MEMCPY3D out3d = {};
  out3d.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  out3d.srcArray = array;
  out3d.dstMemoryType = CU_MEMORYTYPE_HOST;
  out3d.dstHost = texels_back;
  out3d.dstPitch = sizeof texels_back[0];
  out3d.dstHeight = 2;
  out3d.WidthInBytes = sizeof texels[0];
  out3d.Height = 2;
  out3d.Depth = 1;
  CHECK("array_memcpy_3d", created && cuMemcpy3D(&in3d) == CUDA_SUCCESS && cuMemcpy3D(&out3d) == CUDA_SUCCESS &&
                               texels_back[1][2] == 7.0f);
  CUDA_RESOURCE_DESC resource = {};
  resource.resType = CU_RESOURCE_TYPE_ARRAY;
  resource.res.array.hArray = array;
  CUDA_TEXTURE_DESC sampling = {};
  sampling.filterMode = CU_TR_FILTER_MODE_POINT;
  sampling.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CUtexObject texture = 0;
  CHECK("tex_object", cuTexObjectCreate(&texture, &resource, &sampling, nullptr) == CUDA_SUCCESS && texture &&
                          cuTexObjectDestroy(texture) == CUDA_SUCCESS);
  CUDA_ARRAY_DESCRIPTOR flat = {4, 1, CU_AD_FORMAT_UNSIGNED_INT8, 4};
  CUarray flat_array = nullptr;
  CHECK("arrays", cuArrayCreate(&flat_array, &flat) == CUDA_SUCCESS && cuArrayDestroy(flat_array) == CUDA_SUCCESS &&
                      cuArrayDestroy(array) == CUDA_SUCCESS);

  int max_threads = 0, regs = -1;
  CHECK("func_attributes", cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fill) ==
                                   CUDA_SUCCESS &&
                               max_threads > 0 &&
                               cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fill) == CUDA_SUCCESS &&
                               cuFuncSetAttribute(fill, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024) ==
                                   CUDA_SUCCESS);
  int blocks = 0, grid = 0, block = 0, grid_cb = 0, block_cb = 0;
  CHECK("occupancy", cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 128, 0) == CUDA_SUCCESS &&
                         blocks > 0 &&
                         cuOccupancyMaxPotentialBlockSize(&grid, &block, fill, nullptr, 0, 0) == CUDA_SUCCESS &&
                         grid > 0 && block > 0 &&
                         cuOccupancyMaxPotentialBlockSize(&grid_cb, &block_cb, fill, shared_for, 0, 256) ==
                             CUDA_SUCCESS &&
                         grid_cb > 0 && block_cb > 0 && block_cb <= 256);

  CHECK("profiler", cuProfilerStart() == CUDA_SUCCESS && cuProfilerStop() == CUDA_SUCCESS);
  CUlinkState link = nullptr;
  int shareable = -1;
  CHECK("not_supported", cuLinkCreate(0, nullptr, nullptr, &link) == CUDA_ERROR_NOT_SUPPORTED &&
                             cuMemExportToShareableHandle(&shareable, 0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                                          0) == CUDA_ERROR_NOT_SUPPORTED);
  void *function = nullptr;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  CHECK("get_proc_address", cuGetProcAddress("cuMemAlloc", &function, CUDA_VERSION, 0, &found) == CUDA_SUCCESS &&
                                function == reinterpret_cast<void *>(&cuMemAlloc) &&
                                found == CU_GET_PROC_ADDRESS_SUCCESS);
  CHECK("cleanup", cuMemFree(out) == CUDA_SUCCESS && cuMemFree(rows) == CUDA_SUCCESS &&
                       cuMemFreeHost(pinned) == CUDA_SUCCESS && cuMemFreeHost(mapped) == CUDA_SUCCESS &&
                       cuEventDestroy(start) == CUDA_SUCCESS && cuEventDestroy(stop) == CUDA_SUCCESS &&
                       cuStreamDestroy(stream) == CUDA_SUCCESS && cuModuleUnload(module) == CUDA_SUCCESS);
  return 0;
}
