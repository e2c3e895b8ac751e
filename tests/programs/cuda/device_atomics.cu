// CUDA's atomics of every type and scope, and the memory intrinsics: one
// line per check, "NAME: ok" or "NAME: FAIL".  The program defines the
// overloads CUDA has not, as CUDA programs do: atomicMax on a double,
// atomicMin and atomicSub on a float.
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

constexpr int kBlocks = 4, kThreads = 64, kLanes = kBlocks * kThreads;

struct Totals {
  int add_int, sub_int, max_int, min_int, exch_int, cas_int, and_int, or_int, xor_int;
  unsigned int add_block, add_system, inc, dec;
  unsigned long long add_ull, cas_ull;
  float add_float;
  double add_double;
  unsigned short cas_short;
  __half add_half;
  __nv_bfloat16 add_bf16;
  float2 add_float2;
  float4 add_float4;
  double max_double;
  float min_float, sub_float;
  unsigned int source[kLanes];     // what the cache-hinted loads read: never written by the kernel
  unsigned int hinted[4][kLanes];  // what the four cache-hinted stores wrote
};

__device__ double atomicMax(double *address, double value) {
  auto *word = reinterpret_cast<unsigned long long *>(address);
  unsigned long long old = *word;
  while (value > __longlong_as_double(old)) {
    unsigned long long seen = atomicCAS(word, old, __double_as_longlong(value));
    if (seen == old) break;
    old = seen;
  }
  return __longlong_as_double(old);
}

__device__ float atomicMin(float *address, float value) {  // for values >= 0, whose bits order as ints do
  return __int_as_float(atomicMin(reinterpret_cast<int *>(address), __float_as_int(value)));
}

__device__ float atomicSub(float *address, float value) { return atomicAdd(address, -value); }

__global__ void atomics(Totals *t) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&t->add_int, id);
  atomicSub(&t->sub_int, 2);
  atomicMax(&t->max_int, id * 3);
  atomicMin(&t->min_int, -id);
  atomicExch(&t->exch_int, 7);
  int old = t->cas_int;  // each lane adds 1 through compare-and-swap
  while (true) {
    int seen = atomicCAS(&t->cas_int, old, old + 1);
    if (seen == old) break;
    old = seen;
  }
  atomicAnd(&t->and_int, ~(1 << (id % 31)));
  atomicOr(&t->or_int, 1 << (id % 31));
  atomicXor(&t->xor_int, 1 << (id % 8));
  atomicAdd_block(&t->add_block, 1u);
  atomicAdd_system(&t->add_system, 2u);
  atomicInc(&t->inc, 99u);
  atomicDec(&t->dec, 1000u);
  atomicAdd(&t->add_ull, 1ull << 33);
  atomicCAS_system(&t->cas_ull, 0ull, 5ull);
  atomicAdd(&t->add_float, 0.5f);
  atomicAdd(&t->add_double, 0.25);
  if (id == 3) atomicCAS(&t->cas_short, static_cast<unsigned short>(11), static_cast<unsigned short>(12));
  atomicAdd(&t->add_half, __float2half(1.0f));
  atomicAdd(&t->add_bf16, __float2bfloat16(1.0f));
  atomicAdd(&t->add_float2, make_float2(1.0f, 2.0f));
  atomicAdd_block(&t->add_float4, make_float4(1.0f, 2.0f, 3.0f, 4.0f));
  atomicMax(&t->max_double, id * 1.5);
  atomicMin(&t->min_float, id + 2.0f);
  atomicSub(&t->sub_float, 1.0f);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  // Loads through the read-only and streaming paths see no write of the same
  // kernel on a GPU, so they read memory the kernel never writes.
  const unsigned int *source = &t->source[id];
  unsigned int loaded = __ldg(source) + __ldca(source) + __ldcg(source) + __ldcs(source) + __ldlu(source) + __ldcv(source);
  __stcg(&t->hinted[0][id], loaded);
  __stcs(&t->hinted[1][id], loaded + 1);
  __stwt(&t->hinted[2][id], loaded + 2);
  __stwb(&t->hinted[3][id], loaded + 3);
}

static int failures = 0;

static void check(const char *name, bool good) {
  printf("%s: %s\n", name, good ? "ok" : "FAIL");
  failures += !good;
}

int main() {
  Totals host = {};
  host.and_int = -1;
  host.dec = 0;
  host.cas_short = 11;
  host.min_float = 1000.0f;
  host.sub_float = 1000.0f;
  for (int i = 0; i < kLanes; i++) host.source[i] = i + 1;
  Totals *device = nullptr;
  cudaMalloc(&device, sizeof host);
  cudaMemcpy(device, &host, sizeof host, cudaMemcpyHostToDevice);
  atomics<<<kBlocks, kThreads>>>(device);
  cudaMemcpy(&host, device, sizeof host, cudaMemcpyDeviceToHost);
  bool hinted = true;
  for (int i = 0; i < kLanes; i++)
    for (int k = 0; k < 4; k++) hinted &= host.hinted[k][i] == 6u * (i + 1) + k;
  check("atomicAdd int", host.add_int == kLanes * (kLanes - 1) / 2);
  check("atomicSub", host.sub_int == -2 * kLanes);
  check("atomicMax and atomicMin", host.max_int == 3 * (kLanes - 1) && host.min_int == -(kLanes - 1));
  check("atomicExch", host.exch_int == 7);
  check("atomicCAS int loop", host.cas_int == kLanes);
  check("atomicAnd, atomicOr, atomicXor", host.and_int == static_cast<int>(0x80000000u) &&
                                              host.or_int == 0x7fffffff && host.xor_int == 0);
  check("atomicAdd_block and atomicAdd_system", host.add_block == kLanes && host.add_system == 2 * kLanes);
  check("atomicInc and atomicDec wrap", host.inc == kLanes % 100 && host.dec == (1001 - kLanes % 1001) % 1001);
  check("atomicAdd unsigned long long, atomicCAS_system", host.add_ull == (1ull << 33) * kLanes && host.cas_ull == 5);
  check("atomicAdd float and double", host.add_float == kLanes * 0.5f && host.add_double == kLanes * 0.25);
  check("atomicCAS unsigned short", host.cas_short == 12);
  check("atomicAdd __half and __nv_bfloat16", __half2float(host.add_half) == kLanes &&
                                                  __bfloat162float(host.add_bf16) == kLanes);
  check("atomicAdd float2 and atomicAdd_block float4",
        host.add_float2.x == kLanes && host.add_float2.y == 2 * kLanes && host.add_float4.x == kLanes &&
            host.add_float4.w == 4 * kLanes);
  check("cache-hinted loads and stores", hinted);
  check("the program's own atomicMax double, atomicMin and atomicSub float",
        host.max_double == (kLanes - 1) * 1.5 && host.min_float == 2.0f && host.sub_float == 1000.0f - kLanes);
  return failures != 0 || cudaGetLastError() != cudaSuccess;
}
