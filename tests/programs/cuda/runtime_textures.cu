// CUDA's texture and surface objects: 1D and 2D textures of linear memory,
// pitched memory and arrays, point and linear filtering, normalized
// coordinates, a surface written then read; one line per check, "NAME: ok"
// or what failed.
#include <cmath>
#include <cstdio>

#include <channel_descriptor.h>
#include <cuda_texture_types.h>
#include <surface_functions.h>
#include <texture_fetch_functions.h>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

__global__ void fetch_1d(cudaTextureObject_t t, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

__global__ void sample_1d(cudaTextureObject_t t, float *out, float x) { out[0] = tex1D<float>(t, x); }

// Reads its texture once the host sets `go`: after the host destroyed it.
__global__ void fetch_when_told(cudaTextureObject_t t, float *out, volatile int *go) {
  while (!*go) {
  }
  out[0] = tex1Dfetch<float>(t, 3);
}

__global__ void sample_2d(cudaTextureObject_t t, float *out, int w, int h, float offset) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + offset, y + offset);
}

__global__ void sample_normalized(cudaTextureObject_t t, float4 *out, float u, float v) {
  out[0] = tex2D<float4>(t, u, v);
}

__global__ void sample_uchar(cudaTextureObject_t t, float *out) { out[0] = tex2D<float>(t, 1.5f, 0.5f); }

// Each texel of each face of each of `layers` cubemaps, sampled at its
// centre from the direction that points at it (CUDA's table of faces).
__global__ void sample_cubemap(cudaTextureObject_t t, float *out, int n, int layers) {
  int x = threadIdx.x, y = threadIdx.y;
  float u = (x + 0.5f) / n * 2 - 1, v = (y + 0.5f) / n * 2 - 1;
  const float directions[6][3] = {{1, -v, -u}, {-1, -v, u}, {u, 1, v}, {u, -1, -v}, {u, -v, 1}, {-u, -v, -1}};
  for (int layer = 0; layer < layers; layer++)
    for (int face = 0; face < 6; face++) {
      const float *d = directions[face];
      out[((layer * 6 + face) * n + y) * n + x] = layers == 1 ? texCubemap<float>(t, d[0], d[1], d[2])
                                                              : texCubemapLayered<float>(t, d[0], d[1], d[2], layer);
    }
}

__global__ void write_surface(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) surf2Dwrite(x * 10 + y, s, x * static_cast<int>(sizeof(int)), y, cudaBoundaryModeTrap);
}

__global__ void read_surface(cudaSurfaceObject_t s, int *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = surf2Dread<int>(s, x * static_cast<int>(sizeof(int)), y) + 1;
  if (x == 0 && y == 0) out[w * h] = surf2Dread<int>(s, -4, 0, cudaBoundaryModeZero) +
                                     surf2Dread<int>(s, w * 4 + 8, 0, cudaBoundaryModeClamp);
}

static bool near(float a, float b) { return std::fabs(a - b) < 1e-4f; }

