// Textures and surfaces on the simulated device.  Each mode samples on the
// device and computes the same samples on the host from CUDA's definition
// of texture fetching, then prints `MODE: M mismatches of N`; an error case
// prints `MODE: ok` or `MODE: got G, want W`.  Exits 1 when anything
// differs, 2 when a call it needs fails.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    hipError_t status_ = (call);                                                        \
    if (status_ != hipSuccess) {                                                        \
      printf("failed: %s: %s at line %d\n", #call, hipGetErrorName(status_), __LINE__); \
      exit(2);                                                                          \
    }                                                                                   \
  } while (0)

static int failures = 0;

// ---- the host's reference ----

// A texture as the host sees it: each texel's channels as the read mode gives them.
struct Reference {
  int width = 1, height = 1, depth = 1;
  std::vector<float> texels;  // 4 per texel
  hipTextureDesc desc{};
  const float *texel(int x, int y, int z) const { return &texels[4 * ((z * height + y) * width + x)]; }
};

// CUDA's texel index along one axis for an index i, or -1 for the border.
static int address(int i, int n, hipTextureAddressMode mode, bool normalized) {
  if (!normalized && (mode == hipAddressModeWrap || mode == hipAddressModeMirror)) mode = hipAddressModeClamp;
  switch (mode) {
    case hipAddressModeWrap: return ((i % n) + n) % n;
    case hipAddressModeMirror: {
      int period = ((i % (2 * n)) + 2 * n) % (2 * n);
      return period < n ? period : 2 * n - 1 - period;
    }
    case hipAddressModeBorder: return i >= 0 && i < n ? i : -1;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

// Texel-space coordinate of a coordinate along an axis of n texels.
static float scaled(const Reference &r, float u, int n, int axis) {
  if (!r.desc.normalizedCoords) return u;
  hipTextureAddressMode mode = r.desc.addressMode[axis];
  if (mode == hipAddressModeWrap) u -= std::floor(u);
  if (mode == hipAddressModeMirror) u -= 2.0f * std::floor(0.5f * u);
  return u * static_cast<float>(n);
}

// tex(x) = sum over the 2^dims texels around x - 0.5 of their weights, or T[floor(x)].
static void sample(const Reference &r, int dims, const float coords[3], int layer, float out[4]) {
  const int sizes[3] = {r.width, r.height, r.depth};
  const bool linear = r.desc.filterMode == hipFilterModeLinear;
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  float alpha[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    float x = scaled(r, coords[d], sizes[d], d) - (linear ? 0.5f : 0.0f);
    float base = std::floor(x);
    alpha[d] = linear ? x - base : 0.0f;
    lo[d] = address(static_cast<int>(base), sizes[d], r.desc.addressMode[d], r.desc.normalizedCoords);
    hi[d] = address(static_cast<int>(base) + 1, sizes[d], r.desc.addressMode[d], r.desc.normalizedCoords);
  }
  if (layer >= 0) lo[2] = hi[2] = layer < r.depth ? layer : r.depth - 1;
  for (int c = 0; c < 4; ++c) out[c] = 0.0f;
  for (int corner = 0; corner < (linear ? 1 << dims : 1); ++corner) {
    int at[3];
    float weight = 1.0f;
    for (int d = 0; d < 3; ++d) {
      bool second = d < dims && ((corner >> d) & 1);
      at[d] = second ? hi[d] : lo[d];
      if (linear && d < dims) weight *= second ? alpha[d] : 1.0f - alpha[d];
    }
    bool border = at[0] < 0 || at[1] < 0 || at[2] < 0;
    for (int c = 0; c < 4; ++c) out[c] += weight * (border ? r.desc.borderColor[c] : r.texel(at[0], at[1], at[2])[c]);
  }
}

// Coordinates inside, at the edges and well outside the texture, in its own units.
static std::vector<float> coordinates(bool normalized, int size) {
  std::vector<float> u;
  for (int k = -23; k <= 23; ++k) u.push_back(normalized ? k * 0.0917f : k * 0.0917f * size);
  u.push_back(normalized ? 0.0f : 0.5f);
  u.push_back(normalized ? 1.0f : size - 0.5f);
  return u;
}

static bool near(float a, float b) { return std::fabs(a - b) <= 1e-4f * (1.0f + std::fabs(b)); }

static void report(const char *mode, int mismatches, int total) {
  printf("%s: %d mismatches of %d\n", mode, mismatches, total);
  if (mismatches || total == 0) ++failures;
}

static void expect_error(const char *what, hipError_t got, hipError_t want) {
  if (got == want) {
    printf("%s: ok\n", what);
  } else {
    printf("%s: got %s, want %s\n", what, hipGetErrorName(got), hipGetErrorName(want));
    ++failures;
  }
}

// ---- the device's samples ----

struct Coord {
  float x, y, z;
};

template <typename T>
__global__ void fetch(hipTextureObject_t t, int dims, int layer, const Coord *at, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (layer >= 0)
    out[i] = dims == 1 ? tex1DLayered<T>(t, at[i].x, layer) : tex2DLayered<T>(t, at[i].x, at[i].y, layer);
  else if (dims == 1)
    out[i] = tex1D<T>(t, at[i].x);
  else if (dims == 2)
    out[i] = tex2D<T>(t, at[i].x, at[i].y);
  else
    tex3D(&out[i], t, at[i].x, at[i].y, at[i].z);
}

template <typename T> static std::vector<T> run_fetch(hipTextureObject_t t, int dims, int layer,
                                                      const std::vector<Coord> &at) {
  int n = static_cast<int>(at.size());
  Coord *d_at = nullptr;
  T *d_out = nullptr;
  CHECK(hipMalloc(&d_at, n * sizeof(Coord)));
  CHECK(hipMalloc(&d_out, n * sizeof(T)));
  CHECK(hipMemcpy(d_at, at.data(), n * sizeof(Coord), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(fetch<T>, dim3((n + 63) / 64), dim3(64), 0, 0, t, dims, layer, d_at, d_out, n);
  CHECK(hipGetLastError());
  std::vector<T> out(n);
  CHECK(hipMemcpy(out.data(), d_out, n * sizeof(T), hipMemcpyDeviceToHost));
  CHECK(hipFree(d_at));
  CHECK(hipFree(d_out));
  return out;
}

// The grid of coordinates over `dims` axes of the reference's sizes.
static std::vector<Coord> grid(const Reference &r, int dims) {
  std::vector<float> xs = coordinates(r.desc.normalizedCoords, r.width);
  std::vector<float> ys = dims > 1 ? coordinates(r.desc.normalizedCoords, r.height) : std::vector<float>{0.0f};
  std::vector<float> zs = dims > 2 ? coordinates(r.desc.normalizedCoords, r.depth) : std::vector<float>{0.0f};
  std::vector<Coord> at;
  for (size_t k = 0; k < zs.size(); k += dims > 2 ? 3 : 1)
    for (size_t j = 0; j < ys.size(); j += dims > 2 ? 2 : 1)
      for (float x : xs) at.push_back(Coord{x, ys[j], zs[k]});
  return at;
}

// Samples of a float4 result on both sides; returns the mismatches.
static int compare_float4(hipTextureObject_t t, const Reference &r, int dims, int layer, int *total) {
  std::vector<Coord> at = grid(r, dims);
  std::vector<float4> got = run_fetch<float4>(t, dims, layer, at);
  int wrong = 0;
  for (size_t i = 0; i < at.size(); ++i) {
    float want[4];
    const float coords[3] = {at[i].x, at[i].y, at[i].z};
    sample(r, dims, coords, layer, want);
    const float have[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
    bool same = true;
    for (int c = 0; c < 4; ++c) same = same && near(have[c], want[c]);
    if (!same && wrong++ < 3)
      printf("  at (%g, %g, %g) layer %d: got (%g %g %g %g), want (%g %g %g %g)\n", coords[0], coords[1], coords[2],
             layer, have[0], have[1], have[2], have[3], want[0], want[1], want[2], want[3]);
  }
  *total += static_cast<int>(at.size());
  return wrong;
}

// ---- textures over arrays ----

static hipTextureDesc texture_desc(hipTextureAddressMode mode, hipTextureFilterMode filter, bool normalized,
                                   hipTextureReadMode read = hipReadModeElementType) {
  hipTextureDesc desc;
  memset(&desc, 0, sizeof desc);
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = mode;
  desc.filterMode = filter;
  desc.readMode = read;
  desc.normalizedCoords = normalized;
  return desc;
}

static hipTextureObject_t array_texture(hipArray_t array, const hipTextureDesc &desc) {
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  hipTextureObject_t t = nullptr;
  CHECK(hipCreateTextureObject(&t, &res, &desc, nullptr));
  return t;
}

// A 2D float2 array of w x h texels with distinct values, and its reference.
static hipArray_t float2_array(int w, int h, Reference &r) {
  std::vector<float2> host(w * h);
  r.width = w;
  r.height = h;
  r.texels.assign(4 * w * h, 0.0f);
  for (int i = 0; i < w * h; ++i) {
    host[i] = make_float2(std::sin(i * 0.7f) * 10.0f, static_cast<float>(i));
    r.texels[4 * i] = host[i].x;
    r.texels[4 * i + 1] = host[i].y;
    r.texels[4 * i + 3] = 1.0f;  // the channel the format lacks
  }
  hipChannelFormatDesc format = hipCreateChannelDesc<float2>();
  hipArray_t array = nullptr;
  CHECK(hipMallocArray(&array, &format, w, h));
  CHECK(hipMemcpy2DToArray(array, 0, 0, host.data(), w * sizeof(float2), w * sizeof(float2), h,
                           hipMemcpyHostToDevice));
  return array;
}

static void addressing_2d(const char *mode, hipTextureAddressMode address, bool normalized) {
  Reference r;
  hipArray_t array = float2_array(7, 5, r);
  int wrong = 0, total = 0;
  for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
    r.desc = texture_desc(address, filter, normalized);
    hipTextureObject_t t = array_texture(array, r.desc);
    wrong += compare_float4(t, r, 2, -1, &total);
    CHECK(hipDestroyTextureObject(t));
  }
  report(mode, wrong, total);
  CHECK(hipFreeArray(array));
}

static void border_colour() {
  Reference r;
  hipArray_t array = float2_array(6, 4, r);
  int wrong = 0, total = 0;
  for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
    r.desc = texture_desc(hipAddressModeBorder, filter, true);
    r.desc.borderColor[0] = 0.25f;
    r.desc.borderColor[1] = -3.0f;
    hipTextureObject_t t = array_texture(array, r.desc);
    wrong += compare_float4(t, r, 2, -1, &total);
    CHECK(hipDestroyTextureObject(t));
  }
  report("border colour", wrong, total);
  CHECK(hipFreeArray(array));
}

// 8-bit unsigned and 16-bit signed channels read as floats in [0, 1] and [-1, 1].
static void normalized_float() {
  const int w = 9, h = 4;
  std::vector<uchar4> bytes(w * h);
  std::vector<short2> shorts(w * h);
  Reference rb, rs;
  rb.width = rs.width = w;
  rb.height = rs.height = h;
  rb.texels.assign(4 * w * h, 0.0f);
  rs.texels.assign(4 * w * h, 0.0f);
  for (int i = 0; i < w * h; ++i) {
    bytes[i] = make_uchar4(i * 7 % 256, 255 - i, i == 0 ? 255 : i * 3, 128);
    shorts[i] = make_short2(i == 0 ? -32768 : -1000 * i, i == 1 ? 32767 : 911 * i);
    const unsigned char b[4] = {bytes[i].x, bytes[i].y, bytes[i].z, bytes[i].w};
    for (int c = 0; c < 4; ++c) rb.texels[4 * i + c] = b[c] / 255.0f;
    rs.texels[4 * i] = std::fmax(shorts[i].x / 32767.0f, -1.0f);
    rs.texels[4 * i + 1] = std::fmax(shorts[i].y / 32767.0f, -1.0f);
    rs.texels[4 * i + 3] = 1.0f;
  }
  hipChannelFormatDesc byte_format = hipCreateChannelDesc<uchar4>();
  hipChannelFormatDesc short_format = hipCreateChannelDesc(16, 16, 0, 0, hipChannelFormatKindSigned);
  hipArray_t byte_array = nullptr, short_array = nullptr;
  CHECK(hipMallocArray(&byte_array, &byte_format, w, h));
  CHECK(hipMallocArray(&short_array, &short_format, w, h));
  CHECK(hipMemcpy2DToArray(byte_array, 0, 0, bytes.data(), w * 4, w * 4, h, hipMemcpyHostToDevice));
  CHECK(hipMemcpyToArray(short_array, 0, 0, shorts.data(), w * h * 4, hipMemcpyHostToDevice));
  int wrong = 0, total = 0;
  for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
    for (Reference *r : {&rb, &rs}) {
      r->desc = texture_desc(hipAddressModeClamp, filter, true, hipReadModeNormalizedFloat);
      hipTextureObject_t t = array_texture(r == &rb ? byte_array : short_array, r->desc);
      wrong += compare_float4(t, *r, 2, -1, &total);
      CHECK(hipDestroyTextureObject(t));
    }
  }
  report("normalized float", wrong, total);
  CHECK(hipFreeArray(byte_array));
  CHECK(hipFreeArray(short_array));
}

// Integer texels read as they are: never filtered, even with linear filtering asked for.
static void element_type() {
  const int w = 5, h = 3;
  std::vector<int> host(w * h);
  for (int i = 0; i < w * h; ++i) host[i] = i * 1000003 - 7000000;
  hipChannelFormatDesc format = hipCreateChannelDesc<int>();
  hipArray_t array = nullptr;
  CHECK(hipMallocArray(&array, &format, w, h));
  CHECK(hipMemcpy2DToArray(array, 0, 0, host.data(), w * 4, w * 4, h, hipMemcpyHostToDevice));
  int wrong = 0, total = 0;
  for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
    Reference r;
    r.width = w;
    r.height = h;
    r.desc = texture_desc(hipAddressModeWrap, filter, true);
    hipTextureObject_t t = array_texture(array, r.desc);
    std::vector<Coord> at = grid(r, 2);
    std::vector<int> got = run_fetch<int>(t, 2, -1, at);
    r.desc.filterMode = hipFilterModePoint;
    for (size_t i = 0; i < at.size(); ++i) {
      int x = address(static_cast<int>(std::floor(scaled(r, at[i].x, w, 0))), w, hipAddressModeWrap, true);
      int y = address(static_cast<int>(std::floor(scaled(r, at[i].y, h, 1))), h, hipAddressModeWrap, true);
      if (got[i] != host[y * w + x]) ++wrong;
    }
    total += static_cast<int>(at.size());
    CHECK(hipDestroyTextureObject(t));
  }
  report("element type", wrong, total);
  CHECK(hipFreeArray(array));
}

static void one_dimensional() {
  const int w = 11;
  std::vector<float> host(w);
  Reference r;
  r.width = w;
  r.texels.assign(4 * w, 0.0f);
  for (int i = 0; i < w; ++i) {
    host[i] = i * i * 0.5f - 3.0f;
    r.texels[4 * i] = host[i];
    r.texels[4 * i + 3] = 1.0f;
  }
  hipChannelFormatDesc format = hipCreateChannelDesc<float>();
  hipArray_t array = nullptr;
  CHECK(hipMallocArray(&array, &format, w));
  CHECK(hipMemcpyToArray(array, 0, 0, host.data(), w * sizeof(float), hipMemcpyHostToDevice));
  int wrong = 0, total = 0;
  for (hipTextureAddressMode mode : {hipAddressModeWrap, hipAddressModeClamp, hipAddressModeMirror,
                                     hipAddressModeBorder})
    for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
      r.desc = texture_desc(mode, filter, true);
      hipTextureObject_t t = array_texture(array, r.desc);
      wrong += compare_float4(t, r, 1, -1, &total);
      CHECK(hipDestroyTextureObject(t));
    }
  // Two values by hand: unnormalized, x = 1 blends texels 0 and 1 equally,
  // x = 2.25 takes 1/4 of texel 1 and 3/4 of texel 2.
  r.desc = texture_desc(hipAddressModeClamp, hipFilterModeLinear, false);
  hipTextureObject_t t = array_texture(array, r.desc);
  std::vector<float4> by_hand = run_fetch<float4>(t, 1, -1, {Coord{1.0f, 0, 0}, Coord{2.25f, 0, 0}});
  wrong += !near(by_hand[0].x, -2.75f) + !near(by_hand[1].x, -1.375f);
  total += 2;
  CHECK(hipDestroyTextureObject(t));
  report("tex1D", wrong, total);
  CHECK(hipFreeArray(array));
}

