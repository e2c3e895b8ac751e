// libcu++ and cooperative groups' asynchronous copies on the simulated
// device: cuda::barrier (arrive and wait across a block, a completion
// function, arrive_and_drop), cuda::memcpy_async with a barrier and with
// pipelines (a thread's own; a block's, unified and partitioned into
// producers and consumers), cooperative_groups::memcpy_async and wait,
// tiles wider than a warp, cuda::atomic and cuda::std in device code: one
// line per check, "NAME: ok" or "NAME: FAIL".  Each wait is checked by
// reading what another thread, later in the block, wrote before it.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/bit>
#include <cuda/std/chrono>
#include <cuda/std/climits>
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/span>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <complex>
#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kBlock = 128, kPhases = 4;

struct CountPhases {
  int *count;
  __device__ void operator()() noexcept { ++*count; }
};

// Each phase every thread writes its slot, arrives, waits, and reads a
// slot of another warp's thread written in that phase.
__global__ void barrier_phases(int *good, int *phases) {
  __shared__ int slots[kBlock];
  __shared__ cuda::barrier<cuda::thread_scope_block, CountPhases> bar;
  int rank = threadIdx.x, other = (rank + 37) % kBlock, ok = 1;
  if (rank == 0) init(&bar, blockDim.x, CountPhases{phases + blockIdx.x});
  __syncthreads();
  for (int phase = 0; phase < kPhases; phase++) {
    slots[rank] = phase * 1000 + rank;
    auto token = bar.arrive();
    bar.wait(cuda::std::move(token));
    ok &= slots[other] == phase * 1000 + other;
    bar.arrive_and_wait();  // every read done before the next phase writes
  }
  good[blockIdx.x * kBlock + rank] = ok;
}

