// Cooperative groups, each call's result checked against what the host
// computes: one line per case with its count of wrong lanes.
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kLanes = 128, kCases = 12;
// The most blocks of a cooperative launch the simulated device runs (the
// worker count where that is more).
constexpr int kMostCooperativeBlocks = 128;

__global__ void groups(int* out) {
  cg::thread_block block = cg::this_thread_block();
  int* o = out + (blockIdx.x * kLanes + block.thread_rank()) * kCases;
  o[0] = block.thread_rank() * 1000 + block.size();
  cg::thread_block_tile<16, cg::thread_block> typed = cg::tiled_partition<16>(block);
  cg::thread_block_tile<16> tile = typed;       // the tile with its parent type converts
  int v = static_cast<int>(block.thread_rank()) * 7;
  o[1] = tile.shfl(v, 3);                       // rank 3 of this tile
  o[2] = tile.shfl_down(v, 1);
  o[3] = static_cast<int>(tile.ballot(tile.thread_rank() % 2 == 0));
  o[4] = tile.any(tile.thread_rank() == 15) * 10 + tile.all(tile.thread_rank() < 16);
  o[5] = tile.meta_group_rank() * 100 + tile.meta_group_size();
  __shared__ int shared[kLanes];                // a dynamic tile of 8 sums through shared memory
  cg::thread_group eight = cg::tiled_partition(block, 8);
  shared[block.thread_rank()] = v;
  eight.sync();
  int sum = 0;
  for (int i = 0; i < 8; i++) sum += shared[block.thread_rank() - eight.thread_rank() + i];
  o[6] = sum;
  if (block.thread_rank() % 3 == 0) {           // a coalesced group: every third lane
    cg::coalesced_group third = cg::coalesced_threads();
    o[7] = third.size() * 100 + third.thread_rank();
    o[8] = third.shfl(v, 0);
  }
  o[9] = cg::this_grid().is_valid();
  int all_seven = 0;
  unsigned long long same_rank = tile.match_any(static_cast<int>(tile.thread_rank() % 4));
  tile.match_all(7, all_seven);
  cg::grid_group grid = cg::this_grid();
  o[11] = __popcll(same_rank) * 100 + all_seven * 10 +
          (grid.dim_blocks().x == gridDim.x && grid.block_index().x == blockIdx.x);
  block.sync();
  o[10] = shared[kLanes - 1 - block.thread_rank()];
}

__global__ void grid_exchange(int* values, int* out) {
  cg::grid_group grid = cg::this_grid();
  values[grid.thread_rank()] = static_cast<int>(grid.thread_rank()) * 3;
  grid.sync();                                  // every block's values are written
  unsigned int other = (grid.thread_rank() + kLanes) % grid.size();  // in the next block
  out[grid.thread_rank()] = values[other] + grid.is_valid() * 1000000;
}

int main() {
  int wrong = 0;
  auto report = [&](const char* what, int count) {
    printf("cooperative_groups: %s: %d wrong\n", what, count);
    wrong += count;
  };
  int blocks = 2;
  std::vector<int> got(blocks * kLanes * kCases, -1);
  int* d;
  hipMalloc(&d, got.size() * sizeof(int));
  hipMemset(d, 0xff, got.size() * sizeof(int));
  groups<<<blocks, kLanes>>>(d);
  hipMemcpy(got.data(), d, got.size() * sizeof(int), hipMemcpyDeviceToHost);
  const char* names[] = {"thread_block rank and size", "tile shfl", "tile shfl_down", "tile ballot",
                         "tile any and all", "tile meta group", "dynamic tile sync", "coalesced size and rank",
                         "coalesced shfl", "grid is_valid outside a cooperative launch", "block sync",
                         "tile match_any and match_all, grid dim_blocks and block_index"};
  std::vector<int> wrong_case(kCases, 0);
  for (int b = 0; b < blocks; b++) {
    for (int t = 0; t < kLanes; t++) {
      const int* o = &got[(b * kLanes + t) * kCases];
      int v = t * 7, tile_first = t / 16 * 16, wave_first = t / 64 * 64;
      int want[kCases];
      for (int& w : want) w = -1;
      want[0] = t * 1000 + kLanes;
      want[1] = (tile_first + 3) * 7;
      want[2] = t % 16 == 15 ? v : (t + 1) * 7;
      want[3] = 0x5555;
      want[4] = 11;
      want[5] = t / 16 * 100 + kLanes / 16;
      want[6] = 0;
      for (int i = 0; i < 8; i++) want[6] += (t / 8 * 8 + i) * 7;
      if (t % 3 == 0) {
        int size = 0, rank = 0, first = -1;
        for (int l = wave_first; l < wave_first + 64; l++) {
          if (l % 3) continue;
          if (first < 0) first = l;
          if (l < t) rank++;
          size++;
        }
        want[7] = size * 100 + rank;
        want[8] = first * 7;
      }
      want[9] = 0;
      want[10] = (kLanes - 1 - t) * 7;
      want[11] = 411;
      for (int c = 0; c < kCases; c++) wrong_case[c] += o[c] != want[c];
    }
  }
  for (int c = 0; c < kCases; c++) report(names[c], wrong_case[c]);

  int attribute = 0, workers = 0, per_worker = 0;
  hipDeviceGetAttribute(&attribute, hipDeviceAttributeCooperativeLaunch, 0);
  hipDeviceGetAttribute(&workers, hipDeviceAttributeMultiprocessorCount, 0);
  hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_worker, grid_exchange, kLanes, 0);
  report("cooperative launch attribute", attribute != 1);
  // The occupancy's grid, then one of 3 blocks a worker (each block past the
  // workers' on a thread of its own), as programs sized for a GPU launch.
  const int most = workers > kMostCooperativeBlocks ? workers : kMostCooperativeBlocks;
  const int grids[] = {workers * per_worker, 3 * workers < most ? 3 * workers : most};
  int *values, *out;
  hipMalloc(&values, grids[1] * kLanes * sizeof(int));
  hipMalloc(&out, grids[1] * kLanes * sizeof(int));
  void* args[] = {&values, &out};
  for (int grid_blocks : grids) {
    int n = grid_blocks * kLanes;
    hipMemset(out, 0, n * sizeof(int));
    report(grid_blocks == grids[0] ? "a grid of multiProcessorCount x the occupancy's blocks launches"
                                   : "a grid of 3 blocks a worker launches",
           hipLaunchCooperativeKernel(grid_exchange, dim3(grid_blocks), dim3(kLanes), args, 0, 0) != hipSuccess);
    std::vector<int> exchanged(n);
    hipMemcpy(exchanged.data(), out, n * sizeof(int), hipMemcpyDeviceToHost);
    int grid_wrong = 0;
    for (int i = 0; i < n; i++) grid_wrong += exchanged[i] != (i + kLanes) % n * 3 + 1000000;
    report(grid_blocks == grids[0] ? "grid sync" : "grid sync, 3 blocks a worker", grid_wrong);
  }
  hipError_t too_large = hipLaunchCooperativeKernel(grid_exchange, dim3(most + 1), dim3(kLanes), args, 0, 0);
  report("a block more than the most is hipErrorCooperativeLaunchTooLarge",
         too_large != hipErrorCooperativeLaunchTooLarge);
  hipGetLastError();
  hipFree(values);
  hipFree(out);
  hipFree(d);
  printf("cooperative_groups: %d wrong\n", wrong);
  return wrong != 0;
}
