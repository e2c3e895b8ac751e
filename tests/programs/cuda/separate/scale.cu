// A device function defined in one CUDA source and called from another's
// kernel: relocatable device code (-dc, or -rdc=true).
__device__ float scaled(float value, float factor) { return value * factor; }