__global__ void fetch_linear(hipTextureObject_t t, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i - 4);  // four before the start, four past the end
}

// tex1Dfetch from linear memory: element x, zero outside.
static void fetch_from_linear() {
  const int n = 20;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = 3 * i + 1;
  int *data = nullptr, *out = nullptr;
  CHECK(hipMalloc(&data, n * sizeof(int)));
  CHECK(hipMalloc(&out, (n + 8) * sizeof(int)));
  CHECK(hipMemcpy(data, host.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = data;
  res.res.linear.desc = hipCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = n * sizeof(int);
  hipTextureDesc desc = texture_desc(hipAddressModeClamp, hipFilterModePoint, false);
  hipTextureObject_t t = nullptr;
  CHECK(hipCreateTextureObject(&t, &res, &desc, nullptr));
  hipLaunchKernelGGL(fetch_linear, dim3(1), dim3(64), 0, 0, t, out, n + 8);
  std::vector<int> got(n + 8);
  CHECK(hipMemcpy(got.data(), out, got.size() * sizeof(int), hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n + 8; ++i) {
    int x = i - 4;
    if (got[i] != (x >= 0 && x < n ? host[x] : 0)) ++wrong;
  }
  report("tex1Dfetch", wrong, n + 8);
  hipResourceDesc back;
  CHECK(hipGetTextureObjectResourceDesc(&back, t));
  expect_error("resource desc kept", back.res.linear.devPtr == data ? hipSuccess : hipErrorUnknown, hipSuccess);
  CHECK(hipDestroyTextureObject(t));
  CHECK(hipFree(data));
  CHECK(hipFree(out));
}

// A texture over pitched memory (hipMallocPitch), filtered.
static void pitch_2d() {
  const int w = 6, h = 5;
  float *data = nullptr;
  size_t pitch = 0;
  CHECK(hipMallocPitch(&data, &pitch, w * sizeof(float), h));
  std::vector<float> host(w * h);
  Reference r;
  r.width = w;
  r.height = h;
  r.texels.assign(4 * w * h, 0.0f);
  for (int i = 0; i < w * h; ++i) {
    host[i] = std::cos(i * 1.3f);
    r.texels[4 * i] = host[i];
    r.texels[4 * i + 3] = 1.0f;
  }
  CHECK(hipMemcpy2D(data, pitch, host.data(), w * sizeof(float), w * sizeof(float), h, hipMemcpyHostToDevice));
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = data;
  res.res.pitch2D.desc = hipCreateChannelDesc<float>();
  res.res.pitch2D.width = w;
  res.res.pitch2D.height = h;
  res.res.pitch2D.pitchInBytes = pitch;
  int wrong = 0, total = 0;
  for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
    r.desc = texture_desc(hipAddressModeClamp, filter, false);
    hipTextureObject_t t = nullptr;
    CHECK(hipCreateTextureObject(&t, &res, &r.desc, nullptr));
    wrong += compare_float4(t, r, 2, -1, &total);
    CHECK(hipDestroyTextureObject(t));
  }
  report("pitch2D", wrong, total);
  CHECK(hipFree(data));
}

// A 3D array filled by hipMemcpy3D, sampled trilinearly.
static void three_dimensional() {
  const int w = 5, h = 4, d = 3;
  std::vector<float> host(w * h * d);
  Reference r;
  r.width = w;
  r.height = h;
  r.depth = d;
  r.texels.assign(4 * w * h * d, 0.0f);
  for (int i = 0; i < w * h * d; ++i) {
    host[i] = i * 0.25f - std::sin(i * 1.0f);
    r.texels[4 * i] = host[i];
    r.texels[4 * i + 3] = 1.0f;
  }
  hipChannelFormatDesc format = hipCreateChannelDesc<float>();
  hipArray_t array = nullptr;
  CHECK(hipMalloc3DArray(&array, &format, make_hipExtent(w, h, d), hipArrayDefault));
  hipMemcpy3DParms copy;
  memset(&copy, 0, sizeof copy);
  copy.srcPtr = make_hipPitchedPtr(host.data(), w * sizeof(float), w, h);
  copy.dstArray = array;
  copy.extent = make_hipExtent(w, h, d);
  copy.kind = hipMemcpyHostToDevice;
  CHECK(hipMemcpy3D(&copy));
  int wrong = 0, total = 0;
  for (hipTextureAddressMode mode : {hipAddressModeWrap, hipAddressModeMirror})
    for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
      r.desc = texture_desc(mode, filter, true);
      hipTextureObject_t t = array_texture(array, r.desc);
      wrong += compare_float4(t, r, 3, -1, &total);
      CHECK(hipDestroyTextureObject(t));
    }
  report("tex3D", wrong, total);
  CHECK(hipFreeArray(array));
}

// Layers of a layered array: filtered within a layer, never across.
static void layered() {
  const int w = 4, h = 3, layers = 3;
  std::vector<float> host(w * h * layers);
  Reference r;
  r.width = w;
  r.height = h;
  r.depth = layers;
  r.texels.assign(4 * w * h * layers, 0.0f);
  for (int i = 0; i < w * h * layers; ++i) {
    host[i] = (i / (w * h)) * 100.0f + i % (w * h);
    r.texels[4 * i] = host[i];
    r.texels[4 * i + 3] = 1.0f;
  }
  hipChannelFormatDesc format = hipCreateChannelDesc<float>();
  hipArray_t array = nullptr;
  CHECK(hipMalloc3DArray(&array, &format, make_hipExtent(w, h, layers), hipArrayLayered));
  CHECK(hipMemcpyToArray(array, 0, 0, host.data(), host.size() * sizeof(float), hipMemcpyHostToDevice));
  hipExtent extent;
  unsigned int flags = 0;
  CHECK(hipArrayGetInfo(nullptr, &extent, &flags, array));
  expect_error("layered array info", extent.depth == layers && flags == hipArrayLayered ? hipSuccess : hipErrorUnknown,
               hipSuccess);
  int wrong = 0, total = 0;
  for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
    r.desc = texture_desc(hipAddressModeClamp, filter, true);
    hipTextureObject_t t = array_texture(array, r.desc);
    for (int layer = 0; layer < layers + 1; ++layer) wrong += compare_float4(t, r, 2, layer, &total);
    CHECK(hipDestroyTextureObject(t));
  }
  report("tex2DLayered", wrong, total);
  CHECK(hipFreeArray(array));
}

