// gpusym's hipFFT: hipFFT's plan API over FFTW 3.
//
// A plan keeps the transform's shape and each side's layout, in elements of
// that side (real or complex), as hipFFT's advanced layout describes it.
// An exec call plans FFTW (guru64 interface, FFTW_ESTIMATE, which leaves
// the buffers alone, and FFTW_UNALIGNED, so one FFTW plan serves any
// buffers) in the caller's thread, once per placement and sign, and queues
// the execution in the plan's stream with hipLaunchHostFunc: device memory
// is the process's memory, and the stream's worker runs the FFTW plan on
// the exec call's buffers (fftw_execute_dft and friends, FFTW's thread-safe
// calls).  FFTW's planner is not thread-safe: every plan made or destroyed
// holds fftw_planner.

#include <fftw3.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "hipfft/hipfftXt.h"
#include "stream_work.h"

namespace {

std::mutex fftw_planner;

}  // namespace

// The runtime's record, for initcheck, that device memory was written.
namespace gpusym {
void note_written(uintptr_t address, size_t size);
}

namespace {

/// FFTW's calls for one precision.
template <class Real>
struct Fftw;

template <>
struct Fftw<double> {
  using Complex = fftw_complex;
  using Plan = fftw_plan;
  static Plan dft(int rank, const fftw_iodim64 *dims, int howmany_rank, const fftw_iodim64 *howmany, void *in,
                  void *out, int sign) {
    return fftw_plan_guru64_dft(rank, dims, howmany_rank, howmany, static_cast<Complex *>(in),
                                static_cast<Complex *>(out), sign, FFTW_ESTIMATE | FFTW_UNALIGNED);
  }
  static Plan r2c(int rank, const fftw_iodim64 *dims, int howmany_rank, const fftw_iodim64 *howmany, void *in,
                  void *out) {
    return fftw_plan_guru64_dft_r2c(rank, dims, howmany_rank, howmany, static_cast<double *>(in),
                                    static_cast<Complex *>(out), FFTW_ESTIMATE | FFTW_UNALIGNED);
  }
  static Plan c2r(int rank, const fftw_iodim64 *dims, int howmany_rank, const fftw_iodim64 *howmany, void *in,
                  void *out) {
    return fftw_plan_guru64_dft_c2r(rank, dims, howmany_rank, howmany, static_cast<Complex *>(in),
                                    static_cast<double *>(out), FFTW_ESTIMATE | FFTW_UNALIGNED);
  }
  static void execute_dft(Plan plan, void *in, void *out) {
    fftw_execute_dft(plan, static_cast<Complex *>(in), static_cast<Complex *>(out));
  }
  static void execute_r2c(Plan plan, void *in, void *out) {
    fftw_execute_dft_r2c(plan, static_cast<double *>(in), static_cast<Complex *>(out));
  }
  static void execute_c2r(Plan plan, void *in, void *out) {
    fftw_execute_dft_c2r(plan, static_cast<Complex *>(in), static_cast<double *>(out));
  }
  static void destroy(Plan plan) { fftw_destroy_plan(plan); }
};

template <>
struct Fftw<float> {
  using Complex = fftwf_complex;
  using Plan = fftwf_plan;
  static Plan dft(int rank, const fftw_iodim64 *dims, int howmany_rank, const fftw_iodim64 *howmany, void *in,
                  void *out, int sign) {
    return fftwf_plan_guru64_dft(rank, dims, howmany_rank, howmany, static_cast<Complex *>(in),
                                 static_cast<Complex *>(out), sign, FFTW_ESTIMATE | FFTW_UNALIGNED);
  }
  static Plan r2c(int rank, const fftw_iodim64 *dims, int howmany_rank, const fftw_iodim64 *howmany, void *in,
                  void *out) {
    return fftwf_plan_guru64_dft_r2c(rank, dims, howmany_rank, howmany, static_cast<float *>(in),
                                     static_cast<Complex *>(out), FFTW_ESTIMATE | FFTW_UNALIGNED);
  }
  static Plan c2r(int rank, const fftw_iodim64 *dims, int howmany_rank, const fftw_iodim64 *howmany, void *in,
                  void *out) {
    return fftwf_plan_guru64_dft_c2r(rank, dims, howmany_rank, howmany, static_cast<Complex *>(in),
                                     static_cast<float *>(out), FFTW_ESTIMATE | FFTW_UNALIGNED);
  }
  static void execute_dft(Plan plan, void *in, void *out) {
    fftwf_execute_dft(plan, static_cast<Complex *>(in), static_cast<Complex *>(out));
  }
  static void execute_r2c(Plan plan, void *in, void *out) {
    fftwf_execute_dft_r2c(plan, static_cast<float *>(in), static_cast<Complex *>(out));
  }
  static void execute_c2r(Plan plan, void *in, void *out) {
    fftwf_execute_dft_c2r(plan, static_cast<Complex *>(in), static_cast<float *>(out));
  }
  static void destroy(Plan plan) { fftwf_destroy_plan(plan); }
};

enum class Kind { c2c, r2c, c2r };

bool is_double(hipfftType type) { return type == HIPFFT_Z2Z || type == HIPFFT_D2Z || type == HIPFFT_Z2D; }

Kind kind_of(hipfftType type) {
  if (type == HIPFFT_R2C || type == HIPFFT_D2Z) return Kind::r2c;
  if (type == HIPFFT_C2R || type == HIPFFT_Z2D) return Kind::c2r;
  return Kind::c2c;
}

bool is_type(int type) {
  switch (type) {
  case HIPFFT_C2C: case HIPFFT_R2C: case HIPFFT_C2R: case HIPFFT_Z2Z: case HIPFFT_D2Z: case HIPFFT_Z2D:
    return true;
  }
  return false;
}

/// Where one side's elements are: strides per dimension and between batches.
struct Layout {
  std::array<long long, 3> stride{};
  long long distance = 0;
};

/// What a plan computes and its data's layout.  Shared with the executions
/// it has queued, which may outlive hipfftDestroy.
struct Transform {
  hipfftType type{};
  int rank = 0;
  std::array<long long, 3> n{};  // logical sizes, the last the fastest
  long long batch = 1;
  bool advanced = false;  // inembed and onembed given
  Layout in, out;         // when advanced
  double scale = 1.0;