int main() {
  // ---- channel descriptors ----
  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
  CHECK("channel_desc", f1.x == 32 && f1.y == 0 && f1.f == cudaChannelFormatKindFloat && u4.x == 8 && u4.w == 8 &&
                            u4.f == cudaChannelFormatKindUnsigned && f4.w == 32);

  // ---- 1D texture of linear memory ----
  const int n = 8;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = 10.0f * i;
  float *linear = nullptr, *out = nullptr;
  cudaMalloc(&linear, sizeof host);
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemcpy(linear, host, sizeof host, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = linear;
  res.res.linear.desc = f1;
  res.res.linear.sizeInBytes = sizeof host;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex_linear = 0;
  CHECK("create_linear", cudaCreateTextureObject(&tex_linear, &res, &td, nullptr) == cudaSuccess && tex_linear);
  fetch_1d<<<1, n>>>(tex_linear, out, n);
  float back[64] = {};
  cudaMemcpy(back, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  CHECK("fetch_1d", back[0] == 0.0f && back[3] == 30.0f && back[7] == 70.0f);
  // Described past its memory, as CUDA allows: the texture ends with it.
  cudaResourceDesc res_past = res;
  res_past.res.linear.sizeInBytes = 2 * sizeof host;
  cudaTextureObject_t tex_past = 0;
  bool past_made = cudaCreateTextureObject(&tex_past, &res_past, &td, nullptr) == cudaSuccess;
  fetch_1d<<<1, 2 * n>>>(tex_past, out, 2 * n);
  float past_back[2 * n] = {};
  cudaMemcpy(past_back, out, sizeof past_back, cudaMemcpyDeviceToHost);
  CHECK("linear_past_its_memory",
        past_made && past_back[7] == 70.0f && past_back[8] == 0.0f && past_back[15] == 0.0f &&
            cudaDestroyTextureObject(tex_past) == cudaSuccess);
  cudaResourceDesc res_back = {};
  cudaTextureDesc td_back = {};
  CHECK("object_descs", cudaGetTextureObjectResourceDesc(&res_back, tex_linear) == cudaSuccess &&
                            res_back.resType == cudaResourceTypeLinear && res_back.res.linear.devPtr == linear &&
                            cudaGetTextureObjectTextureDesc(&td_back, tex_linear) == cudaSuccess &&
                            td_back.readMode == cudaReadModeElementType);

  // ---- 1D array, point and linear filtering ----
  cudaArray_t line = nullptr;
  CHECK("malloc_array_1d", cudaMallocArray(&line, &f1, n) == cudaSuccess && line);
  CHECK("memcpy_to_array", cudaMemcpyToArray(line, 0, 0, host, sizeof host, cudaMemcpyHostToDevice) == cudaSuccess);
  cudaResourceDesc res_line = {};
  res_line.resType = cudaResourceTypeArray;
  res_line.res.array.array = line;
  cudaTextureDesc point = {};
  point.addressMode[0] = cudaAddressModeClamp;
  point.filterMode = cudaFilterModePoint;
  cudaTextureDesc linear_filter = point;
  linear_filter.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t tex_point = 0, tex_lerp = 0;
  cudaCreateTextureObject(&tex_point, &res_line, &point, nullptr);
  cudaCreateTextureObject(&tex_lerp, &res_line, &linear_filter, nullptr);
  sample_1d<<<1, 1>>>(tex_point, out, 2.7f);
  sample_1d<<<1, 1>>>(tex_lerp, out + 1, 2.75f);
  sample_1d<<<1, 1>>>(tex_point, out + 2, 100.0f);
  cudaMemcpy(back, out, 3 * sizeof(float), cudaMemcpyDeviceToHost);
  CHECK("tex1d_point", back[0] == 20.0f);
  CHECK("tex1d_linear", near(back[1], 22.5f));
  CHECK("tex1d_clamp", back[2] == 70.0f);

  // ---- 2D array by cudaMemcpy2DToArray, read back ----
  const int w = 4, h = 3;
  float grid[h][w];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) grid[y][x] = static_cast<float>(y * 100 + x);
  cudaArray_t plane = nullptr;
  CHECK("malloc_array_2d", cudaMallocArray(&plane, &f1, w, h) == cudaSuccess);
  CHECK("memcpy_2d_to_array", cudaMemcpy2DToArray(plane, 0, 0, grid, sizeof grid[0], sizeof grid[0], h,
                                                  cudaMemcpyHostToDevice) == cudaSuccess);
  float grid_back[h][w] = {};
  CHECK("memcpy_2d_from_array", cudaMemcpy2DFromArray(grid_back, sizeof grid_back[0], plane, 0, 0,
                                                      sizeof grid_back[0], h, cudaMemcpyDeviceToHost) ==
                                        cudaSuccess &&
                                    grid_back[2][3] == 203.0f);
  cudaChannelFormatDesc got = {};
  cudaExtent extent = {};
  CHECK("array_info", cudaGetChannelDesc(&got, plane) == cudaSuccess && got.x == 32 &&
                          got.f == cudaChannelFormatKindFloat &&
                          cudaArrayGetInfo(nullptr, &extent, nullptr, plane) == cudaSuccess && extent.width == 4 &&
                          extent.height == 3);
  cudaResourceDesc res_plane = {};
  res_plane.resType = cudaResourceTypeArray;
  res_plane.res.array.array = plane;
  cudaTextureObject_t tex_plane = 0, tex_plane_lerp = 0;
  point.addressMode[1] = cudaAddressModeClamp;
  linear_filter.addressMode[1] = cudaAddressModeClamp;
  cudaCreateTextureObject(&tex_plane, &res_plane, &point, nullptr);
  cudaCreateTextureObject(&tex_plane_lerp, &res_plane, &linear_filter, nullptr);
  sample_2d<<<1, dim3(w, h)>>>(tex_plane, out, w, h, 0.5f);
  cudaMemcpy(back, out, w * h * sizeof(float), cudaMemcpyDeviceToHost);
  CHECK("tex2d_point", back[0] == 0.0f && back[w + 1] == 101.0f && back[2 * w + 3] == 203.0f);
  sample_2d<<<1, dim3(w, h)>>>(tex_plane_lerp, out, w, h, 1.0f);  // halfway between texels
  cudaMemcpy(back, out, w * h * sizeof(float), cudaMemcpyDeviceToHost);
  CHECK("tex2d_linear", near(back[0], 50.5f) && near(back[w + 1], 151.5f));

  // ---- pitched memory, normalized coordinates, wrap ----
  float4 *pitched = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(&pitched, &pitch, w * sizeof(float4), h);
  float4 texels[h][w];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) texels[y][x] = make_float4(x, y, 1.0f, -1.0f);
  cudaMemcpy2D(pitched, pitch, texels, sizeof texels[0], sizeof texels[0], h, cudaMemcpyHostToDevice);
  cudaResourceDesc res_pitch = {};
  res_pitch.resType = cudaResourceTypePitch2D;
  res_pitch.res.pitch2D.devPtr = pitched;
  res_pitch.res.pitch2D.desc = cudaCreateChannelDesc<float4>();
  res_pitch.res.pitch2D.width = w;
  res_pitch.res.pitch2D.height = h;
  res_pitch.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc normalized = {};
  normalized.addressMode[0] = normalized.addressMode[1] = cudaAddressModeWrap;
  normalized.filterMode = cudaFilterModePoint;
  normalized.normalizedCoords = 1;
  cudaTextureObject_t tex_norm = 0;
  CHECK("create_pitch2d", cudaCreateTextureObject(&tex_norm, &res_pitch, &normalized, nullptr) == cudaSuccess);
  float4 *out4 = nullptr;
  cudaMalloc(&out4, 2 * sizeof(float4));
  sample_normalized<<<1, 1>>>(tex_norm, out4, 0.6f, 0.5f);        // texel (2, 1)
  sample_normalized<<<1, 1>>>(tex_norm, out4 + 1, 1.1f, -0.1f);   // wraps to texel (0, 2)
  float4 v[2];
  cudaMemcpy(v, out4, sizeof v, cudaMemcpyDeviceToHost);
  CHECK("normalized_coords", v[0].x == 2.0f && v[0].y == 1.0f && v[0].z == 1.0f && v[0].w == -1.0f);
  CHECK("address_wrap", v[1].x == 0.0f && v[1].y == 2.0f);

  // ---- 8-bit texels read as normalized floats ----
  cudaChannelFormatDesc u1 = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t bytes = nullptr;
  unsigned char byte_row[4] = {0, 51, 255, 102};
  cudaMallocArray(&bytes, &u1, 4, 1);
  cudaMemcpy2DToArray(bytes, 0, 0, byte_row, 4, 4, 1, cudaMemcpyHostToDevice);
  cudaResourceDesc res_bytes = {};
  res_bytes.resType = cudaResourceTypeArray;
  res_bytes.res.array.array = bytes;
  cudaTextureDesc as_float = {};
  as_float.readMode = cudaReadModeNormalizedFloat;
  as_float.filterMode = cudaFilterModePoint;
  cudaTextureObject_t tex_bytes = 0;
  cudaCreateTextureObject(&tex_bytes, &res_bytes, &as_float, nullptr);
  sample_uchar<<<1, 1>>>(tex_bytes, out);
  cudaMemcpy(back, out, sizeof(float), cudaMemcpyDeviceToHost);
  CHECK("read_normalized_float", near(back[0], 0.2f));

  // ---- a 3D array filled by cudaMemcpy3D ----
  cudaArray_t volume = nullptr;
  CHECK("malloc_3d_array", cudaMalloc3DArray(&volume, &f1, make_cudaExtent(w, h, 2)) == cudaSuccess);
  float slabs[2][h][w], slabs_back[2][h][w] = {};
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) slabs[z][y][x] = static_cast<float>(z * 1000 + y * 10 + x);
  cudaMemcpy3DParms to = {};
  to.srcPtr = make_cudaPitchedPtr(slabs, w * sizeof(float), w, h);
  to.dstArray = volume;
  to.extent = make_cudaExtent(w, h, 2);
  to.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DParms from = {};
  from.srcArray = volume;
  from.dstPtr = make_cudaPitchedPtr(slabs_back, w * sizeof(float), w, h);
  from.extent = make_cudaExtent(w, h, 2);
  from.kind = cudaMemcpyDeviceToHost;
  CHECK("memcpy_3d_array", cudaMemcpy3D(&to) == cudaSuccess && cudaMemcpy3D(&from) == cudaSuccess &&
                               slabs_back[1][2][3] == 1023.0f);

  // ---- a surface written, then read ----
  cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
  cudaArray_t surface_array = nullptr;
  cudaMallocArray(&surface_array, &i1, w, h, cudaArraySurfaceLoadStore);
  cudaResourceDesc res_surface = {};
  res_surface.resType = cudaResourceTypeArray;
  res_surface.res.array.array = surface_array;
  cudaSurfaceObject_t surface = 0;
  CHECK("create_surface", cudaCreateSurfaceObject(&surface, &res_surface) == cudaSuccess && surface);
  int *ints = nullptr;
  cudaMalloc(&ints, (w * h + 1) * sizeof(int));
  write_surface<<<1, dim3(w, h)>>>(surface, w, h);
  read_surface<<<1, dim3(w, h)>>>(surface, ints, w, h);
  int ints_back[w * h + 1] = {};
  cudaMemcpy(ints_back, ints, sizeof ints_back, cudaMemcpyDeviceToHost);
  CHECK("surface_write_read", ints_back[0] == 1 && ints_back[w + 2] == 22 && ints_back[2 * w + 3] == 33);
  CHECK("surface_boundary", ints_back[w * h] == 30);  // zero, then clamped to (3, 0)
  int from_array[h][w] = {};
  cudaMemcpy2DFromArray(from_array, sizeof from_array[0], surface_array, 0, 0, sizeof from_array[0], h,
                        cudaMemcpyDeviceToHost);
  CHECK("surface_in_array", from_array[1][2] == 21);

  // ---- cubemaps, one and two layers of six faces ----
  bool cubes = true;
  for (int layers = 1; layers <= 2; layers++) {
    const int n = 4, texels = layers * 6 * n * n;
    cudaArray_t cube = nullptr;
    cubes = cubes && cudaMalloc3DArray(&cube, &f1, make_cudaExtent(n, n, 6 * layers),
                                       cudaArrayCubemap | (layers > 1 ? cudaArrayLayered : 0)) == cudaSuccess;
    float faces[2 * 6 * n * n], sampled[2 * 6 * n * n] = {};
    for (int i = 0; i < texels; i++) faces[i] = static_cast<float>(i / (n * n) * 100 + i % (n * n));
    cudaMemcpy3DParms copy = {};
    copy.srcPtr = make_cudaPitchedPtr(faces, n * sizeof(float), n, n);
    copy.dstArray = cube;
    copy.extent = make_cudaExtent(n, n, 6 * layers);
    copy.kind = cudaMemcpyHostToDevice;
    cudaResourceDesc cube_res = {};
    cube_res.resType = cudaResourceTypeArray;
    cube_res.res.array.array = cube;
    cudaTextureDesc cube_desc = {};
    cube_desc.normalizedCoords = 1;
    cube_desc.filterMode = cudaFilterModeLinear;  // at the texels' centres: their own values
    cudaTextureObject_t cube_tex = 0;
    float *cube_out = nullptr;
    cudaMalloc(&cube_out, sizeof sampled);
    bool made = cudaMemcpy3D(&copy) == cudaSuccess &&
                cudaCreateTextureObject(&cube_tex, &cube_res, &cube_desc, nullptr) == cudaSuccess;
    if (made) sample_cubemap<<<1, dim3(n, n)>>>(cube_tex, cube_out, n, layers);
    cubes = cubes && made && cudaMemcpy(sampled, cube_out, sizeof sampled, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (int i = 0; i < texels; i++) cubes = cubes && sampled[i] == faces[i];
    cudaDestroyTextureObject(cube_tex);
    cudaFree(cube_out);
    cudaFreeArray(cube);
  }
  CHECK("cubemap_faces", cubes);
  cudaArray_t not_square = nullptr;
  CHECK("cubemap_refused",
        cudaMalloc3DArray(&not_square, &f1, make_cudaExtent(4, 2, 6), cudaArrayCubemap) == cudaErrorInvalidValue &&
            cudaMalloc3DArray(&not_square, &f1, make_cudaExtent(4, 4, 5), cudaArrayCubemap) == cudaErrorInvalidValue &&
            cudaGetLastError() == cudaErrorInvalidValue);

  // ---- refused and cleanup ----
  cudaMipmappedArray_t mipmapped = nullptr;
  CHECK("mipmapped_refused", cudaMallocMipmappedArray(&mipmapped, &f1, make_cudaExtent(8, 8, 0), 2) ==
                                     cudaErrorNotSupported &&
                                 cudaGetLastError() == cudaErrorNotSupported);
  CHECK("destroy", cudaDestroyTextureObject(tex_linear) == cudaSuccess &&
                       cudaDestroyTextureObject(tex_point) == cudaSuccess &&
                       cudaDestroyTextureObject(tex_lerp) == cudaSuccess &&
                       cudaDestroyTextureObject(tex_plane) == cudaSuccess &&
                       cudaDestroyTextureObject(tex_plane_lerp) == cudaSuccess &&
                       cudaDestroyTextureObject(tex_norm) == cudaSuccess &&
                       cudaDestroyTextureObject(tex_bytes) == cudaSuccess &&
                       cudaDestroySurfaceObject(surface) == cudaSuccess && cudaFreeArray(line) == cudaSuccess &&
                       cudaFreeArray(plane) == cudaSuccess && cudaFreeArray(bytes) == cudaSuccess &&
                       cudaFreeArray(volume) == cudaSuccess && cudaFreeArray(surface_array) == cudaSuccess);
  CHECK("no_error", cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess);

  // A texture destroyed right after the launch of a kernel that reads it on
  // a stream, as programs do: the kernel still reads it, though other
  // objects are made in the meantime.
  float *queued_values, *queued_out;
  int *go;
  cudaMalloc(&queued_values, 8 * sizeof(float));
  cudaMalloc(&queued_out, sizeof(float));
  cudaHostAlloc(&go, sizeof(int), cudaHostAllocMapped);
  *go = 0;
  float eights[8] = {0, 8, 16, 24, 32, 40, 48, 56};
  cudaMemcpy(queued_values, eights, sizeof eights, cudaMemcpyHostToDevice);
  cudaResourceDesc queued_resource = {};
  queued_resource.resType = cudaResourceTypeLinear;
  queued_resource.res.linear.devPtr = queued_values;
  queued_resource.res.linear.desc = cudaCreateChannelDesc<float>();
  queued_resource.res.linear.sizeInBytes = sizeof eights;
  cudaTextureDesc queued_desc = {};
  cudaTextureObject_t queued = 0, others[8] = {};
  cudaStream_t queue;
  cudaStreamCreateWithFlags(&queue, cudaStreamNonBlocking);
  cudaCreateTextureObject(&queued, &queued_resource, &queued_desc, nullptr);
  fetch_when_told<<<1, 1, 0, queue>>>(queued, queued_out, go);
  bool destroyed = cudaDestroyTextureObject(queued) == cudaSuccess;
  for (cudaTextureObject_t &other : others)  // made on the destroyed one's memory, were it freed (reading 30)
    cudaCreateTextureObject(&other, &res, &queued_desc, nullptr);
  *go = 1;
  float read = 0;
  cudaStreamSynchronize(queue);
  cudaMemcpy(&read, queued_out, sizeof read, cudaMemcpyDeviceToHost);
  CHECK("destroyed_while_queued", destroyed && read == 24.0f);
  for (cudaTextureObject_t other : others) cudaDestroyTextureObject(other);
  return 0;
}
