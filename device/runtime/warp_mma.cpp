// A warp's matrix multiply-accumulate (GPUSYM_WAVE_MMA, CUDA's
// wmma::mma_sync): the lanes' shares of A and B gathered into whole
// matrices, then each lane's share of D = A * B + C computed into its
// accumulator (gpusym/lane.h has the layout of a lane's operands).  A lane
// that did not reach the call gives zeros and gets nothing.
#include <cstring>
#include <type_traits>

#include "internal.h"

namespace gpusym {
namespace {

constexpr uint32_t kWarp = 32;  // CUDA's warps: the only ones with matrix multiplies
constexpr uint32_t kMaxInputs = 32 * 16;  // elements of A or B: m32n8k16's A (and m8n32k16's B) is the largest

template <typename In, typename Acc>
Acc widen(In value) {
  return static_cast<Acc>(value);
}

struct Bf16 {
  uint16_t bits;
};
template <>
float widen<Bf16, float>(Bf16 value) {
  uint32_t bits = uint32_t{value.bits} << 16;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

struct Tf32 {
  float value;
};
template <>
float widen<Tf32, float>(Tf32 value) {  // the low 13 bits of the mantissa do not count, as on the hardware
  uint32_t bits;
  std::memcpy(&bits, &value.value, sizeof bits);
  bits &= ~uint32_t{0x1fff};
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

template <typename In, typename Acc>
void multiply(WaveCall *calls, uint32_t count, uint64_t active, uint32_t m, uint32_t n, uint32_t k) {
  const uint32_t a_share = m * k / kWarp, b_share = k * n / kWarp, d_share = m * n / kWarp;
  const uint32_t offset = gpusym_mma_accumulator_offset(a_share + b_share, sizeof(In));
  Acc a[kMaxInputs] = {}, b[kMaxInputs] = {};
  for (uint32_t lane = 0; lane < count && lane < kWarp; lane++) {
    if (!(active >> lane & 1)) continue;
    const In *inputs = reinterpret_cast<const In *>(calls[lane].value);
    for (uint32_t i = 0; i < a_share; i++) a[lane * a_share + i] = widen<In, Acc>(inputs[i]);
    for (uint32_t i = 0; i < b_share; i++) b[lane * b_share + i] = widen<In, Acc>(inputs[a_share + i]);
  }
  for (uint32_t lane = 0; lane < count && lane < kWarp; lane++) {
    if (!(active >> lane & 1)) continue;
    Acc *d = reinterpret_cast<Acc *>(reinterpret_cast<char *>(calls[lane].value) + offset);
    const uint32_t row = lane * d_share / n, column = lane * d_share % n;
    for (uint32_t j = 0; j < k; j++) {
      const Acc left = a[row * k + j];
      for (uint32_t i = 0; i < d_share; i++) {
        if constexpr (std::is_integral_v<Acc>)  // wrapping, as the hardware's adds
          d[i] = static_cast<Acc>(static_cast<uint32_t>(d[i]) + static_cast<uint32_t>(left * b[j * n + column + i]));
        else
          d[i] += left * b[j * n + column + i];
      }
    }
    calls[lane].result = 0;
  }
}

}  // namespace

void resolve_mma(WaveCall *calls, uint32_t count, uint64_t active) {
  // The shape and type are the header's (mma.h), which takes only the shapes here.
  const uint64_t arg = static_cast<uint64_t>(calls[__builtin_ctzll(active)].arg);
  const uint32_t m = arg & 0xff, n = arg >> 8 & 0xff, k = arg >> 16 & 0xff;
  if (m * k > kMaxInputs || k * n > kMaxInputs || (m * k) % kWarp || (k * n) % kWarp || (m * n) % kWarp) return;
  switch (static_cast<gpusym_mma_type>(arg >> 24 & 0xff)) {
    case GPUSYM_MMA_F16: multiply<_Float16, float>(calls, count, active, m, n, k); break;
    case GPUSYM_MMA_BF16: multiply<Bf16, float>(calls, count, active, m, n, k); break;
    case GPUSYM_MMA_TF32: multiply<Tf32, float>(calls, count, active, m, n, k); break;
    case GPUSYM_MMA_S8: multiply<int8_t, int32_t>(calls, count, active, m, n, k); break;
    case GPUSYM_MMA_U8: multiply<uint8_t, int32_t>(calls, count, active, m, n, k); break;
    case GPUSYM_MMA_F64: multiply<double, double>(calls, count, active, m, n, k); break;
  }
}

}  // namespace gpusym