  std::mutex mutex;
  std::map<std::pair<bool, int>, void *> plans;  // (in place, sign) -> FFTW plan

  ~Transform() {
    std::lock_guard lock(fftw_planner);
    for (auto &[key, plan] : plans)
      is_double(type) ? Fftw<double>::destroy(static_cast<fftw_plan>(plan))
                      : Fftw<float>::destroy(static_cast<fftwf_plan>(plan));
  }

  /// Sizes along each dimension of the input (output) side: the complex
  /// side of a real transform has n/2+1 along the last.
  std::array<long long, 3> lengths(bool output) const {
    std::array<long long, 3> result = n;
    Kind kind = kind_of(type);
    if ((kind == Kind::r2c && output) || (kind == Kind::c2r && !output)) result[rank - 1] = n[rank - 1] / 2 + 1;
    return result;
  }

  /// The layout of one side: the advanced one, or contiguous data (the real
  /// side of an in-place real transform padded to 2*(n/2+1) per row).
  Layout layout(bool output, bool in_place) const {
    if (advanced) return output ? out : in;
    std::array<long long, 3> extent = lengths(output);
    Kind kind = kind_of(type);
    bool real_side = (kind == Kind::r2c && !output) || (kind == Kind::c2r && output);
    if (real_side && in_place) extent[rank - 1] = 2 * (n[rank - 1] / 2 + 1);
    Layout result;
    long long step = 1;
    for (int d = rank - 1; d >= 0; --d) {
      result.stride[d] = step;
      step *= extent[d];
    }
    result.distance = step;
    return result;
  }

  /// The FFTW plan for this placement and sign, made on first use.
  template <class Real>
  typename Fftw<Real>::Plan plan(void *in_data, void *out_data, int sign) {
    bool in_place = in_data == out_data;
    std::lock_guard lock(mutex);
    void *&plan = plans[{in_place, sign}];
    if (!plan) {
      Layout i = layout(false, in_place), o = layout(true, in_place);
      fftw_iodim64 dims[3], howmany{batch, i.distance, o.distance};
      for (int d = 0; d < rank; ++d) dims[d] = {n[d], i.stride[d], o.stride[d]};
      std::lock_guard planner(fftw_planner);
      Kind kind = kind_of(type);
      plan = kind == Kind::c2c   ? Fftw<Real>::dft(rank, dims, 1, &howmany, in_data, out_data, sign)
             : kind == Kind::r2c ? Fftw<Real>::r2c(rank, dims, 1, &howmany, in_data, out_data)
                                 : Fftw<Real>::c2r(rank, dims, 1, &howmany, in_data, out_data);
    }
    return static_cast<typename Fftw<Real>::Plan>(plan);
  }