// Half the block drops out of the barrier; the other half goes on alone.
__global__ void barrier_drop(int *good) {
  __shared__ int slots[kBlock / 2];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  int rank = threadIdx.x, other = (rank + 17) % (kBlock / 2), ok = 1;
  if (rank == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (rank >= kBlock / 2) {
    bar.arrive_and_drop();
    good[rank] = 1;
    return;
  }
  for (int phase = 0; phase < kPhases; phase++) {
    slots[rank] = phase * 100 + rank;
    bar.arrive_and_wait();
    ok &= slots[other] == phase * 100 + other;
    bar.arrive_and_wait();
  }
  good[rank] = ok;
}

// cuda::memcpy_async to a barrier, each thread's own and the block's.
__global__ void barrier_copies(const float4 *in, float4 *out) {
  __shared__ float4 own[64], whole[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  int rank = threadIdx.x;
  const float4 *mine = in + blockIdx.x * 64;
  if (rank == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&own[rank], &mine[rank], sizeof(float4), bar);
  cuda::memcpy_async(block, whole, mine, cuda::aligned_size_t<16>(sizeof whole), bar);
  bar.arrive_and_wait();
  float4 a = own[63 - rank], b = whole[(rank + 1) % 64];
  out[blockIdx.x * 64 + rank] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

constexpr int kStages = 3, kTiles = 8, kWidth = 64;

// A thread's own pipeline, kStages tiles ahead, as NVIDIA's samples use it.
__global__ void thread_pipeline(const int *in, int *out) {
  __shared__ int stages[kStages][kWidth];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const auto shape = cuda::aligned_size_t<alignof(int)>(sizeof(int));
  int rank = threadIdx.x, fetched = 0;
  for (int tile = 0; tile < kTiles; tile++) {
    for (; fetched < kTiles && fetched < tile + kStages; fetched++) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stages[fetched % kStages][rank], &in[fetched * kWidth + rank], shape, pipe);
      pipe.producer_commit();
    }
    if (tile % 2)
      pipe.consumer_wait();
    else
      cuda::pipeline_consumer_wait_prior<0>(pipe);
    __syncthreads();
    int sum = 0;
    for (int i = 0; i < kWidth; i++) sum += stages[tile % kStages][i];
    out[tile * kWidth + rank] = sum;
    __syncthreads();
    pipe.consumer_release();
  }
}

constexpr int kRing = 4, kRounds = 10, kRow = 96;

// One warp produces rows into a ring of kRing stages, three consume them:
// the consumers come first in the block, and the producers fill every
// stage before the consumers have read the first.
__global__ void partitioned_pipeline(const int *in, int *out) {
  __shared__ int ring[kRing][kRow];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kRing> state;
  auto block = cg::this_thread_block();
  bool producer = threadIdx.x >= kRow;
  auto role = producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  if (producer) {
    for (int round = 0; round < kRounds; round++) {
      pipe.producer_acquire();
      for (int i = threadIdx.x - kRow; i < kRow; i += 32)
        cuda::memcpy_async(&ring[round % kRing][i], &in[round * kRow + i], sizeof(int), pipe);
      pipe.producer_commit();
    }
    return;
  }
  for (int round = 0; round < kRounds; round++) {
    pipe.consumer_wait();
    int sum = 0;
    for (int i = 0; i < kRow; i++) sum += ring[round % kRing][i];
    out[round * kRow + threadIdx.x] = sum * 1000 + ring[round % kRing][(threadIdx.x + 50) % kRow];
    pipe.consumer_release();
  }
}

// A block's unified pipeline (producers = 0: every thread copies and
// reads), or the first `producers` threads copying for the others.
__global__ void block_pipeline(const int *in, int *out, int producers) {
  __shared__ int ring[2][64];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  int rank = threadIdx.x;
  auto pipe = producers ? cuda::make_pipeline(block, &state, static_cast<cuda::std::size_t>(producers))
                        : cuda::make_pipeline(block, &state);
  bool producing = !producers || rank < producers, consuming = !producers || rank >= producers;
  for (int round = 0; round < 5; round++) {
    if (producing) {
      pipe.producer_acquire();
      for (int i = rank; i < 64; i += producers ? producers : 64)
        cuda::memcpy_async(&ring[round % 2][i], &in[round * 64 + i], sizeof(int), pipe);
      pipe.producer_commit();
    }
    if (consuming) {
      pipe.consumer_wait();
      out[round * 64 + rank] = ring[round % 2][(rank + 5) % 64];
      pipe.consumer_release();
    }
  }
}

// cooperative_groups::memcpy_async by a block, by warps (aligned) and in
// its layout form, then cg::wait.
__global__ void group_copies(const int *in, int *out) {
  __shared__ alignas(16) int whole[256], warps[256], counted[256];  // nvcc's order, which clang-19 rejects
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  int rank = block.thread_rank(), first = warp.meta_group_rank() * 32;
  cg::memcpy_async(block, whole, in, sizeof whole);
  cg::memcpy_async(warp, warps + first, in + 256 + first, cuda::aligned_size_t<16>(32 * sizeof(int)));
  cg::memcpy_async(block, counted, static_cast<cuda::std::size_t>(200), in + 512, static_cast<cuda::std::size_t>(256));
  cg::wait(block);
  out[rank] = whole[255 - rank];
  out[256 + rank] = warps[(rank + 32) % 256];
  out[512 + rank] = rank < 200 ? counted[199 - rank] : -1;
  cg::wait_prior<1>(block);
}

enum WideSlot { kSum64, kMax128, kScan64, kDown128, kXor64, kFrom64, kMeta, kSub32, kWideSlots };

// Tiles of 64 and 128 threads in a block of 256 (block_tile_memory).
__global__ void wide_tiles(int *out) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto t64 = cg::tiled_partition<64>(block);
  auto t128 = cg::tiled_partition<128>(block);
  int rank = block.thread_rank(), *mine = out + rank * kWideSlots;
  mine[kSum64] = cg::reduce(t64, rank, cg::plus<int>());
  mine[kMax128] = cg::reduce(t128, rank % 100, cg::greater<int>());
  mine[kScan64] = cg::inclusive_scan(t64, 1) * 1000 + cg::exclusive_scan(t64, rank);
  mine[kDown128] = t128.shfl_down(rank, 3);
  mine[kXor64] = t64.shfl_xor(rank, 33);
  mine[kFrom64] = t64.shfl(rank, 7);
  t64.sync();
  mine[kMeta] = t64.meta_group_rank() == static_cast<unsigned int>(rank / 64) && t64.meta_group_size() == 4 &&
                t64.thread_rank() == static_cast<unsigned int>(rank % 64) && t64.size() == 64 &&
                t128.num_threads() == 128 && t128.meta_group_rank() == static_cast<unsigned int>(rank / 128);
  auto sub = cg::tiled_partition<32>(t128);
  mine[kSub32] = cg::reduce(sub, 1, cg::plus<int>()) * 100 + sub.meta_group_rank();
}

