// A library call's work in its stream's order, for every gpusym library: a
// host function of the stream, run after what was queued there before.
#ifndef GPUSYM_LIBRARIES_STREAM_WORK_H
#define GPUSYM_LIBRARIES_STREAM_WORK_H

#include <hip/hip_runtime_api.h>

#include <functional>
#include <new>
#include <utility>

namespace gpusym_library {

// Queues `work` in `stream`. Captured into a graph (stream capture), the
// work runs at each launch of the graph, so it is kept for as long as the
// process lives: nothing tells a library when the graph is destroyed.
inline hipError_t in_stream_order(hipStream_t stream, std::function<void()> work) {
  hipStreamCaptureStatus capture = hipStreamCaptureStatusNone;
  if (hipStreamIsCapturing(stream, &capture) != hipSuccess) capture = hipStreamCaptureStatusNone;
  auto *task = new (std::nothrow) std::function<void()>(std::move(work));
  if (!task) return hipErrorOutOfMemory;
  hipHostFn_t once = [](void *data) {
    auto *queued = static_cast<std::function<void()> *>(data);
    (*queued)();
    delete queued;
  };
  hipHostFn_t every_launch = [](void *data) { (*static_cast<std::function<void()> *>(data))(); };
  hipError_t error = hipLaunchHostFunc(stream, capture == hipStreamCaptureStatusActive ? every_launch : once, task);
  if (error != hipSuccess) delete task;
  return error;
}

}  // namespace gpusym_library

#endif
