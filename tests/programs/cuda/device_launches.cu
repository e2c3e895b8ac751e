// Kernels that launch kernels (dynamic parallelism): one line per check,
// "NAME: ok" or "NAME: FAIL ...".  clang takes no <<<>>> in device code;
// gpusym-nvcc compiles this source again with those launches made calls
// (device/compiler/device_launches.py).
#include <cstdio>

constexpr int kLeaf = 64;  // a range this long or shorter is summed by one launch

struct Results {
  unsigned long long tree_sum;
  int tree_launches;
  int scaled[128];
  float converted_float;
  long long converted_long;
  int seen_before_launch;
  int ordered[64];
  int copied[64];
  int heap_sum;
  int bad_configuration, error_after_reading;
  int from_host_device[32];
  int fan_out;
};

// The sum of [first, first + count), each half launched as a kernel of
// its own until a range is a leaf.
__global__ void tree_sum(Results *r, int first, int count) {
  if (threadIdx.x == 0) atomicAdd(&r->tree_launches, 1);
  if (count <= kLeaf) {
    if (threadIdx.x < count) atomicAdd(&r->tree_sum, (unsigned long long)(first + threadIdx.x));
    return;
  }
  if (threadIdx.x == 0) {
    int half = count / 2;
    tree_sum<<<1, kLeaf>>>(r, first, half);
    tree_sum<<<1, kLeaf>>>(r, first + half, count - half);
  }
}

// A template kernel that only device code launches: the host has no stub of it.
template <typename T, int Factor>
__global__ void scale(T *values) {
  values[blockIdx.x * blockDim.x + threadIdx.x] *= Factor;
}

template <typename T>
__global__ void scale_all(T *values) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    scale<T, 3>
        <<<2, 64>>>(values);
}

// Arguments converted to the parameters' types, as a launch converts them.
__global__ void take_converted(Results *r, float f, long long l) {
  r->converted_float = f;
  r->converted_long = l;
}

__global__ void read_flag(Results *r, const int *flag) { r->seen_before_launch = *flag; }

__global__ void convert_and_flag(Results *r, int *flag, double fraction) {
  take_converted<<<1, 1>>>(r, 7, fraction);
  *flag = 42;  // written before the launch that reads it
  read_flag<<<1, 1>>>(r, flag);
}

__global__ void write_index(int *out) { out[threadIdx.x] = threadIdx.x; }
__global__ void add_one(int *values) { values[threadIdx.x] += 1; }

// A copy in a stream runs after the launch before it and before the one after.
__global__ void ordered_in_stream(Results *r) {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  write_index<<<1, 64, 0, stream>>>(r->ordered);
  cudaMemcpyAsync(r->copied, r->ordered, sizeof r->copied, cudaMemcpyDeviceToDevice, stream);
  add_one<<<1, 64, 0, stream>>>(r->copied);
  cudaStreamDestroy(stream);
}

__global__ void fill(int *values, int count) {
  for (int i = threadIdx.x; i < count; i += blockDim.x) values[i] = i;
}

__global__ void sum_and_free(Results *r, int *values, int count) {
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  atomicAdd(&total, values[threadIdx.x] + values[threadIdx.x + 32]);
  __syncthreads();
  if (threadIdx.x == 0) {
    r->heap_sum = total;
    cudaFree(values);
  }
}

// Memory from device code's cudaMalloc, filled and freed by kernels it launches.
__global__ void with_device_memory(Results *r) {
  int *values = nullptr;
  if (cudaMalloc(&values, 64 * sizeof(int)) != cudaSuccess) return;
  fill<<<1, 16>>>(values, 64);
  sum_and_free<<<1, 32>>>(r, values, 64);
}

// A launch the device refuses is the launching thread's last error.
__global__ void bad_launch(Results *r) {
  add_one<<<1, 2048>>>(r->ordered);
  r->bad_configuration = cudaGetLastError();
  r->error_after_reading = cudaGetLastError();
}

__global__ void set_value(int *out, int value) { out[threadIdx.x] = value; }

// Launches from a __host__ __device__ function, called by both.
__host__ __device__ void set_all(int *out, int value) { set_value<<<1, 32>>>(out, value); }

__global__ void set_from_device(int *out) { set_all(out, 5); }

__global__ void count_threads(Results *r) { atomicAdd(&r->fan_out, 1); }

// Many kernels of several blocks each, launched by many threads at once.
__global__ void fan_out(Results *r) { count_threads<<<4, 32>>>(r); }

static void check(const char *name, bool ok, const char *detail = "") {
  printf(ok ? "%s: ok\n" : "%s: FAIL %s\n", name, detail);
}

int main() {
  Results *r = nullptr;
  int *flag = nullptr;
  cudaMallocManaged(&r, sizeof(Results));
  cudaMallocManaged(&flag, sizeof(int));
  cudaMemset(r, 0, sizeof(Results));
  *flag = 0;
  for (int i = 0; i < 128; i++) r->scaled[i] = i;

  const int count = 1000;
  tree_sum<<<1, kLeaf>>>(r, 0, count);
  scale_all<<<2, 32>>>(r->scaled);
  convert_and_flag<<<1, 1>>>(r, flag, 2.75);
  ordered_in_stream<<<1, 1>>>(r);
  with_device_memory<<<1, 1>>>(r);
  fan_out<<<64, 4>>>(r);
  cudaError_t error = cudaDeviceSynchronize();
  bad_launch<<<1, 1>>>(r);
  cudaError_t late = cudaDeviceSynchronize();
  set_all(r->from_host_device, 9);
  cudaDeviceSynchronize();
  bool host_set = r->from_host_device[31] == 9;
  set_from_device<<<1, 1>>>(r->from_host_device);
  cudaDeviceSynchronize();

  char detail[96];
  check("synchronize", error == cudaSuccess && late == cudaSuccess, cudaGetErrorString(error));
  snprintf(detail, sizeof detail, "%llu in %d launches", r->tree_sum, r->tree_launches);
  check("tree_sum", r->tree_sum == (unsigned long long)count * (count - 1) / 2 && r->tree_launches == 31, detail);
  bool scaled = true;
  for (int i = 0; i < 128; i++) scaled &= r->scaled[i] == 3 * i;
  check("template_launched_by_device_only", scaled);
  check("arguments_converted", r->converted_float == 7.0f && r->converted_long == 2);
  check("writes_before_launch_seen", r->seen_before_launch == 42);
  bool ordered = true;
  for (int i = 0; i < 64; i++) ordered &= r->ordered[i] == i && r->copied[i] == i + 1;
  check("copy_in_stream_order", ordered);
  snprintf(detail, sizeof detail, "%d", r->heap_sum);
  check("device_malloc_and_free", r->heap_sum == 64 * 63 / 2, detail);
  snprintf(detail, sizeof detail, "%d then %d", r->bad_configuration, r->error_after_reading);
  check("bad_configuration", r->bad_configuration == cudaErrorInvalidConfiguration && r->error_after_reading == 0,
        detail);
  check("host_device_function", host_set && r->from_host_device[0] == 5 && r->from_host_device[31] == 5);
  snprintf(detail, sizeof detail, "%d", r->fan_out);
  check("fan_out", r->fan_out == 64 * 4 * 4 * 32, detail);
  cudaFree(flag);
  cudaFree(r);
  return 0;
}