// cuda::atomic and atomic_ref of each scope, from every thread of a grid.
__global__ void atomics(int *counter, unsigned int *maximum, float *total, int *per_block, int *claim) {
  __shared__ cuda::atomic<int, cuda::thread_scope_block> in_block;
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) in_block.store(0, cuda::std::memory_order_relaxed);
  __syncthreads();
  in_block.fetch_add(1, cuda::std::memory_order_relaxed);
  ++in_block;
  cuda::atomic_ref<int, cuda::thread_scope_device>(*counter).fetch_add(1);
  cuda::std::atomic_ref<unsigned int>(*maximum).fetch_max(static_cast<unsigned int>(id * 7 % 1000));
  cuda::atomic_ref<float, cuda::thread_scope_device>(*total) += 0.5f;
  int expected = -1;
  if (cuda::atomic_ref<int>(claim[0]).compare_exchange_strong(expected, id)) atomicAdd(&claim[1], 1);
  __syncthreads();
  if (threadIdx.x == 0) per_block[blockIdx.x] = in_block.load();
}

// atomic wait: thread 0 waits for the block's last thread to store.
__global__ void atomic_wait(int *out) {
  __shared__ cuda::std::atomic<int> flag;
  if (threadIdx.x == 0) flag.store(0);
  __syncthreads();
  if (threadIdx.x == 0) {
    flag.wait(0);
    out[0] = flag.load() + 10;
  } else if (threadIdx.x == blockDim.x - 1) {
    flag.store(7);
    flag.notify_all();
  }
}

struct Point {
  int x;
  __host__ __device__ int twice() const { return 2 * x; }
};

enum StdSlot { kFunctional, kTraits, kLimits, kUtility, kTuple, kArray, kBit, kSpan, kChrono, kCmath, kStdSlots };

