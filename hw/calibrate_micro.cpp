// File: hw/calibrate_micro.cpp
// The Calibrator's plumbing and the microbenchmark families: gemm, copy, launch, corun.
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "hw/calibrator.h"
#include "hw/cuda_check.h"
#include "hw/intensity_shape.h"
#include "hw/kernels.h"

namespace parallax::hw {

namespace {

double host_seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Calibrator::Calibrator(int device) : device_(device) {
  PX_CUDA(device_, cudaSetDevice(device_));
  PX_CUDA(device_, cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device_));
  PX_CUDA(device_, cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  PX_CUDA(device_, cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
  PX_CUDA(device_, cudaEventCreate(&start_));
  PX_CUDA(device_, cudaEventCreate(&stop_));
}

Calibrator::~Calibrator() {
  // Not checked: destructors do not throw. Nothing here resets or reconfigures the device.
  cudaSetDevice(device_);
  cudaDeviceSynchronize();
  green_.reset();
  gemm_.reset();
  for (auto& [name, buf] : device_buffers_) cudaFree(buf.first);
  if (pinned_.first) cudaFreeHost(pinned_.first);
  std::free(pageable_.first);
  for (cudaEvent_t e : scratch_events_) cudaEventDestroy(e);
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaStreamDestroy(stream_);
  cudaStreamDestroy(side_);
}

void* Calibrator::device_buffer(const std::string& name, size_t bytes) {
  auto& [ptr, size] = device_buffers_[name];
  if (size < bytes) {
    PX_CUDA(device_, cudaDeviceSynchronize());  // the old buffer may still be in use
    if (ptr) PX_CUDA(device_, cudaFree(ptr));
    ptr = nullptr;
    size = 0;
    random_bytes_.erase(name + "/bf16");
    random_bytes_.erase(name + "/fp16");
    PX_CUDA(device_, cudaMalloc(&ptr, bytes));
    size = bytes;
  }
  return ptr;
}

void* Calibrator::pinned_buffer(size_t bytes) {
  if (pinned_.second < bytes) {
    PX_CUDA(device_, cudaDeviceSynchronize());
    if (pinned_.first) PX_CUDA(device_, cudaFreeHost(pinned_.first));
    pinned_ = {nullptr, 0};
    PX_CUDA(device_, cudaMallocHost(&pinned_.first, bytes));
    pinned_.second = bytes;
    std::memset(pinned_.first, 1, bytes);
  }
  return pinned_.first;
}

void* Calibrator::pageable_buffer(size_t bytes) {
  if (pageable_.second < bytes) {
    std::free(pageable_.first);
    pageable_ = {std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096), bytes};
    if (!pageable_.first) throw OutOfMemoryError(fmt::format("host: cannot allocate {} bytes of pageable memory", bytes));
    std::memset(pageable_.first, 1, bytes);  // fault the pages in before timing
  }
  return pageable_.first;
}

CublasLtGemm& Calibrator::gemm() {
  if (!gemm_) gemm_ = std::make_unique<CublasLtGemm>(device_);
  return *gemm_;
}

GreenContexts& Calibrator::green() {
  if (!green_) green_ = std::make_unique<GreenContexts>(device_);
  return *green_;
}

Calibrator::GemmOperands Calibrator::gemm_operands(GemmDtype dtype, int64_t m, int64_t n, int64_t k) {
  const size_t a_bytes = static_cast<size_t>(m * k * 2), b_bytes = static_cast<size_t>(k * n * 2);
  GemmOperands o{device_buffer("gemm_a", a_bytes), device_buffer("gemm_b", b_bytes),
                 device_buffer("gemm_c", static_cast<size_t>(m * n * 2))};
  const bool bf16 = dtype == GemmDtype::bf16;
  // Refill when the dtype changes too: a bf16 pattern read as fp16 is still finite, but keep it honest.
  for (auto [name, ptr, bytes, seed] : {std::tuple{"gemm_a", o.a, a_bytes, 1u}, std::tuple{"gemm_b", o.b, b_bytes, 2u}}) {
    const std::string key = std::string(name) + (bf16 ? "/bf16" : "/fp16");
    if (random_bytes_[key] < bytes) {
      fill_random_halves(ptr, device_buffers_[name].second, bf16, seed, stream_);
      random_bytes_[key] = device_buffers_[name].second;
      random_bytes_[std::string(name) + (bf16 ? "/fp16" : "/bf16")] = 0;
    }
  }
  return o;
}

cudaEvent_t Calibrator::scratch_event() {
  // A ring of events for fork/join; 256 cannot all be pending at once in any case here.
  if (scratch_events_.size() < 256) {
    cudaEvent_t e = nullptr;
    PX_CUDA(device_, cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    scratch_events_.push_back(e);
    return e;
  }
  return scratch_events_[next_scratch_++ % scratch_events_.size()];
}

void Calibrator::fork(cudaStream_t main, cudaStream_t side) {
  cudaEvent_t e = scratch_event();
  PX_CUDA(device_, cudaEventRecord(e, main));
  PX_CUDA(device_, cudaStreamWaitEvent(side, e, 0));
}

void Calibrator::join(cudaStream_t main, cudaStream_t side) { fork(side, main); }

std::vector<double> Calibrator::time_events(const PlanCase& c, const std::function<void()>& enqueue) {
  std::vector<double> samples;
  for (int i = 0; i < c.warmup + c.reps; ++i) {
    PX_CUDA(device_, cudaEventRecord(start_, stream_));
    enqueue();
    PX_CUDA(device_, cudaEventRecord(stop_, stream_));
    PX_CUDA(device_, cudaEventSynchronize(stop_));
    float ms = 0;
    PX_CUDA(device_, cudaEventElapsedTime(&ms, start_, stop_));
    if (i >= c.warmup) samples.push_back(ms * 1e-3);
  }
  PX_CUDA(device_, cudaDeviceSynchronize());
  return samples;
}

std::vector<double> Calibrator::time_host(const PlanCase& c, const std::function<void()>& body) {
  std::vector<double> samples;
  for (int i = 0; i < c.warmup + c.reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const double s = host_seconds(t0);
    if (i >= c.warmup) samples.push_back(s);
  }
  return samples;
}

CaseResult Calibrator::run(const PlanCase& c) {
  PX_CUDA(device_, cudaSetDevice(device_));
  if (c.family == "gemm") return gemm_case(c);
  if (c.family == "copy") return copy_case(c);
  if (c.family == "launch") return launch_case(c);
  if (c.family == "corun") return corun_case(c);
  if (c.family == "swap") return swap_case(c);
  if (c.family == "sm_scaling") return sm_scaling_case(c);
  if (c.family == "interdecom" || c.family == "intrafusion") return overlap_case(c);
  if (c.family == "colocate") return colocate_case(c);
  if (c.family == "serverless") return serverless_case(c);
  if (c.family == "multiplex") return multiplex_case(c);
  throw PlatformError("no executor for family " + c.family);
}

CaseResult Calibrator::gemm_case(const PlanCase& c) {
  const GemmDtype dtype = parse_gemm_dtype(c.get("dtype"));
  const int64_t m = c.get_int("m"), n = c.get_int("n"), k = c.get_int("k");
  const GemmOperands o = gemm_operands(dtype, m, n, k);
  const auto samples = time_events(c, [&] { gemm().run(dtype, m, n, k, o.a, o.b, o.c, stream_); });
  return {rep_stats(samples), c.reps, {}, {}};
}

CaseResult Calibrator::copy_case(const PlanCase& c) {
  const std::string kind = c.get("kind"), mem = c.get("host_memory");
  const auto bytes = static_cast<size_t>(c.get_int("bytes"));
  if (kind == "d2d") {
    char* buf = static_cast<char*>(device_buffer("copy_d2d", 2 * bytes));
    const auto samples = time_events(c, [&] { launch_copy(buf, buf + bytes, bytes, sms_ * kBlocksPerSm, kThreadsPerBlock, stream_); });
    return {rep_stats(samples), c.reps, {}, {}};
  }
  if (kind != "h2d" && kind != "d2h") throw PlatformError("copy kind " + kind + " needs two GPUs");
  void* device = device_buffer("copy_host", bytes);
  const bool pinned = mem == "pinned";
  void* host = pinned ? pinned_buffer(bytes) : pageable_buffer(bytes);
  const cudaMemcpyKind dir = kind == "h2d" ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  void* dst = kind == "h2d" ? device : host;
  const void* src = kind == "h2d" ? host : device;
  std::vector<double> samples;
  if (pinned) {
    samples = time_events(c, [&] { PX_CUDA(device_, cudaMemcpyAsync(dst, src, bytes, dir, stream_)); });
  } else {
    // Pageable copies are staged by the driver on the CPU: the host's clock sees the whole cost.
    samples = time_host(c, [&] {
      PX_CUDA(device_, cudaMemcpyAsync(dst, src, bytes, dir, stream_));
      PX_CUDA(device_, cudaStreamSynchronize(stream_));
    });
  }
  return {rep_stats(samples), c.reps, {}, {}};
}

CaseResult Calibrator::launch_case(const PlanCase& c) {
  const std::string what = c.get("what");
  const int64_t kernels = c.get_int("kernels");
  PX_CUDA(device_, cudaStreamSynchronize(stream_));
  std::vector<double> samples;
  constexpr int kItems = 1000;  // sync and event_record: the cost of one, averaged over this many
  if (what == "launch") {
    // Launch-to-completion of `kernels` back-to-back empty kernels, per kernel.
    samples = time_host(c, [&] {
      for (int64_t i = 0; i < kernels; ++i) launch_empty(stream_);
      PX_CUDA(device_, cudaStreamSynchronize(stream_));
    });
    for (double& s : samples) s /= static_cast<double>(kernels);
  } else if (what == "sync") {
    samples = time_host(c, [&] {
      for (int i = 0; i < kItems; ++i) PX_CUDA(device_, cudaStreamSynchronize(stream_));
    });
    for (double& s : samples) s /= kItems;
  } else {
    cudaEvent_t e = scratch_event();
    samples = time_host(c, [&] {
      for (int i = 0; i < kItems; ++i) PX_CUDA(device_, cudaEventRecord(e, stream_));
    });
    PX_CUDA(device_, cudaStreamSynchronize(stream_));
    for (double& s : samples) s /= kItems;
  }
  return {rep_stats(samples), c.reps, {}, {}};
}

// The co-run matrix: `kernel` timed by events on its own stream while `with` (three times its
// solo work, so it outlasts the kernel) runs beside it; on complementary green contexts when
// sms != all, on two ordinary streams otherwise.
CaseResult Calibrator::corun_case(const PlanCase& c) {
  const std::string sms_s = c.get("sms"), with = c.get("with");
  const int blocks = static_cast<int>(c.get_int("blocks"));
  const IntensityShape mine = intensity_shape(std::stod(c.get("flops")), std::stod(c.get("dram_bytes")), blocks, kThreadsPerBlock,
                                              kIntensityBufferBytes);
  const bool has_with = with != "none";
  IntensityShape theirs;
  if (has_with)
    theirs = intensity_shape(std::stod(c.get("with_flops")), std::stod(c.get("with_dram_bytes")),
                             static_cast<int>(c.get_int("with_blocks")), kThreadsPerBlock, kIntensityBufferBytes);
  void* my_buf = device_buffer("corun_mine", kIntensityBufferBytes);
  void* their_buf = has_with ? device_buffer("corun_theirs", kIntensityBufferBytes) : nullptr;
  CaseResult r;
  cudaStream_t my_stream = stream_, their_stream = side_;
  const int want = sms_s == "all" ? 0 : static_cast<int>(c.get_int("sms"));
  if (want > 0 && !has_with && want % green().rules().green_multiple_sms != 0) {
    // A solo run on what a split leaves (e.g. 100 = 132 - 32): the remainder group of that split.
    const std::vector<GreenGroup>& groups = green().split({green().rules().sms - want}, true);
    my_stream = groups.back().stream;
    r.actual.push_back({"sms", std::to_string(groups.back().sms)});
  } else if (want > 0) {
    const std::vector<GreenGroup>& groups = green().split({want}, has_with);
    my_stream = groups[0].stream;
    r.actual.push_back({"sms", std::to_string(groups[0].sms)});
    if (has_with) {
      their_stream = groups[1].stream;
      r.actual.push_back({"with_sms", std::to_string(groups[1].sms)});
    }
  }
  std::vector<double> samples;
  for (int i = 0; i < c.warmup + c.reps; ++i) {
    if (has_with) launch_intensity(theirs, their_buf, false, their_stream);
    PX_CUDA(device_, cudaEventRecord(start_, my_stream));
    launch_intensity(mine, my_buf, false, my_stream);
    PX_CUDA(device_, cudaEventRecord(stop_, my_stream));
    PX_CUDA(device_, cudaStreamSynchronize(my_stream));
    if (has_with) PX_CUDA(device_, cudaStreamSynchronize(their_stream));
    float ms = 0;
    PX_CUDA(device_, cudaEventElapsedTime(&ms, start_, stop_));
    if (i >= c.warmup) samples.push_back(ms * 1e-3);
  }
  if (sms_s != "all") green().clear();
  r.stats = rep_stats(samples);
  r.reps = c.reps;
  return r;
}

// The streaming or FMA intensity kernel alone on a green context of `sms` SMs (the whole GPU when
// sms is all of them), 8 blocks per SM: how bandwidth and FLOP rate grow with SMs.
CaseResult Calibrator::sm_scaling_case(const PlanCase& c) {
  const int want = static_cast<int>(c.get_int("sms"));
  const bool whole = want >= sms_;
  const IntensityShape shape = intensity_shape(std::stod(c.get("flops")), std::stod(c.get("dram_bytes")),
                                               (whole ? sms_ : want) * kBlocksPerSm, kThreadsPerBlock,
                                               kIntensityBufferBytes);
  void* buf = device_buffer("sm_scaling", kIntensityBufferBytes);
  CaseResult r;
  // The kernel does whole float4 FMAs per element and pass: what it really did replaces the plan's
  // figures (a ridge row's p is sensitive to a few per cent of either).
  const double planned_bytes = std::stod(c.get("dram_bytes"));
  r.actual.push_back({"flops", fmt::format("{:.0f}", shape.flops())});
  r.actual.push_back({"dram_bytes", fmt::format("{:.0f}", shape.dram_bytes(planned_bytes > 0))});
  cudaStream_t stream = stream_;
  if (!whole) {
    const std::vector<GreenGroup>& groups = green().split({want}, false);
    stream = groups[0].stream;
    r.actual.push_back({"sms", std::to_string(groups[0].sms)});
  }
  std::vector<double> samples;
  for (int i = 0; i < c.warmup + c.reps; ++i) {
    PX_CUDA(device_, cudaEventRecord(start_, stream));
    launch_intensity(shape, buf, false, stream);
    PX_CUDA(device_, cudaEventRecord(stop_, stream));
    PX_CUDA(device_, cudaStreamSynchronize(stream));
    float ms = 0;
    PX_CUDA(device_, cudaEventElapsedTime(&ms, start_, stop_));
    if (i >= c.warmup) samples.push_back(ms * 1e-3);
  }
  if (!whole) green().clear();
  r.stats = rep_stats(samples);
  r.reps = c.reps;
  return r;
}

}  // namespace parallax::hw
