// Kernels that exist only in some places: for one AMDGPU target only (the
// second: the simulated device's compile sees the first target's macros), for the
// host pass only (a stub with no device code), and for the device passes only
// (device code with no stub, reachable only through the module API).
#include <hip/hip_runtime.h>

__global__ void everywhere(int* p) { *p = 1; }

#if !defined(__HIP_DEVICE_COMPILE__) || defined(__gfx942__)
__global__ void only_gfx942(int* p) { *p = 2; }
#endif

#if !defined(__HIP_DEVICE_COMPILE__)
__global__ void host_pass_only(int* p) { *p = 4; }
#endif

#if defined(__HIP_DEVICE_COMPILE__)
__global__ void device_only(int* p) { *p = 3; }
#endif