// cuda::std's names in device code, each family's results checked here.
__global__ void std_in_device(int *ok, cuda::std::complex<double> *z, cuda::std::complex<float> *f) {
  namespace std_ = cuda::std;
  Point p{21};
  ok[kFunctional] = std_::identity()(42) == 42 && std_::plus<int>()(40, 2) == 42 && std_::minus<int>()(50, 8) == 42 &&
                    std_::multiplies<int>()(6, 7) == 42 && std_::modulus<int>()(142, 100) == 42 &&
                    std_::less<int>()(1, 2) && !std_::greater_equal<int>()(1, 2) && std_::bit_xor<int>()(40, 2) == 42 &&
                    std_::logical_and<bool>()(true, true) && std_::negate<int>()(-42) == 42 &&
                    std_::invoke(&Point::twice, p) == 42 && std_::invoke(&Point::x, &p) == 21 &&
                    std_::invoke([](int a, int b) { return a * b; }, 6, 7) == 42;
  ok[kTraits] = std_::is_same<std_::remove_cvref_t<const int &>, int>::value && std_::is_integral<long>::value &&
                !std_::is_floating_point<int>::value && std_::is_trivially_copyable<Point>::value &&
                std_::is_same<std_::conditional_t<true, int, float>, int>::value &&
                std_::is_same<std_::make_unsigned_t<int>, unsigned int>::value;
  ok[kLimits] = std_::numeric_limits<int>::max() == INT_MAX && std_::numeric_limits<std_::int8_t>::min() == -128 &&
                std_::numeric_limits<float>::epsilon() == 1.1920929e-7f &&
                std_::numeric_limits<double>::infinity() > std_::numeric_limits<double>::max() &&
                std_::numeric_limits<std_::uint16_t>::digits == 16 && CHAR_BIT == 8;
  int a = 1, b = 2;
  std_::swap(a, b);
  int old = std_::exchange(a, 5);
  std_::pair<int, double> pair = std_::make_pair(3, 0.5);
  pair = std_::make_pair(4, 1.5);
  auto [first, second] = pair;
  ok[kUtility] = a == 5 && b == 1 && old == 2 && first == 4 && second == 1.5 && std_::get<1>(pair) == 1.5 &&
                 (std_::make_pair(1, 2) < std_::make_pair(1, 3));
  int x = 0, y = 0;
  std_::tie(x, std_::ignore, y) = std_::make_tuple(7, 8, 9);
  std_::tuple<int, double> t;
  t = std_::make_tuple(2, 2.5);
  auto joined = std_::tuple_cat(t, std_::make_tuple(3), pair);
  auto add = [](int i, double d, int j, int k, double e) { return i + j + k + static_cast<int>((d + e) * 2); };
  int applied = std_::apply(add, joined);
  ok[kTuple] = x == 7 && y == 9 && std_::get<double>(t) == 2.5 && std_::tuple_size<decltype(joined)>::value == 5 &&
               applied == 2 + 5 + 3 + 4 + 3 && std_::make_tuple(1, 2) < std_::make_tuple(1, 3) &&
               std_::make_tuple(1, 2.0) == std_::make_tuple(1, 2.0);
  std_::array<int, 4> array = {1, 2, 3, 4};
  int sum = 0;
  for (int v : array) sum += v;
  array.fill(6);
  ok[kArray] = sum == 10 && array[3] == 6 && array.size() == 4 && std_::get<2>(array) == 6 && array.back() == 6;
  ok[kBit] = std_::popcount(0xf0f0u) == 8 && std_::countl_zero(1u) == 31 && std_::countr_zero(8u) == 3 &&
             std_::countl_one(static_cast<std_::uint8_t>(0xe0)) == 3 && std_::bit_ceil(17u) == 32 &&
             std_::bit_floor(17u) == 16 && std_::bit_width(255u) == 8 && std_::rotl(0x80000001u, 1) == 3u &&
             std_::rotr(3u, 1) == 0x80000001u && std_::has_single_bit(64u) && !std_::has_single_bit(65u) &&
             std_::bit_cast<std_::uint32_t>(1.0f) == 0x3f800000u && std_::popcount(~0ull) == 64;
  int values[6] = {1, 2, 3, 4, 5, 6};
  std_::span<int> whole(values);
  int span_sum = 0;
  for (int v : whole.subspan(2, 3)) span_sum += v;
  ok[kSpan] = whole.size() == 6 && span_sum == 12 && whole.first<2>()[1] == 2 && whole.last(1)[0] == 6 &&
              std_::span<const int>(values, 4).back() == 4;
  ok[kChrono] = std_::chrono::duration_cast<std_::chrono::milliseconds>(std_::chrono::seconds(2)).count() == 2000 &&
                (std_::chrono::microseconds(1500) + std_::chrono::milliseconds(1)).count() == 2500;
  ok[kCmath] = std_::sqrt(16.0) == 4.0 && std_::fma(2.0f, 3.0f, 1.0f) == 7.0f &&
               std_::isnan(std_::numeric_limits<double>::quiet_NaN()) && std_::abs(-3) == 3 && std_::abs(-2.5) == 2.5;
  using C = std_::complex<double>;
  C u(1, 2), v(3, -1);
  z[0] = u * v;
  z[1] = u / v;
  z[2] = std_::sqrt(C(-4, 0));
  z[3] = std_::exp(u);
  z[4] = std_::log(u);
  z[5] = std_::pow(u, 2.0);
  z[6] = std_::sin(u);
  z[7] = std_::atan(u);
  z[8] = C(std_::abs(u), std_::arg(u));
  z[9] = std_::conj(u) - 1.0;
  std_::complex<float> w(1.0f, 1.0f);
  w *= std_::complex<float>(2.0f, 0.0f);
  f[0] = w;
  f[1] = std_::sqrt(std_::complex<float>(0.0f, 2.0f));
}

