// CUDA's cooperative groups on 32-lane warps: blocks, tiles (a whole warp
// and smaller, static and dynamic), coalesced groups, cg::reduce with each
// operation, the scans, and grid.sync() under a cooperative launch: one
// line per check, "NAME: ok" or "NAME: FAIL".
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 96;
enum Slot { kBlock, kTile32, kTile8, kOps, kShuffles, kScan, kDynamic, kCoalesced, kSlots };

__global__ void groups(int *out) {
  cg::thread_block block = cg::this_thread_block();
  int rank = static_cast<int>(block.thread_rank());
  int *mine = out + rank * kSlots;
  mine[kBlock] = block.size() == kThreads && cg::group_size(block) == kThreads && cg::thread_rank(block) == rank &&
                 block.thread_index().x == threadIdx.x && block.group_dim().x == kThreads;
  block.sync();

  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int value = rank;
  if (rank % 3 == 0) value += 1000;  // divergent work before the tile's reduction
  mine[kTile32] = cg::reduce(warp, value, cg::plus<int>());

  auto tile8 = cg::tiled_partition<8>(warp);
  mine[kTile8] = cg::reduce(tile8, rank, cg::greater<int>()) * 1000 + cg::reduce(tile8, rank, cg::less<int>());
  unsigned int bits = 1u << (rank % 8);
  mine[kOps] = cg::reduce(tile8, bits, cg::bit_or<unsigned int>()) == 0xffu &&
               cg::reduce(tile8, bits, cg::bit_and<unsigned int>()) == 0u &&
               cg::reduce(tile8, bits | 0x100u, cg::bit_xor<unsigned int>()) == 0xffu &&
               cg::reduce(tile8, 0.5f, cg::plus<float>()) == 4.0f &&
               cg::reduce(warp, static_cast<double>(rank % 32), [](double a, double b) { return a + b; }) == 496.0 &&
               tile8.meta_group_rank() == static_cast<unsigned int>(rank % 32 / 8) && tile8.meta_group_size() == 4 &&
               tile8.thread_rank() == rank % 8;  // a tile of the warp: its rank among the warp's 4 tiles
  mine[kShuffles] = warp.shfl(rank, 5) == rank / 32 * 32 + 5 && warp.shfl_down(rank, 1) == (rank % 32 == 31 ? rank : rank + 1) &&
                    warp.shfl_xor(rank, 1) == (rank ^ 1) && warp.any(rank % 32 == 9) && warp.all(rank >= 0) &&
                    static_cast<unsigned int>(warp.ballot(rank % 2)) == 0xaaaaaaaau;
  mine[kScan] = cg::inclusive_scan(warp, 1) * 100 + cg::exclusive_scan(tile8, 1);

  cg::thread_group tile4 = cg::tiled_partition(block, 4);
  mine[kDynamic] = tile4.size() == 4 && tile4.thread_rank() == static_cast<unsigned int>(rank % 4);
  tile4.sync();
}

// A coalesced group of a branch's lanes: its size, ranks and reduction.
__global__ void coalesced(int *out) {
  int rank = static_cast<int>(threadIdx.x);
  if (rank % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[rank] = cg::reduce(active, rank, cg::plus<int>()) * 10000 + active.size() * 100 + active.thread_rank();
  }
}

// Shuffles of values wider than 8 bytes: a struct through a tile's
// shfl_down, a double2 through shfl_xor.
struct Wide {
  double position;
  int id;
  float extra[3];
};

__global__ void wide_shuffles(Wide *structs, double2 *pairs) {
  unsigned int rank = threadIdx.x;
  Wide mine{rank + 0.5, static_cast<int>(rank), {1.0f * rank, 2.0f, -1.0f * rank}};
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  structs[rank] = tile.shfl_down(mine, 2);
  pairs[rank] = tile.shfl_xor(make_double2(rank, -2.0 * rank), 1);
}

// Partitions by label and by predicate: each lane's group size, rank and
// the sum of its group's ranks in the tile.
__global__ void partitions(int *out) {
  int rank = static_cast<int>(threadIdx.x);
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  cg::coalesced_group by_label = cg::labeled_partition(tile, rank % 3);
  cg::coalesced_group by_parity = cg::binary_partition(by_label, rank % 2 == 0);
  out[rank] = cg::reduce(by_label, rank, cg::plus<int>()) * 1000 + by_parity.size() * 10 + by_parity.thread_rank();
}

__global__ void grid_sync(int *cells, int *out) {
  cg::grid_group grid = cg::this_grid();
  unsigned int id = grid.thread_rank();
  cells[id] = static_cast<int>(id);
  grid.sync();
  out[id] = cells[(id + 1) % grid.size()] + grid.is_valid() * 1000000;
}

