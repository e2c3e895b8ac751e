// Code objects loaded at run time: hipModuleLoad, hipModuleLoadData(Ex),
// hipModuleGetFunction, hipModuleGetGlobal, hipModuleLaunchKernel,
// hipModuleUnload.
//
// A module is a clang offload bundle (gpusym build --genco, like hipcc
// --genco) or a simulated-device code object itself.  Its kernels are those
// the code object lists; each is a kernel of its own, with the hipFunction_t
// as its handle, even when a fat binary or another module has one of the
// same name.
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "internal.h"
#include "offload_bundle.h"

namespace {

using namespace gpusym;

// The size of the x86-64 ELF shared object at `image` as its headers tell
// it, or 0 when it is none.  Only for images given without a size.
size_t elf_image_size(const uint8_t *image) {
  Elf64_Ehdr header;
  memcpy(&header, image, sizeof header);
  if (memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_machine != EM_X86_64 || header.e_type != ET_DYN || header.e_phentsize != sizeof(Elf64_Phdr))
    return 0;
  uint64_t end = header.e_shoff + uint64_t{header.e_shnum} * header.e_shentsize;
  for (unsigned i = 0; i < header.e_phnum; i++) {
    Elf64_Phdr segment;
    memcpy(&segment, image + header.e_phoff + i * sizeof segment, sizeof segment);
    if (segment.p_offset + segment.p_filesz > end) end = segment.p_offset + segment.p_filesz;
  }
  return end;
}

bool is_sim_elf(const uint8_t *image, size_t size) {
  return size >= sizeof(Elf64_Ehdr) && memcmp(image, ELFMAG, SELFMAG) == 0 && image[EI_CLASS] == ELFCLASS64 &&
         reinterpret_cast<const Elf64_Ehdr *>(image)->e_machine == EM_X86_64;
}

}  // namespace

// The simulated code object in `image` (a bundle or the object itself), or
// {null, error}.
std::pair<const uint8_t *, size_t> gpusym::sim_code_object(const uint8_t *image, size_t size, hipError_t &error) {
  if (size >= kBundleMagicSize && memcmp(image, kBundleMagic, kBundleMagicSize) == 0) {
    auto entry = find_sim_entry(image, size);
    if (!entry.first) error = hipErrorNoBinaryForGpu;  // only other targets' code
    return entry;
  }
  if (is_sim_elf(image, size)) return {image, size};
  error = hipErrorInvalidImage;
  return {nullptr, 0};
}

namespace {

hipError_t load_module(hipModule_t *out, gpusym_code_object_origin origin, const std::string &source,
                       const uint8_t *image, size_t size) {
  hipError_t error = hipSuccess;
  auto [code, code_size] = sim_code_object(image, size, error);
  if (!code) return error;
  std::lock_guard<std::mutex> lock(registry_mutex());
  Module &module = register_module(origin, source, nullptr, code, code_size);
  if (!has_code(module)) {  // the runtime said why
    unregister_module(module);
    return hipErrorSharedObjectInitFailed;
  }
  *out = reinterpret_cast<hipModule_t>(&module);
  return hipSuccess;
}

std::string absolute_path(const char *path) {
  char resolved[PATH_MAX];
  return realpath(path, resolved) ? resolved : path;
}

// The arguments of hipModuleLaunchKernel's `extra`: one buffer, each
// argument at its natural alignment, as a kernel's argument segment.
hipError_t arguments_from_buffer(const Signature &signature, void **extra, std::vector<void *> &args) {
  uint8_t *buffer = nullptr;
  size_t size = 0;
  bool has_size = false;
  for (void **key = extra; *key != HIP_LAUNCH_PARAM_END; key += 2) {
    if (key[0] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = static_cast<uint8_t *>(key[1]);
    } else if (key[0] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
      size = *static_cast<size_t *>(key[1]);
      has_size = true;
    } else {
      return hipErrorInvalidValue;
    }
  }
  if (!has_size || (!buffer && !signature.params.empty())) return hipErrorInvalidValue;
  size_t offset = 0;
  for (const Parameter &param : signature.params) {
    offset = (offset + param.alignment - 1) / param.alignment * param.alignment;
    if (offset + param.size > size) return hipErrorInvalidValue;
    args.push_back(buffer + offset);
    offset += param.size;
  }
  return hipSuccess;
}

}  // namespace