  /// Bytes from the output's first element to past its last.
  size_t output_bytes(bool in_place) const {
    Layout o = layout(true, in_place);
    std::array<long long, 3> extent = lengths(true);
    long long last = (batch - 1) * o.distance;
    for (int d = 0; d < rank; ++d) last += (extent[d] - 1) * o.stride[d];
    size_t element = (is_double(type) ? 8 : 4) * (kind_of(type) == Kind::c2r ? 1 : 2);
    return (last + 1) * element;
  }

  /// Multiplies each output element (each part of a complex one) by scale.
  template <class Real>
  void apply_scale(Real *data, bool in_place) const {
    Layout o = layout(true, in_place);
    std::array<long long, 3> extent = lengths(true);
    int parts = kind_of(type) == Kind::c2r ? 1 : 2;
    long long count[3] = {1, 1, 1}, stride[3] = {0, 0, 0};
    for (int d = 0; d < rank; ++d) {
      count[3 - rank + d] = extent[d];
      stride[3 - rank + d] = o.stride[d];
    }
    for (long long b = 0; b < batch; ++b)
      for (long long i = 0; i < count[0]; ++i)
        for (long long j = 0; j < count[1]; ++j)
          for (long long k = 0; k < count[2]; ++k) {
            Real *element = data + parts * (b * o.distance + i * stride[0] + j * stride[1] + k * stride[2]);
            for (int p = 0; p < parts; ++p) element[p] = static_cast<Real>(element[p] * scale);
          }
  }
};

}  // namespace

struct hipfftHandle_t {
  std::shared_ptr<Transform> transform;  // null until made
  hipStream_t stream = nullptr;
  double scale = 1.0;
  bool auto_allocate = true;
  void *work_area = nullptr;
};

