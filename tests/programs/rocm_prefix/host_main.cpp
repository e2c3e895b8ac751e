// Plain C++: no HIP header; the kernel runs inside the library.
#include <cstdio>

#include "scaling.h"

int main() {
  long sum = scaled_sum(1000, 3);
  std::printf("scaled sum %ld\n", sum);
  return sum == 3L * 999 * 1000 / 2 ? 0 : 1;
}
