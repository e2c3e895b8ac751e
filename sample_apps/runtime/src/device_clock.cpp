// The simulated device's clocks, for clock64() and wall_clock64() in device
// code (hip/gpusym_detail/device_intrinsics.h): both read the host's steady
// clock, clock64 in nanoseconds, wall_clock64 at 100 MHz (the rate
// hipDeviceAttributeWallClockRate gives, 100000 kHz).
#include <ctime>

namespace {

long long steady_nanoseconds() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000000000LL + now.tv_nsec;
}

}  // namespace

extern "C" {

long long __gpusym_clock64() { return steady_nanoseconds(); }
long long __gpusym_wall_clock64() { return steady_nanoseconds() / 10; }

}  // extern "C"
