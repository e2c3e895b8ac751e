// compile_error: a kernel with a type error; `gpusym build` must report it.
#include <hip/hip_runtime.h>

__global__ void broken(int* out) {
  *out = undeclared_variable;
}

int main() { return 0; }
