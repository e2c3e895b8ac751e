/*
 * The state of one simulated GPU thread (a "lane"), shared by the runtime and
 * the device code compiled for the simulated device.
 *
 * Device code reads its coordinates through the thread-local pointer
 * __gpusym_lane, which the runtime points at the lane it is running on the
 * current CPU thread.  The pointer is initial-exec TLS owned by the runtime, so
 * reading threadIdx.x costs one %fs-relative load.
 */
#ifndef GPUSYM_LANE_H
#define GPUSYM_LANE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gpusym_dim3 {
  uint32_t x, y, z;
};

struct gpusym_lane {
  struct gpusym_dim3 thread_idx;
  struct gpusym_dim3 block_idx;
  struct gpusym_dim3 block_dim;
  struct gpusym_dim3 grid_dim;
  uint64_t dispatch_id;   /* the dispatch this lane belongs to */
  uint32_t flat_thread;   /* thread index within the block */
  uint32_t state;         /* enum gpusym_lane_state */
  void *saved_sp;         /* stack pointer while suspended at a barrier */
};

enum gpusym_lane_state {
  GPUSYM_LANE_UNSTARTED = 0,
  GPUSYM_LANE_RUNNING = 1,
  GPUSYM_LANE_AT_BARRIER = 2,
  GPUSYM_LANE_EXITED = 3,
};

#ifdef __cplusplus
}
#endif

#endif
