/*
 * How libcu++'s waits (cuda::barrier, cuda::pipeline, atomic wait) let the
 * threads they wait for run.  On the simulated device a block's threads
 * take turns on one worker (or run as the loops of a kernel's fast form),
 * so a thread that spins for another thread of its block would spin for
 * good: instead it waits at the block's barrier, __syncthreads(), where
 * every other thread of the block runs up to a barrier (its own wait, or
 * a __syncthreads of the program) or its end, and then looks again.  Both
 * kernel forms run such a loop of barriers as they run any barrier.  A
 * thread that has returned no longer takes part, as at __syncthreads.
 *
 * Each wait waits at least once, so that threads making the same calls
 * (every thread arriving at a barrier of the block's size and waiting)
 * pass the same barriers; threads doing different things (producers and
 * consumers of a pipeline) pass different numbers of them, and then a
 * __syncthreads of the program may let a thread through while another
 * still waits in a libcu++ wait.  In host code a wait yields the processor.
 */
#ifndef GPUSYM_CUDA_BLOCK_WAIT_H
#define GPUSYM_CUDA_BLOCK_WAIT_H

#include "libcudacxx.h"

#if !defined(__HIP_DEVICE_COMPILE__)
#include <sched.h>
#endif

namespace cuda {
namespace __gpusym {

/* One turn of the other threads: those of the block on the device. */
__GPUSYM_HD void let_others_run() {
#if defined(__HIP_DEVICE_COMPILE__)
  __syncthreads();
#else
  sched_yield();
#endif
}

/* Waits until ready() holds, letting the others run at least once. */
template <class Ready>
__GPUSYM_HD void wait_until(Ready ready) {
  do {
    let_others_run();
  } while (!ready());
}

}  // namespace __gpusym
}  // namespace cuda

#endif
