// Functions a debugger calls at a lane's stop: the methods of a
// cooperative-groups tile and grid (thread_rank(), size()), ordinary
// device functions (one reads the lane's coordinates), and functions that
// need other lanes (a warp function, the block's barrier).  Each lane
// stores what they return; the host checks every lane.
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kBlocks = 4, kLanes = 64, kTile = 16;

// The methods a debugger calls, kept out of line at -O2 too.
__device__ unsigned int (cg::thread_group::*kInspected[])() const = {&cg::thread_group::thread_rank,
                                                                    &cg::thread_group::size};
__device__ void (*kBarrier)() = &cg::thread_block::sync;

__device__ __attribute__((noinline)) int scaled(int value, int factor) { return value * factor + 7; }

// The calling lane's index in the grid, from its coordinates.
__device__ __attribute__((noinline)) int flat_lane() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }

__device__ __attribute__((noinline)) int tile_leader(const cg::thread_block_tile<kTile>& tile, int value) {
  return tile.shfl(value, 0);
}

__device__ __attribute__((noinline)) int gather(const cg::thread_block_tile<kTile>& tile, const cg::grid_group& grid,
                                                int value) {
  int mine = scaled(value, 3);
  return mine + tile_leader(tile, mine) + static_cast<int>(tile.thread_rank() + grid.size());
}

__global__ void lanes(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(block);
  int rank = static_cast<int>(grid.thread_rank());
  block.sync();
  out[rank] = gather(tile, grid, rank) + flat_lane() - rank;  // after the barrier
}

int main() {
  int* out;
  hipMalloc(&out, kBlocks * kLanes * sizeof(int));
  lanes<<<kBlocks, kLanes>>>(out);
  int host[kBlocks * kLanes];
  hipMemcpy(host, out, sizeof host, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < kBlocks * kLanes; i++) {
    int leader = i / kTile * kTile;
    wrong += host[i] != (i * 3 + 7) + (leader * 3 + 7) + i % kTile + kBlocks * kLanes;
  }
  printf("lane_calls: %d lanes, %d wrong\n", kBlocks * kLanes, wrong);
  hipFree(out);
  return wrong != 0;
}