namespace {

/// Checks a plan's description; fills `transform` from it.
template <class Int>
hipfftResult describe(Transform &transform, int rank, const Int *n, const Int *inembed, Int istride, Int idist,
                      const Int *onembed, Int ostride, Int odist, int type, Int batch) {
  if (!is_type(type)) return HIPFFT_INVALID_TYPE;
  if (rank < 1 || rank > 3 || !n) return HIPFFT_INVALID_SIZE;
  if ((inembed == nullptr) != (onembed == nullptr)) return HIPFFT_INVALID_VALUE;
  if (batch < 1) return HIPFFT_INVALID_SIZE;
  transform.type = static_cast<hipfftType>(type);
  transform.rank = rank;
  transform.batch = batch;
  for (int d = 0; d < rank; ++d) {
    if (n[d] < 1) return HIPFFT_INVALID_SIZE;
    transform.n[d] = n[d];
  }
  if (!inembed) return HIPFFT_SUCCESS;
  if (istride < 1 || ostride < 1 || idist < 0 || odist < 0) return HIPFFT_INVALID_VALUE;
  transform.advanced = true;
  for (auto [embed, stride, distance, layout] :
       {std::tuple{inembed, istride, idist, &transform.in}, std::tuple{onembed, ostride, odist, &transform.out}}) {
    long long step = stride;
    for (int d = rank - 1; d >= 0; --d) {
      if (embed[d] < 1) return HIPFFT_INVALID_SIZE;
      layout->stride[d] = step;
      step *= embed[d];
    }
    layout->distance = distance;
  }
  return HIPFFT_SUCCESS;
}

template <class Int>
hipfftResult make_plan(hipfftHandle plan, int rank, const Int *n, const Int *inembed, Int istride, Int idist,
                       const Int *onembed, Int ostride, Int odist, int type, Int batch, size_t *work_size) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  auto transform = std::make_shared<Transform>();
  hipfftResult result = describe(*transform, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
  if (result != HIPFFT_SUCCESS) return result;
  transform->scale = plan->scale;
  plan->transform = std::move(transform);
  if (work_size) *work_size = 0;
  return HIPFFT_SUCCESS;
}

/// The work-area size of a described plan: gpusym's transforms need none.
template <class Int>
hipfftResult size_of(int rank, const Int *n, const Int *inembed, Int istride, Int idist, const Int *onembed,
                     Int ostride, Int odist, int type, Int batch, size_t *work_size) {
  Transform transform;
  hipfftResult result = describe(transform, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
  if (result == HIPFFT_SUCCESS && work_size) *work_size = 0;
  return result;
}

/// One execution queued in a stream.
struct Execution {
  std::shared_ptr<Transform> transform;
  void *plan;
  void *in, *out;
};

template <class Real>
void run(const Execution *execution) {
  auto plan = static_cast<typename Fftw<Real>::Plan>(execution->plan);
  Transform &transform = *execution->transform;
  switch (kind_of(transform.type)) {
  case Kind::c2c: Fftw<Real>::execute_dft(plan, execution->in, execution->out); break;
  case Kind::r2c: Fftw<Real>::execute_r2c(plan, execution->in, execution->out); break;
  case Kind::c2r: Fftw<Real>::execute_c2r(plan, execution->in, execution->out); break;
  }
  bool in_place = execution->in == execution->out;
  if (transform.scale != 1.0) transform.apply_scale(static_cast<Real *>(execution->out), in_place);
  gpusym::note_written(reinterpret_cast<uintptr_t>(execution->out), transform.output_bytes(in_place));
}

/// Queues plan's transform of `in` into `out` in its stream, if the plan
/// is of one of `types`.
hipfftResult execute(hipfftHandle plan, std::initializer_list<hipfftType> types, void *in, void *out, int sign) {
  if (!plan || !plan->transform) return HIPFFT_INVALID_PLAN;
  std::shared_ptr<Transform> transform = plan->transform;
  bool typed = false;
  for (hipfftType type : types) typed |= type == transform->type;
  if (!typed) return HIPFFT_INVALID_VALUE;
  if (!in || !out || (sign != HIPFFT_FORWARD && sign != HIPFFT_BACKWARD)) return HIPFFT_EXEC_FAILED;
  bool double_precision = is_double(transform->type);
  void *fftw_plan = double_precision ? static_cast<void *>(transform->plan<double>(in, out, sign))
                                     : static_cast<void *>(transform->plan<float>(in, out, sign));
  if (!fftw_plan) return HIPFFT_EXEC_FAILED;
  Execution execution{std::move(transform), fftw_plan, in, out};
  auto work = [execution, double_precision] { double_precision ? run<double>(&execution) : run<float>(&execution); };
  return gpusym_library::in_stream_order(plan->stream, work) == hipSuccess ? HIPFFT_SUCCESS : HIPFFT_EXEC_FAILED;
}

}  // namespace

extern "C" {

hipfftResult hipfftCreate(hipfftHandle *plan) {
  if (!plan) return HIPFFT_INVALID_VALUE;
  *plan = new hipfftHandle_t;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftDestroy(hipfftHandle plan) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  delete plan;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftExtPlanScaleFactor(hipfftHandle plan, double scalefactor) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  if (!std::isfinite(scalefactor)) return HIPFFT_INVALID_VALUE;
  plan->scale = scalefactor;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftMakePlanMany64(hipfftHandle plan, int rank, long long *n, long long *inembed, long long istride,
                                  long long idist, long long *onembed, long long ostride, long long odist,
                                  hipfftType type, long long batch, size_t *workSize) {
  return make_plan(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

hipfftResult hipfftMakePlanMany(hipfftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                                int *onembed, int ostride, int odist, hipfftType type, int batch,
                                size_t *workSize) {
  return make_plan(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

hipfftResult hipfftMakePlan1d(hipfftHandle plan, int nx, hipfftType type, int batch, size_t *workSize) {
  return hipfftMakePlanMany(plan, 1, &nx, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
}

hipfftResult hipfftMakePlan2d(hipfftHandle plan, int nx, int ny, hipfftType type, size_t *workSize) {
  int n[] = {nx, ny};
  return hipfftMakePlanMany(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

hipfftResult hipfftMakePlan3d(hipfftHandle plan, int nx, int ny, int nz, hipfftType type, size_t *workSize) {
  int n[] = {nx, ny, nz};
  return hipfftMakePlanMany(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

}  // extern "C"

namespace {

/// Creates a plan and makes it with `make`; none is left when that fails.
template <class Make>
hipfftResult create_and_make(hipfftHandle *plan, Make make) {
  if (!plan) return HIPFFT_INVALID_VALUE;
  hipfftHandle created = new hipfftHandle_t;
  hipfftResult result = make(created);
  if (result != HIPFFT_SUCCESS) {
    delete created;
    return result;
  }
  *plan = created;
  return HIPFFT_SUCCESS;
}

}  // namespace

extern "C" {

hipfftResult hipfftPlan1d(hipfftHandle *plan, int nx, hipfftType type, int batch) {
  return create_and_make(plan, [&](hipfftHandle p) { return hipfftMakePlan1d(p, nx, type, batch, nullptr); });
}

hipfftResult hipfftPlan2d(hipfftHandle *plan, int nx, int ny, hipfftType type) {
  return create_and_make(plan, [&](hipfftHandle p) { return hipfftMakePlan2d(p, nx, ny, type, nullptr); });
}

hipfftResult hipfftPlan3d(hipfftHandle *plan, int nx, int ny, int nz, hipfftType type) {
  return create_and_make(plan, [&](hipfftHandle p) { return hipfftMakePlan3d(p, nx, ny, nz, type, nullptr); });
}

hipfftResult hipfftPlanMany(hipfftHandle *plan, int rank, int *n, int *inembed, int istride, int idist,
                            int *onembed, int ostride, int odist, hipfftType type, int batch) {
  return create_and_make(plan, [&](hipfftHandle p) {
    return hipfftMakePlanMany(p, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, nullptr);
  });
}

hipfftResult hipfftEstimateMany(int rank, int *n, int *inembed, int istride, int idist, int *onembed, int ostride,
                                int odist, hipfftType type, int batch, size_t *workSize) {
  return size_of(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

hipfftResult hipfftEstimate1d(int nx, hipfftType type, int batch, size_t *workSize) {
  return hipfftEstimateMany(1, &nx, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
}

hipfftResult hipfftEstimate2d(int nx, int ny, hipfftType type, size_t *workSize) {
  int n[] = {nx, ny};
  return hipfftEstimateMany(2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

hipfftResult hipfftEstimate3d(int nx, int ny, int nz, hipfftType type, size_t *workSize) {
  int n[] = {nx, ny, nz};
  return hipfftEstimateMany(3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

hipfftResult hipfftGetSizeMany(hipfftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                               int *onembed, int ostride, int odist, hipfftType type, int batch, size_t *workSize) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  return size_of(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

hipfftResult hipfftGetSizeMany64(hipfftHandle plan, int rank, long long *n, long long *inembed, long long istride,
                                 long long idist, long long *onembed, long long ostride, long long odist,
                                 hipfftType type, long long batch, size_t *workSize) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  return size_of(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

hipfftResult hipfftGetSize1d(hipfftHandle plan, int nx, hipfftType type, int batch, size_t *workSize) {
  return hipfftGetSizeMany(plan, 1, &nx, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
}

hipfftResult hipfftGetSize2d(hipfftHandle plan, int nx, int ny, hipfftType type, size_t *workSize) {
  int n[] = {nx, ny};
  return hipfftGetSizeMany(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

hipfftResult hipfftGetSize3d(hipfftHandle plan, int nx, int ny, int nz, hipfftType type, size_t *workSize) {
  int n[] = {nx, ny, nz};
  return hipfftGetSizeMany(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

hipfftResult hipfftGetSize(hipfftHandle plan, size_t *workSize) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  if (workSize) *workSize = 0;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftSetAutoAllocation(hipfftHandle plan, int autoAllocate) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  plan->auto_allocate = autoAllocate != 0;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftSetWorkArea(hipfftHandle plan, void *workArea) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  plan->work_area = workArea;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftSetStream(hipfftHandle plan, hipStream_t stream) {
  if (!plan) return HIPFFT_INVALID_PLAN;
  plan->stream = stream;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftExecC2C(hipfftHandle plan, hipfftComplex *idata, hipfftComplex *odata, int direction) {
  return execute(plan, {HIPFFT_C2C}, idata, odata, direction);
}

hipfftResult hipfftExecZ2Z(hipfftHandle plan, hipfftDoubleComplex *idata, hipfftDoubleComplex *odata,
                           int direction) {
  return execute(plan, {HIPFFT_Z2Z}, idata, odata, direction);
}

hipfftResult hipfftExecR2C(hipfftHandle plan, hipfftReal *idata, hipfftComplex *odata) {
  return execute(plan, {HIPFFT_R2C}, idata, odata, HIPFFT_FORWARD);
}

hipfftResult hipfftExecD2Z(hipfftHandle plan, hipfftDoubleReal *idata, hipfftDoubleComplex *odata) {
  return execute(plan, {HIPFFT_D2Z}, idata, odata, HIPFFT_FORWARD);
}

hipfftResult hipfftExecC2R(hipfftHandle plan, hipfftComplex *idata, hipfftReal *odata) {
  return execute(plan, {HIPFFT_C2R}, idata, odata, HIPFFT_BACKWARD);
}

hipfftResult hipfftExecZ2D(hipfftHandle plan, hipfftDoubleComplex *idata, hipfftDoubleReal *odata) {
  return execute(plan, {HIPFFT_Z2D}, idata, odata, HIPFFT_BACKWARD);
}

hipfftResult hipfftGetVersion(int *version) {
  if (!version) return HIPFFT_INVALID_VALUE;
  *version = hipfftVersionMajor * 10000 + hipfftVersionMinor * 100 + hipfftVersionPatch;
  return HIPFFT_SUCCESS;
}

hipfftResult hipfftGetProperty(hipfftLibraryPropertyType type, int *value) {
  if (!value) return HIPFFT_INVALID_VALUE;
  switch (type) {
  case HIPFFT_MAJOR_VERSION: *value = hipfftVersionMajor; return HIPFFT_SUCCESS;
  case HIPFFT_MINOR_VERSION: *value = hipfftVersionMinor; return HIPFFT_SUCCESS;
  case HIPFFT_PATCH_LEVEL: *value = hipfftVersionPatch; return HIPFFT_SUCCESS;
  }
  return HIPFFT_INVALID_TYPE;
}

/// The hipfftType of an Xt plan's data types, or 0 (not one of hipfft.h's).
static int xt_type(hipDataType input, hipDataType output, hipDataType execution) {
  struct Entry {
    hipDataType input, output, execution;
    hipfftType type;
  };
  static const Entry types[] = {
      {HIP_C_32F, HIP_C_32F, HIP_C_32F, HIPFFT_C2C}, {HIP_R_32F, HIP_C_32F, HIP_C_32F, HIPFFT_R2C},
      {HIP_C_32F, HIP_R_32F, HIP_C_32F, HIPFFT_C2R}, {HIP_C_64F, HIP_C_64F, HIP_C_64F, HIPFFT_Z2Z},
      {HIP_R_64F, HIP_C_64F, HIP_C_64F, HIPFFT_D2Z}, {HIP_C_64F, HIP_R_64F, HIP_C_64F, HIPFFT_Z2D},
  };
  for (const Entry &entry : types)
    if (entry.input == input && entry.output == output && entry.execution == execution) return entry.type;
  return 0;
}

hipfftResult hipfftXtMakePlanMany(hipfftHandle plan, int rank, long long *n, long long *inembed, long long istride,
                                  long long idist, hipDataType inputType, long long *onembed, long long ostride,
                                  long long odist, hipDataType outputType, long long batch, size_t *workSize,
                                  hipDataType executionType) {
  int type = xt_type(inputType, outputType, executionType);
  if (!type) return HIPFFT_NOT_SUPPORTED;
  return make_plan(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

hipfftResult hipfftXtGetSizeMany(hipfftHandle plan, int rank, long long *n, long long *inembed, long long istride,
                                 long long idist, hipDataType inputType, long long *onembed, long long ostride,
                                 long long odist, hipDataType outputType, long long batch, size_t *workSize,
                                 hipDataType executionType) {
  int type = xt_type(inputType, outputType, executionType);
  if (!plan) return HIPFFT_INVALID_PLAN;
  if (!type) return HIPFFT_NOT_SUPPORTED;
  return size_of(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

hipfftResult hipfftXtExec(hipfftHandle plan, void *input, void *output, int direction) {
  if (!plan || !plan->transform) return HIPFFT_INVALID_PLAN;
  switch (kind_of(plan->transform->type)) {
  case Kind::c2c: return execute(plan, {HIPFFT_C2C, HIPFFT_Z2Z}, input, output, direction);
  case Kind::r2c: return execute(plan, {HIPFFT_R2C, HIPFFT_D2Z}, input, output, HIPFFT_FORWARD);
  case Kind::c2r: return execute(plan, {HIPFFT_C2R, HIPFFT_Z2D}, input, output, HIPFFT_BACKWARD);
  }
  return HIPFFT_INTERNAL_ERROR;
}

}  // extern "C"
