/* openmp_host.c: host OpenMP in a plain C (or C++) source built by gpusym
 * with -fopenmp: a parallel loop with a reduction.  Prints the threads and
 * the sum; exits 0 if the sum is right. */
#include <omp.h>
#include <stdio.h>

#ifndef _OPENMP
#error "compile with -fopenmp"
#endif

int main(void) {
  long long sum = 0;
  int team = 0;
#pragma omp parallel for reduction(+ : sum) reduction(max : team)
  for (int i = 1; i <= 10000; i++) {
    sum += i;
    team = omp_get_num_threads();
  }
  printf("max threads %d\n", omp_get_max_threads());
  printf("team %d\n", team);
  printf("sum %lld\n", sum);
  return sum == 50005000LL && team >= 1 ? 0 : 1;
}
