// The simulated device's clocks, for clock64() and wall_clock64() in device
// code (hip/gpusym_detail/device_intrinsics.h): both read the host's steady
// clock, clock64 in nanoseconds, wall_clock64 at 100 MHz (the rate
// hipDeviceAttributeWallClockRate gives, 100000 kHz).  And __nanosleep(ns):
// the lane's CPU thread sleeps about ns nanoseconds, one millisecond at most
// (CUDA's bound), as a spinning lane's back-off.
#include <algorithm>
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

void __gpusym_nanosleep(unsigned int nanoseconds) {
  timespec pause{0, std::min<long>(nanoseconds, 1000000)};
  nanosleep(&pause, nullptr);
}

}  // extern "C"
