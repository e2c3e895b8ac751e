// Warp functions: what each lane of a wavefront gets back, from the values
// of the lanes that met at the call (the active lanes, as a GPU's execution
// mask has them).  Source lanes are computed as HIP computes them for AMD
// hardware (amd_warp_functions.h): a shuffle reads lane `index` modulo the
// wavefront, and a lane out of range for __shfl_up/down/xor reads its own
// value; reading a lane that is not active gives 0, as ds_bpermute does.
#include "internal.h"

namespace gpusym {
namespace {

bool active_at(uint64_t active, uint32_t lane) { return lane < 64 && (active >> lane & 1); }

// The lane whose value `self` reads for a shuffle.
uint32_t shuffle_source(const WaveCall &call, uint32_t self, uint32_t wave) {
  int32_t width = call.width > 0 && call.width <= static_cast<int32_t>(wave) ? call.width : static_cast<int32_t>(wave);
  int64_t base = self & ~(width - 1);
  int64_t index = self;
  switch (call.op) {
    case GPUSYM_WAVE_SHFL:
      index = call.arg + base;
      break;
    case GPUSYM_WAVE_SHFL_UP:
      index = self - call.arg < base ? self : self - call.arg;
      break;
    case GPUSYM_WAVE_SHFL_DOWN:
      index = (self & (width - 1)) + call.arg >= width ? self : self + call.arg;
      break;
    case GPUSYM_WAVE_SHFL_XOR:
      index = (self ^ call.arg) >= ((self + width) & ~(width - 1)) ? self : self ^ call.arg;
      break;
  }
  return static_cast<uint32_t>(index) & (wave - 1);  // modulo the wavefront (32 or 64 lanes)
}

uint64_t reduce(const WaveCall *calls, uint32_t count, uint64_t lanes, uint32_t op) {
  bool first = true;
  uint32_t acc = 0;
  for (uint32_t lane = 0; lane < count; lane++) {
    if (!active_at(lanes, lane)) continue;
    uint32_t value = static_cast<uint32_t>(calls[lane].value);
    if (first) {
      acc = value;
      first = false;
      continue;
    }
    acc = gpusym_wave_combine(op, acc, value);
  }
  return acc;
}

}  // namespace

void resolve_wave(WaveCall *calls, uint32_t count, uint64_t active, uint32_t wave) {
  uint64_t voted = 0;  // the active lanes whose predicate holds
  for (uint32_t lane = 0; lane < count; lane++)
    if (active_at(active, lane) && calls[lane].value) voted |= uint64_t{1} << lane;
  for (uint32_t self = 0; self < count; self++) {
    if (!active_at(active, self)) continue;
    WaveCall &call = calls[self];
    uint64_t asked = static_cast<uint64_t>(call.arg);  // the mask of a *_sync call, all ones otherwise
    switch (call.op) {
      case GPUSYM_WAVE_SHFL:
      case GPUSYM_WAVE_SHFL_UP:
      case GPUSYM_WAVE_SHFL_DOWN:
      case GPUSYM_WAVE_SHFL_XOR: {
        uint32_t source = shuffle_source(call, self, wave);
        call.result = source < count && active_at(active, source) ? calls[source].value : 0;
        break;
      }
      case GPUSYM_WAVE_BALLOT: call.result = voted & asked; break;
      case GPUSYM_WAVE_ANY: call.result = (voted & asked) != 0; break;
      case GPUSYM_WAVE_ALL: call.result = (active & asked & ~voted) == 0; break;
      case GPUSYM_WAVE_ACTIVE: call.result = active; break;
      case GPUSYM_WAVE_SYNC:
      case GPUSYM_WAVE_STEP: call.result = 0; break;
      default: call.result = reduce(calls, count, active & asked, call.op); break;
    }
  }
}

}  // namespace gpusym