static int failures = 0;

static void check(const char *name, bool good) {
  printf("%s: %s\n", name, good ? "ok" : "FAIL");
  failures += !good;
}

template <typename T>
static T *managed(size_t count) {
  T *memory = nullptr;
  cudaMallocManaged(&memory, count * sizeof(T));
  cudaMemset(memory, 0, count * sizeof(T));
  return memory;
}

static bool all_ones(const int *flags, int count) {
  for (int i = 0; i < count; i++)
    if (flags[i] != 1) return false;
  return true;
}

int main() {
  int *good = managed<int>(2 * kBlock), *phases = managed<int>(2);
  barrier_phases<<<2, kBlock>>>(good, phases);
  cudaDeviceSynchronize();
  check("barrier arrive and wait across a block", all_ones(good, 2 * kBlock));
  check("barrier completion function once a phase", phases[0] == 2 * kPhases && phases[1] == 2 * kPhases);

  cudaMemset(good, 0, 2 * kBlock * sizeof(int));
  barrier_drop<<<1, kBlock>>>(good);
  cudaDeviceSynchronize();
  check("barrier arrive_and_drop", all_ones(good, kBlock));

  float4 *in4 = managed<float4>(128), *out4 = managed<float4>(128);
  for (int i = 0; i < 128; i++) in4[i] = make_float4(i, 2 * i, -i, 0.5f * i);
  barrier_copies<<<2, 64>>>(in4, out4);
  cudaDeviceSynchronize();
  bool copies = true;
  for (int block = 0; block < 2; block++)
    for (int rank = 0; rank < 64; rank++) {
      float a = block * 64 + 63 - rank, b = block * 64 + (rank + 1) % 64;
      float4 got = out4[block * 64 + rank];
      copies &= got.x == a + b && got.y == 2 * (a + b) && got.z == -(a + b) && got.w == 0.5f * (a + b);
    }
  check("cuda::memcpy_async with a barrier, a thread's and the block's", copies);

  int *in = managed<int>(1024), *out = managed<int>(1024);
  for (int i = 0; i < 1024; i++) in[i] = i * 3 + 1;
  thread_pipeline<<<1, kWidth>>>(in, out);
  cudaDeviceSynchronize();
  bool staged = true;
  for (int tile = 0; tile < kTiles; tile++) {
    int sum = 0;
    for (int i = 0; i < kWidth; i++) sum += in[tile * kWidth + i];
    for (int rank = 0; rank < kWidth; rank++) staged &= out[tile * kWidth + rank] == sum;
  }
  check("pipeline of a thread, stages ahead", staged);

  cudaMemset(out, 0, 1024 * sizeof(int));
  partitioned_pipeline<<<1, kRow + 32>>>(in, out);
  cudaDeviceSynchronize();
  bool partitioned = true;
  for (int round = 0; round < kRounds; round++) {
    int sum = 0;
    for (int i = 0; i < kRow; i++) sum += in[round * kRow + i];
    for (int rank = 0; rank < kRow; rank++)
      partitioned &= out[round * kRow + rank] == sum * 1000 + in[round * kRow + (rank + 50) % kRow];
  }
  check("pipeline of a block, producers and consumers", partitioned);

  for (int producers : {0, 16}) {
    cudaMemset(out, 0, 1024 * sizeof(int));
    block_pipeline<<<1, 64>>>(in, out, producers);
    cudaDeviceSynchronize();
    bool unified = true;
    for (int round = 0; round < 5; round++)
      for (int rank = producers; rank < 64; rank++)
        unified &= out[round * 64 + rank] == in[round * 64 + (rank + 5) % 64];
    check(producers ? "pipeline of a block, first threads producing" : "pipeline of a block, unified", unified);
  }

  group_copies<<<1, 256>>>(in, out);
  cudaDeviceSynchronize();
  bool grouped = true;
  for (int rank = 0; rank < 256; rank++) {
    grouped &= out[rank] == in[255 - rank] && out[256 + rank] == in[256 + (rank + 32) % 256];
    grouped &= out[512 + rank] == (rank < 200 ? in[512 + 199 - rank] : -1);
  }
  check("cooperative_groups::memcpy_async and wait", grouped);

  int *wide = managed<int>(256 * kWideSlots);
  wide_tiles<<<1, 256>>>(wide);
  cudaDeviceSynchronize();
  bool tiles = true;
  for (int rank = 0; rank < 256; rank++) {
    const int *r = wide + rank * kWideSlots;
    int base64 = rank / 64 * 64, base128 = rank / 128 * 128, sum = 0, most = 0;
    for (int other = base64; other < base64 + 64; other++) sum += other;
    for (int other = base128; other < base128 + 128; other++) most = other % 100 > most ? other % 100 : most;
    int down = rank % 128 + 3 < 128 ? rank + 3 : rank;
    int flipped = (rank % 64 ^ 33) < 64 ? base64 + (rank % 64 ^ 33) : rank;
    int before = (base64 + rank - 1) * (rank - base64) / 2;  // the ranks of the tile before this one
    tiles &= r[kSum64] == sum && r[kMax128] == most && r[kScan64] == (rank % 64 + 1) * 1000 + before;
    tiles &= r[kDown128] == down && r[kXor64] == flipped && r[kFrom64] == base64 + 7 && r[kMeta] == 1;
    tiles &= r[kSub32] == 32 * 100 + rank % 128 / 32;
  }
  check("tiles of 64 and 128 threads: reduce, scans, shuffles", tiles);

  int *counter = managed<int>(1), *per_block = managed<int>(4), *claim = managed<int>(2);
  unsigned int *maximum = managed<unsigned int>(1);
  float *total = managed<float>(1);
  claim[0] = -1;
  atomics<<<4, 96>>>(counter, maximum, total, per_block, claim);
  cudaDeviceSynchronize();
  unsigned int most = 0;
  for (int id = 0; id < 4 * 96; id++) most = id * 7 % 1000 > most ? id * 7 % 1000 : most;
  check("cuda::atomic and atomic_ref of each scope",
        *counter == 4 * 96 && *maximum == most && *total == 0.5f * 4 * 96 && per_block[0] == 2 * 96 &&
            per_block[3] == 2 * 96 && claim[1] == 1 && claim[0] >= 0 && claim[0] < 4 * 96);

  atomic_wait<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  check("atomic wait for a later thread's store", out[0] == 17);

  int *flags = managed<int>(kStdSlots);
  auto *z = managed<cuda::std::complex<double>>(10);
  auto *f = managed<cuda::std::complex<float>>(2);
  std_in_device<<<1, 1>>>(flags, z, f);
  cudaDeviceSynchronize();
  const char *families[kStdSlots] = {"functional", "type_traits", "limits", "utility", "tuple",
                                     "array",      "bit",         "span",   "chrono",  "cmath"};
  for (int slot = 0; slot < kStdSlots; slot++) {
    char name[64];
    snprintf(name, sizeof name, "cuda::std %s in device code", families[slot]);
    check(name, flags[slot] == 1);
  }
  using S = std::complex<double>;
  S u(1, 2), v(3, -1);
  S want[10] = {u * v, u / v, std::sqrt(S(-4, 0)), std::exp(u), std::log(u), std::pow(u, 2.0), std::sin(u),
                std::atan(u), S(std::abs(u), std::arg(u)), std::conj(u) - 1.0};
  bool complex_ok = std::abs(std::complex<float>(f[0]) - std::complex<float>(2, 2)) < 1e-6f &&
                    std::abs(std::complex<float>(f[1]) - std::complex<float>(1, 1)) < 1e-6f;
  for (int i = 0; i < 10; i++) complex_ok &= std::abs(S(z[i]) - want[i]) < 1e-12 * (1 + std::abs(want[i]));
  check("cuda::std complex in device code", complex_ok);
  return failures != 0 || cudaGetLastError() != cudaSuccess;
}
