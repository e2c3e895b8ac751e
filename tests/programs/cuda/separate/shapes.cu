// Relocatable device code with virtual functions, one of them pure: the
// objects' vtables name the C++ runtime's __cxa_pure_virtual.
#include <cstdio>

struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual float area() const = 0;
};
struct Square : Shape {
  float side;
  __device__ explicit Square(float s) : side(s) {}
  __device__ float area() const override { return side * side; }
};

__global__ void areas(float *out) {
  Shape *shape = new Square(static_cast<float>(threadIdx.x));
  out[threadIdx.x] = shape->area();
  delete shape;
}

int main() {
  float *out = nullptr;
  cudaMallocManaged(&out, 32 * sizeof(float));
  areas<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < 32; i++) wrong += out[i] != static_cast<float>(i * i);
  std::printf("shapes: %d wrong\n", wrong);
  return wrong != 0;
}