// ---- surfaces and copies ----

// out(x, y) = 2 * in(x, y) + x, where x is a column; and one read past the edge.
__global__ void double_plus_column(hipSurfaceObject_t in, hipSurfaceObject_t out, int w, int h, float *outside) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w || y >= h) return;
  float v;
  surf2Dread(&v, in, x * 4, y);
  surf2Dwrite(2.0f * v + x, out, x * 4, y);
  if (x == 0 && y == 0) {
    *outside = surf2Dread<float>(in, w * 4, 0) + surf2Dread<float>(in, w * 4, 0, hipBoundaryModeClamp);
    surf2Dwrite(-1.0f, out, -4, 0);  // dropped
  }
}

static void surfaces() {
  const int w = 70, h = 3;
  std::vector<float> host(w * h), got(w * h);
  for (int i = 0; i < w * h; ++i) host[i] = i * 0.5f;
  hipChannelFormatDesc format = hipCreateChannelDesc<float>();
  hipArray_t in = nullptr, out = nullptr;
  CHECK(hipMallocArray(&in, &format, w, h, hipArraySurfaceLoadStore));
  CHECK(hipMallocArray(&out, &format, w, h, hipArraySurfaceLoadStore));
  CHECK(hipMemcpy2DToArray(in, 0, 0, host.data(), w * 4, w * 4, h, hipMemcpyHostToDevice));
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  hipSurfaceObject_t s_in = nullptr, s_out = nullptr;
  res.res.array.array = in;
  CHECK(hipCreateSurfaceObject(&s_in, &res));
  res.res.array.array = out;
  CHECK(hipCreateSurfaceObject(&s_out, &res));
  float *outside = nullptr;
  CHECK(hipMalloc(&outside, sizeof(float)));
  hipLaunchKernelGGL(double_plus_column, dim3((w + 63) / 64, h), dim3(64), 0, 0, s_in, s_out, w, h, outside);
  CHECK(hipMemcpy2DFromArray(got.data(), w * 4, out, 0, 0, w * 4, h, hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < w * h; ++i)
    if (got[i] != 2.0f * host[i] + i % w) ++wrong;
  float beyond = 0.0f;
  CHECK(hipMemcpy(&beyond, outside, sizeof(float), hipMemcpyDeviceToHost));
  if (beyond != host[w - 1]) ++wrong;  // zero, plus the last element of the row clamped to
  report("surface", wrong, w * h + 1);
  CHECK(hipDestroySurfaceObject(s_in));
  CHECK(hipDestroySurfaceObject(s_out));
  CHECK(hipFreeArray(in));
  CHECK(hipFreeArray(out));
  CHECK(hipFree(outside));
}

// Round trips through arrays: partial 2D copies at an offset, 3D copies back out.
static void array_copies() {
  const int w = 8, h = 6;
  std::vector<short> host(w * h), back(w * h, 0), part(3 * 2);
  for (int i = 0; i < w * h; ++i) host[i] = static_cast<short>(i * 31 - 400);
  hipChannelFormatDesc format = hipCreateChannelDesc<short>();
  hipArray_t array = nullptr;
  CHECK(hipMallocArray(&array, &format, w, h));
  CHECK(hipMemcpy2DToArrayAsync(array, 0, 0, host.data(), w * 2, w * 2, h, hipMemcpyHostToDevice, 0));
  CHECK(hipMemcpy2DFromArray(part.data(), 3 * 2, array, 2 * 2, 3, 3 * 2, 2, hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) wrong += part[y * 3 + x] != host[(y + 3) * w + x + 2];
  hipMemcpy3DParms copy;
  memset(&copy, 0, sizeof copy);
  copy.srcArray = array;
  copy.srcPos = make_hipPos(1, 1, 0);
  copy.dstPtr = make_hipPitchedPtr(back.data(), w * 2, w, h);
  copy.extent = make_hipExtent(w - 1, h - 1, 1);
  copy.kind = hipMemcpyDeviceToHost;
  CHECK(hipMemcpy3D(&copy));
  for (int y = 0; y < h - 1; ++y)
    for (int x = 0; x < w - 1; ++x) wrong += back[y * w + x] != host[(y + 1) * w + x + 1];
  std::vector<short> all(w * h);
  CHECK(hipMemcpyFromArray(all.data(), array, 0, 0, w * h * 2, hipMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) wrong += all[i] != host[i];
  report("array copies", wrong, 6 + (w - 1) * (h - 1) + w * h);
  hipChannelFormatDesc got;
  CHECK(hipGetChannelDesc(&got, array));
  expect_error("channel desc kept", got.x == 16 && got.y == 0 && got.f == hipChannelFormatKindSigned
                                        ? hipSuccess : hipErrorUnknown, hipSuccess);
  CHECK(hipFreeArray(array));
}

static void errors() {
  hipChannelFormatDesc format = hipCreateChannelDesc<float>();
  hipArray_t array = nullptr;
  CHECK(hipMallocArray(&array, &format, 4, 4));
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  hipTextureDesc desc = texture_desc(hipAddressModeClamp, hipFilterModePoint, false);
  hipTextureObject_t t = nullptr;
  expect_error("null resource desc", hipCreateTextureObject(&t, nullptr, &desc, nullptr), hipErrorInvalidValue);
  expect_error("null texture desc", hipCreateTextureObject(&t, &res, nullptr, nullptr), hipErrorInvalidValue);
  expect_error("null object", hipCreateTextureObject(nullptr, &res, &desc, nullptr), hipErrorInvalidValue);
  hipResourceViewDesc view;
  memset(&view, 0, sizeof view);
  expect_error("resource view", hipCreateTextureObject(&t, &res, &desc, &view), hipErrorNotSupported);
  hipTextureDesc bad_mode = desc;
  bad_mode.addressMode[1] = static_cast<hipTextureAddressMode>(9);
  expect_error("address mode", hipCreateTextureObject(&t, &res, &bad_mode, nullptr), hipErrorInvalidValue);
  hipResourceDesc mipmap = res;
  mipmap.resType = hipResourceTypeMipmappedArray;
  expect_error("mipmapped array", hipCreateTextureObject(&t, &mipmap, &desc, nullptr), hipErrorNotSupported);
  hipResourceDesc freed = res;
  freed.res.array.array = reinterpret_cast<hipArray_t>(&format);
  expect_error("no such array", hipCreateTextureObject(&t, &freed, &desc, nullptr), hipErrorInvalidValue);
  int *data = nullptr;
  CHECK(hipMalloc(&data, 64));
  hipResourceDesc linear;
  memset(&linear, 0, sizeof linear);
  linear.resType = hipResourceTypeLinear;
  linear.res.linear.devPtr = data;
  linear.res.linear.desc = hipCreateChannelDesc<int>();
  linear.res.linear.sizeInBytes = 64;
  hipTextureDesc normalized = desc;
  normalized.readMode = hipReadModeNormalizedFloat;
  expect_error("normalized 32-bit integers", hipCreateTextureObject(&t, &linear, &normalized, nullptr),
               hipErrorInvalidValue);
  linear.res.linear.sizeInBytes = 128;
  expect_error("linear past its allocation", hipCreateTextureObject(&t, &linear, &desc, nullptr),
               hipErrorInvalidValue);
  linear.res.linear.sizeInBytes = 64;
  linear.res.linear.desc = hipCreateChannelDesc(32, 32, 32, 0, hipChannelFormatKindSigned);
  expect_error("three channels", hipCreateTextureObject(&t, &linear, &desc, nullptr),
               hipErrorInvalidChannelDescriptor);
  hipChannelFormatDesc odd = hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindFloat);
  hipArray_t unused = nullptr;
  expect_error("8-bit float array", hipMallocArray(&unused, &odd, 4, 4), hipErrorInvalidChannelDescriptor);
  expect_error("array without width", hipMallocArray(&unused, &format, 0, 4), hipErrorInvalidValue);
  expect_error("array past its rows", hipMemcpy2DToArray(array, 0, 2, data, 16, 16, 3, hipMemcpyDeviceToDevice),
               hipErrorInvalidValue);
  expect_error("destroy unknown texture",
               hipDestroyTextureObject(reinterpret_cast<hipTextureObject_t>(&format)), hipErrorInvalidValue);
  hipResourceDesc not_array = linear;
  hipSurfaceObject_t s = nullptr;
  expect_error("surface of linear memory", hipCreateSurfaceObject(&s, &not_array), hipErrorInvalidValue);
  int image = 0;
  CHECK(hipDeviceGetAttribute(&image, hipDeviceAttributeImageSupport, 0));
  expect_error("image support", image == 1 ? hipSuccess : hipErrorUnknown, hipSuccess);
  CHECK(hipFreeArray(array));
  expect_error("free freed array", hipFreeArray(array), hipErrorInvalidValue);
  CHECK(hipFree(data));
  (void)hipGetLastError();
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  struct {
    const char *name;
    void (*run)();
  } cases[] = {
      {"clamp", [] { addressing_2d("clamp", hipAddressModeClamp, true); }},
      {"wrap", [] { addressing_2d("wrap", hipAddressModeWrap, true); }},
      {"mirror", [] { addressing_2d("mirror", hipAddressModeMirror, true); }},
      {"border", [] { addressing_2d("border", hipAddressModeBorder, true); }},
      {"unnormalized", [] {
         addressing_2d("unnormalized clamp", hipAddressModeClamp, false);
         addressing_2d("unnormalized wrap", hipAddressModeWrap, false);
         addressing_2d("unnormalized mirror", hipAddressModeMirror, false);
         addressing_2d("unnormalized border", hipAddressModeBorder, false);
       }},
      {"border_colour", border_colour},
      {"normalized_float", normalized_float},
      {"element_type", element_type},
      {"tex1D", one_dimensional},
      {"tex1Dfetch", fetch_from_linear},
      {"pitch2D", pitch_2d},
      {"tex3D", three_dimensional},
      {"tex2DLayered", layered},
      {"surface", surfaces},
      {"copies", array_copies},
      {"errors", errors},
  };
  for (const auto &c : cases)
    if (!strcmp(which, "all") || !strcmp(which, c.name)) c.run();
  return failures ? 1 : 0;
}
