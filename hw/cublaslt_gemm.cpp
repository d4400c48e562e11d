// File: hw/cublaslt_gemm.cpp
#include "hw/cublaslt_gemm.h"

#include <cublasLt.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hw/cuda_check.h"
#include "hw/shared_library.h"

namespace parallax::hw {

namespace {
constexpr size_t kWorkspaceBytes = 64ull << 20;
constexpr int kCandidates = 8;  // heuristic's best algorithms, timed once per shape
}  // namespace

GemmDtype parse_gemm_dtype(const std::string& s) {
  if (s == "bf16") return GemmDtype::bf16;
  if (s == "fp16") return GemmDtype::fp16;
  throw std::invalid_argument("GEMM dtype must be bf16 or fp16, not '" + s + "'");
}

struct CublasLtGemm::Api {
  SharedLibrary lib{cuda_library_candidates("libcublasLt.so.13")};
  decltype(&::cublasLtCreate) create;
  decltype(&::cublasLtDestroy) destroy;
  decltype(&::cublasLtGetStatusString) status_string;
  decltype(&::cublasLtMatmulDescCreate) desc_create;
  decltype(&::cublasLtMatmulDescDestroy) desc_destroy;
  decltype(&::cublasLtMatmulDescSetAttribute) desc_set;
  decltype(&::cublasLtMatrixLayoutCreate) layout_create;
  decltype(&::cublasLtMatrixLayoutDestroy) layout_destroy;
  decltype(&::cublasLtMatmulPreferenceCreate) pref_create;
  decltype(&::cublasLtMatmulPreferenceDestroy) pref_destroy;
  decltype(&::cublasLtMatmulPreferenceSetAttribute) pref_set;
  decltype(&::cublasLtMatmulAlgoGetHeuristic) heuristic;
  decltype(&::cublasLtMatmul) matmul;
  Api() {
    lib.bind(create, "cublasLtCreate");
    lib.bind(destroy, "cublasLtDestroy");
    lib.bind(status_string, "cublasLtGetStatusString");
    lib.bind(desc_create, "cublasLtMatmulDescCreate");
    lib.bind(desc_destroy, "cublasLtMatmulDescDestroy");
    lib.bind(desc_set, "cublasLtMatmulDescSetAttribute");
    lib.bind(layout_create, "cublasLtMatrixLayoutCreate");
    lib.bind(layout_destroy, "cublasLtMatrixLayoutDestroy");
    lib.bind(pref_create, "cublasLtMatmulPreferenceCreate");
    lib.bind(pref_destroy, "cublasLtMatmulPreferenceDestroy");
    lib.bind(pref_set, "cublasLtMatmulPreferenceSetAttribute");
    lib.bind(heuristic, "cublasLtMatmulAlgoGetHeuristic");
    lib.bind(matmul, "cublasLtMatmul");
  }
  void check(cublasStatus_t s, const char* call, int device) const {
    if (s != CUBLAS_STATUS_SUCCESS) throw_library_error("cuBLASLt", static_cast<int>(s), status_string(s), call, device);
  }
};

#define PX_LT(call) api_->check((call), #call, device_)

struct CublasLtGemm::Plan {
  const Api* api = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  std::vector<cublasLtMatmulAlgo_t> candidates;  // heuristic order
  cublasLtMatmulAlgo_t algo{};
  bool tuned = false;
  ~Plan() {
    if (a) api->layout_destroy(a);
    if (b) api->layout_destroy(b);
    if (c) api->layout_destroy(c);
    if (desc) api->desc_destroy(desc);
  }
};

CublasLtGemm::CublasLtGemm(int device) : device_(device), api_(std::make_unique<Api>()) {
  PX_CUDA(device_, cudaSetDevice(device_));
  cublasLtHandle_t h = nullptr;
  PX_LT(api_->create(&h));
  handle_ = h;
  PX_CUDA(device_, cudaMalloc(&workspace_, kWorkspaceBytes));
  PX_CUDA(device_, cudaEventCreate(&start_));
  PX_CUDA(device_, cudaEventCreate(&stop_));
}

CublasLtGemm::~CublasLtGemm() {
  plans_.clear();
  if (start_) cudaEventDestroy(start_);  // not checked: destructors do not throw
  if (stop_) cudaEventDestroy(stop_);
  if (workspace_) cudaFree(workspace_);
  if (handle_) api_->destroy(static_cast<cublasLtHandle_t>(handle_));
}

CublasLtGemm::Plan& CublasLtGemm::plan(GemmDtype dtype, int64_t m, int64_t n, int64_t k, int sm_target) {
  const auto key = std::make_tuple(static_cast<int>(dtype), m, n, k, sm_target);
  if (auto it = plans_.find(key); it != plans_.end()) return *it->second;
  auto p = std::make_unique<Plan>();
  p->api = api_.get();
  const cudaDataType_t t = dtype == GemmDtype::bf16 ? CUDA_R_16BF : CUDA_R_16F;
  PX_LT(api_->desc_create(&p->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t trans = CUBLAS_OP_T, no = CUBLAS_OP_N;
  PX_LT(api_->desc_set(p->desc, CUBLASLT_MATMUL_DESC_TRANSA, &trans, sizeof trans));
  PX_LT(api_->desc_set(p->desc, CUBLASLT_MATMUL_DESC_TRANSB, &no, sizeof no));
  if (sm_target > 0) {
    const int32_t target = sm_target;
    PX_LT(api_->desc_set(p->desc, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &target, sizeof target));
  }
  PX_LT(api_->layout_create(&p->a, t, static_cast<uint64_t>(k), static_cast<uint64_t>(m), k));
  PX_LT(api_->layout_create(&p->b, t, static_cast<uint64_t>(k), static_cast<uint64_t>(n), k));
  PX_LT(api_->layout_create(&p->c, t, static_cast<uint64_t>(m), static_cast<uint64_t>(n), m));
  cublasLtMatmulPreference_t pref = nullptr;
  PX_LT(api_->pref_create(&pref));
  const uint64_t ws = kWorkspaceBytes;
  cublasLtMatmulHeuristicResult_t results[kCandidates] = {};
  int found = 0;
  try {
    PX_LT(api_->pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
    PX_LT(api_->heuristic(static_cast<cublasLtHandle_t>(handle_), p->desc, p->a, p->b, p->c, p->c, pref, kCandidates, results, &found));
  } catch (...) {
    api_->pref_destroy(pref);
    throw;
  }
  api_->pref_destroy(pref);
  if (found < 1)
    throw CudaError(fmt::format("cuBLASLt has no algorithm for a {} GEMM {}x{}x{} on GPU {}",
                                dtype == GemmDtype::bf16 ? "bf16" : "fp16", m, n, k, device_),
                    0);
  for (int i = 0; i < found; ++i)
    if (results[i].state == CUBLAS_STATUS_SUCCESS) p->candidates.push_back(results[i].algo);
  if (p->candidates.empty()) throw CudaError(fmt::format("cuBLASLt's heuristic failed for {}x{}x{} on GPU {}", m, n, k, device_), 0);
  p->algo = p->candidates.front();
  return *(plans_[key] = std::move(p));
}

void CublasLtGemm::run(GemmDtype dtype, int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c,
                       cudaStream_t stream, int sm_target) {
  Plan& p = plan(dtype, m, n, k, sm_target);
  const float alpha = 1.0f, beta = 0.0f;
  const auto matmul = [&](const cublasLtMatmulAlgo_t& algo) {
    PX_LT(api_->matmul(static_cast<cublasLtHandle_t>(handle_), p.desc, &alpha, a, p.a, b, p.b, &beta, c, p.c, c, p.c,
                       &algo, workspace_, kWorkspaceBytes, stream));
  };
  if (!p.tuned && p.candidates.size() > 1) {
    // The heuristic's first choice is not always the fastest: time each candidate (1 warm-up + 3
    // runs, events) on this stream once and keep the fastest.
    float best = -1;
    for (const cublasLtMatmulAlgo_t& algo : p.candidates) {
      matmul(algo);
      PX_CUDA(device_, cudaEventRecord(start_, stream));
      for (int i = 0; i < 3; ++i) matmul(algo);
      PX_CUDA(device_, cudaEventRecord(stop_, stream));
      PX_CUDA(device_, cudaEventSynchronize(stop_));
      float ms = 0;
      PX_CUDA(device_, cudaEventElapsedTime(&ms, start_, stop_));
      if (best < 0 || ms < best) {
        best = ms;
        p.algo = algo;
      }
    }
  }
  p.tuned = true;
  matmul(p.algo);
}

}  // namespace parallax::hw
