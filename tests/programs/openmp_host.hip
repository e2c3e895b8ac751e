// openmp_host: host OpenMP around kernel launches, built with -fopenmp.
// An OpenMP loop with a reduction prepares the input, a kernel squares it,
// another OpenMP reduction sums the squares; a second kernel reports whether
// device code was compiled with OpenMP (it must not be: -fopenmp is the
// host's).  Prints the threads and the sums; exits 0 if they are right.
#include <hip/hip_runtime.h>
#include <omp.h>

#include <cstdio>

#if !defined(_OPENMP) && !defined(__HIP_DEVICE_COMPILE__)
#error "the host side must be compiled with -fopenmp"
#endif

constexpr int N = 1 << 12;

__global__ void square(const int* in, long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<long long>(in[i]) * in[i];
}

__global__ void device_openmp(int* flag) {
#ifdef _OPENMP
  *flag = 1;
#else
  *flag = 0;
#endif
}

static int check(hipError_t status, const char* what) {
  if (status != hipSuccess) fprintf(stderr, "%s: %s\n", what, hipGetErrorString(status));
  return status != hipSuccess;
}

int main() {
  static int input[N];
  static long long output[N];
  long long input_sum = 0;
  int team = 0;
#pragma omp parallel for reduction(+ : input_sum) reduction(max : team)
  for (int i = 0; i < N; i++) {
    input[i] = i % 101;
    input_sum += input[i];
    team = omp_get_num_threads();
  }

  int* device_input;
  long long* device_output;
  int* flag;
  int errors = 0;
  errors += check(hipMalloc(&device_input, sizeof input), "hipMalloc");
  errors += check(hipMalloc(&device_output, sizeof output), "hipMalloc");
  errors += check(hipMalloc(&flag, sizeof *flag), "hipMalloc");
  if (errors) return 1;
  errors += check(hipMemcpy(device_input, input, sizeof input, hipMemcpyHostToDevice), "hipMemcpy");
  square<<<(N + 255) / 256, 256>>>(device_input, device_output, N);
  device_openmp<<<1, 1>>>(flag);
  errors += check(hipGetLastError(), "launch");
  errors += check(hipMemcpy(output, device_output, sizeof output, hipMemcpyDeviceToHost), "hipMemcpy");
  int device_flag = -1;
  errors += check(hipMemcpy(&device_flag, flag, sizeof device_flag, hipMemcpyDeviceToHost), "hipMemcpy");

  long long square_sum = 0;
#pragma omp parallel for reduction(+ : square_sum)
  for (int i = 0; i < N; i++) square_sum += output[i];

  long long expected_input = 0, expected_squares = 0;
  for (int i = 0; i < N; i++) {
    expected_input += i % 101;
    expected_squares += static_cast<long long>(i % 101) * (i % 101);
  }
  int max_threads = omp_get_max_threads();
  printf("max threads %d\n", max_threads);
  printf("team %d\n", team);
  printf("input sum %lld\n", input_sum);
  printf("square sum %lld\n", square_sum);
  printf("device _OPENMP %s\n", device_flag == 0 ? "no" : device_flag == 1 ? "yes" : "?");
  bool right = max_threads >= 1 && team >= 1 && input_sum == expected_input && square_sum == expected_squares &&
               device_flag == 0;
  hipFree(device_input);
  hipFree(device_output);
  hipFree(flag);
  return errors == 0 && right ? 0 : 1;
}
