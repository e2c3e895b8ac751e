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

// How many lanes a shuffle's `width` spans: the wavefront unless a smaller
// positive width is asked for.
uint32_t shuffle_width(int32_t width, uint32_t wave) {
  return width > 0 && width <= static_cast<int32_t>(wave) ? static_cast<uint32_t>(width) : wave;
}

// The lane whose value `self` reads for the shuffle `op` with `arg` over
// `width` lanes.
inline uint32_t shuffle_source(uint32_t op, uint32_t width, int64_t arg, uint32_t self, uint32_t wave) {
  int64_t base = self & ~(width - 1);
  int64_t index = self;
  switch (op) {
    case GPUSYM_WAVE_SHFL:
      index = arg + base;
      break;
    case GPUSYM_WAVE_SHFL_UP:
      index = self - arg < base ? self : self - arg;
      break;
    case GPUSYM_WAVE_SHFL_DOWN:
      index = (self & (width - 1)) + arg >= width ? self : self + arg;
      break;
    case GPUSYM_WAVE_SHFL_XOR:
      index = (self ^ arg) >= ((self + width) & ~(width - 1)) ? self : self ^ arg;
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

// Every lane of `calls` (`count`, all active) at the shuffle `Op` with one
// `arg` and `width`: the operation known when the loop is compiled.
template <uint32_t Op>
void shuffle_every_lane(WaveCall *calls, uint32_t count, uint32_t width, int64_t arg, uint32_t wave) {
  for (uint32_t self = 0; self < count; self++) {
    uint32_t from = shuffle_source(Op, width, arg, self, wave);
    calls[self].result = from < count ? calls[from].value : 0;
  }
}

// The common meeting: every one of `count` lanes active, at one call with
// one argument and width.  Resolved with the operation decided once, not per
// lane (and a reduction computed once, not once per lane); false when the
// meeting is not such a one.
bool resolve_uniform(WaveCall *calls, uint32_t count, uint64_t active, uint32_t wave) {
  if (count == 0 || count > 64 || active != (count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1)) return false;
  const uint32_t op = calls[0].op;
  const int32_t width_asked = calls[0].width;
  const int64_t arg = calls[0].arg;
  bool same = true;
  for (uint32_t lane = 1; lane < count; lane++)
    same &= (calls[lane].op == op) & (calls[lane].width == width_asked) & (calls[lane].arg == arg);
  if (!same) return false;
  const uint32_t width = shuffle_width(width_asked, wave);
  uint64_t result = 0;
  switch (op) {
    case GPUSYM_WAVE_SHFL: shuffle_every_lane<GPUSYM_WAVE_SHFL>(calls, count, width, arg, wave); return true;
    case GPUSYM_WAVE_SHFL_UP: shuffle_every_lane<GPUSYM_WAVE_SHFL_UP>(calls, count, width, arg, wave); return true;
    case GPUSYM_WAVE_SHFL_DOWN: shuffle_every_lane<GPUSYM_WAVE_SHFL_DOWN>(calls, count, width, arg, wave); return true;
    case GPUSYM_WAVE_SHFL_XOR: shuffle_every_lane<GPUSYM_WAVE_SHFL_XOR>(calls, count, width, arg, wave); return true;
    case GPUSYM_WAVE_SYNC:
    case GPUSYM_WAVE_STEP: break;
    case GPUSYM_WAVE_ACTIVE: result = active; break;
    case GPUSYM_WAVE_BALLOT:
    case GPUSYM_WAVE_ANY:
    case GPUSYM_WAVE_ALL: {
      uint64_t voted = 0;
      for (uint32_t lane = 0; lane < count; lane++) voted |= uint64_t{calls[lane].value != 0} << lane;
      uint64_t asked = static_cast<uint64_t>(arg);
      result = op == GPUSYM_WAVE_BALLOT ? voted & asked
               : op == GPUSYM_WAVE_ANY  ? (voted & asked) != 0
                                        : (active & asked & ~voted) == 0;
      break;
    }
    default: result = reduce(calls, count, active & static_cast<uint64_t>(arg), op); break;
  }
  for (uint32_t lane = 0; lane < count; lane++) calls[lane].result = result;
  return true;
}

}  // namespace

void resolve_wave(WaveCall *calls, uint32_t count, uint64_t active, uint32_t wave) {
  if (active && calls[__builtin_ctzll(active)].op == GPUSYM_WAVE_MMA) return resolve_mma(calls, count, active);
  if (resolve_uniform(calls, count, active, wave)) return;
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
        uint32_t source = shuffle_source(call.op, shuffle_width(call.width, wave), call.arg, self, wave);
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