namespace gpusym {

hipError_t checked_launch_from_buffer(const void *handle, const LaunchConfig &config, void **extra) {
  Kernel *kernel = find_kernel(handle);
  if (!kernel) return hipErrorInvalidDeviceFunction;
  const Signature &signature = kernel_signature(*kernel);
  if (!signature.error.empty()) return hipErrorInvalidDeviceFunction;
  std::vector<void *> args;
  if (hipError_t error = arguments_from_buffer(signature, extra, args)) return error;
  return checked_launch(handle, config, args.data());
}

}  // namespace gpusym

extern "C" {

hipError_t hipModuleLoad(hipModule_t *module, const char *fname) {
  if (!module || !fname) return record(hipErrorInvalidValue);
  int fd = open(fname, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return record(hipErrorFileNotFound);
  struct stat info;
  std::vector<uint8_t> image;
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    image.resize(static_cast<size_t>(info.st_size));
    size_t done = 0;
    while (done < image.size()) {
      ssize_t got = read(fd, image.data() + done, image.size() - done);
      if (got <= 0) break;
      done += static_cast<size_t>(got);
    }
    image.resize(done);
  }
  close(fd);
  if (image.empty()) return record(hipErrorInvalidImage);
  return record(load_module(module, GPUSYM_ORIGIN_MODULE_FILE, absolute_path(fname), image.data(), image.size()));
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  if (!module || !image) return record(hipErrorInvalidValue);
  auto *bytes = static_cast<const uint8_t *>(image);
  // An image in memory comes without its size: its headers bound what is read.
  size_t size = memcmp(bytes, ELFMAG, SELFMAG) == 0 ? elf_image_size(bytes) : SIZE_MAX / 2;
  if (!size) return record(hipErrorInvalidImage);
  return record(load_module(module, GPUSYM_ORIGIN_MODULE_IMAGE, "", bytes, size));
}

hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int, int *, void **) {
  // JIT options tune a compiler the simulated device does not have.
  return hipModuleLoadData(module, image);
}

hipError_t hipModuleUnload(hipModule_t handle) {
  synchronize_all();
  std::lock_guard<std::mutex> lock(registry_mutex());
  Module *module = find_loaded_module(handle);
  if (!module) return record(hipErrorInvalidResourceHandle);
  unregister_module(*module);
  return hipSuccess;
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t handle, const char *kname) {
  if (!function || !kname) return record(hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(registry_mutex());
  Module *module = find_loaded_module(handle);
  if (!module) return record(hipErrorInvalidResourceHandle);
  Kernel *kernel = find_module_kernel(*module, kname);
  if (!kernel) return record(hipErrorNotFound);
  *function = reinterpret_cast<hipFunction_t>(const_cast<void *>(kernel->handle));
  return hipSuccess;
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t handle, const char *name) {
  if (!name) return record(hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(registry_mutex());
  Module *module = find_loaded_module(handle);
  if (!module) return record(hipErrorInvalidResourceHandle);
  Variable *variable = find_module_global(*module, name);
  if (!variable) return record(hipErrorNotFound);
  if (dptr) *dptr = variable->device_address;
  if (bytes) *bytes = variable->size;
  return hipSuccess;
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                 void **kernelParams, void **extra) {
  LaunchConfig config{{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes, stream};
  if (!extra) return record(checked_launch(f, config, kernelParams));
  if (kernelParams) return record(find_kernel(f) ? hipErrorInvalidValue : hipErrorInvalidDeviceFunction);
  return record(checked_launch_from_buffer(f, config, extra));
}

const char *hipKernelNameRef(const hipFunction_t f) {
  Kernel *kernel = find_kernel(f);
  return kernel ? kernel->device_name.c_str() : nullptr;
}

// The same for a kernel's host handle (what <<<>>> and hipLaunchKernel take).
const char *hipKernelNameRefByPtr(const void *host_function, hipStream_t) {
  Kernel *kernel = find_kernel(host_function);
  return kernel ? kernel->device_name.c_str() : nullptr;
}

}  // extern "C"