static int failures = 0;

static void check(const char *name, bool good) {
  printf("%s: %s\n", name, good ? "ok" : "FAIL");
  failures += !good;
}

int main() {
  int *device = nullptr, host[kThreads * kSlots] = {};
  cudaMalloc(&device, sizeof host);
  groups<<<1, kThreads>>>(device);
  cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  bool block = true, tile32 = true, tile8 = true, ops = true, shuffles = true, scan = true, dynamic = true;
  for (int rank = 0; rank < kThreads; rank++) {
    const int *r = host + rank * kSlots;
    int sum = 0;
    for (int other = rank / 32 * 32; other < rank / 32 * 32 + 32; other++) sum += other + (other % 3 == 0) * 1000;
    block &= r[kBlock] == 1;
    tile32 &= r[kTile32] == sum;
    tile8 &= r[kTile8] == (rank / 8 * 8 + 7) * 1000 + rank / 8 * 8;
    ops &= r[kOps] == 1;
    shuffles &= r[kShuffles] == 1;
    scan &= r[kScan] == (rank % 32 + 1) * 100 + rank % 8;
    dynamic &= r[kDynamic] == 1;
  }
  check("this_thread_block", block);
  check("reduce plus on thread_block_tile<32> after divergent code", tile32);
  check("reduce greater and less on tiled_partition<8> of a tile", tile8);
  check("reduce bit_and, bit_or, bit_xor, float, lambda; meta_group_rank", ops);
  check("tile shfl, shfl_down, shfl_xor, any, all, ballot", shuffles);
  check("inclusive_scan and exclusive_scan", scan);
  check("tiled_partition(group, 4)", dynamic);

  cudaMemset(device, 0, sizeof host);
  coalesced<<<1, 64>>>(device);
  cudaMemcpy(host, device, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  bool coalesced_ok = true;
  for (int rank = 0; rank < 64; rank += 3) {
    int base = rank / 32 * 32, sum = 0, size = 0, position = 0;
    for (int other = base; other < base + 32; other++) {
      if (other % 3) continue;
      sum += other;
      position += other < rank;
      size++;
    }
    coalesced_ok &= host[rank] == sum * 10000 + size * 100 + position;
  }
  check("coalesced_threads and reduce on it", coalesced_ok);

  Wide *structs = nullptr;
  double2 *pairs = nullptr;
  cudaMallocManaged(&structs, 64 * sizeof(Wide));
  cudaMallocManaged(&pairs, 64 * sizeof(double2));
  wide_shuffles<<<1, 64>>>(structs, pairs);
  cudaDeviceSynchronize();
  bool wide = true;
  for (int rank = 0; rank < 64; rank++) {
    int from = rank % 16 + 2 < 16 ? rank + 2 : rank, partner = rank ^ 1;
    wide &= structs[rank].id == from && structs[rank].position == from + 0.5 && structs[rank].extra[2] == -from;
    wide &= pairs[rank].x == partner && pairs[rank].y == -2.0 * partner;
  }
  check("tile shuffles of a struct and a double2", wide);

  partitions<<<1, 64>>>(device);
  cudaMemcpy(host, device, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  bool partitioned = true;
  for (int rank = 0; rank < 64; rank++) {
    int sum = 0, size = 0, position = 0;
    for (int other = rank / 16 * 16; other < rank / 16 * 16 + 16; other++) {
      if (other % 3 != rank % 3) continue;
      sum += other;
      if (other % 2 != rank % 2) continue;
      size++;
      position += other < rank;
    }
    partitioned &= host[rank] == sum * 1000 + size * 10 + position;
  }
  check("labeled_partition of a tile, binary_partition of that", partitioned);

  constexpr int kGridBlocks = 2, kGridThreads = 64, kCells = kGridBlocks * kGridThreads;
  int *cells = nullptr, *results = nullptr, grid_host[kCells];
  cudaMalloc(&cells, sizeof grid_host);
  cudaMalloc(&results, sizeof grid_host);
  void *arguments[] = {&cells, &results};
  cudaError_t launched = cudaLaunchCooperativeKernel(grid_sync, dim3(kGridBlocks), dim3(kGridThreads), arguments, 0, 0);
  cudaMemcpy(grid_host, results, sizeof grid_host, cudaMemcpyDeviceToHost);
  bool grid = launched == cudaSuccess;
  for (int id = 0; id < kCells; id++) grid &= grid_host[id] == (id + 1) % kCells + 1000000;
  check("grid.sync under cudaLaunchCooperativeKernel", grid);
  return failures != 0 || cudaGetLastError() != cudaSuccess;
}
