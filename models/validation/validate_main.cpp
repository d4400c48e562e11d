// File: models/validation/validate_main.cpp
// parallax-validate-models: refits the GEMM and ring models on the vidur measurements under
// tests/data/vidur/ and prints the held-out error tables of docs/models.md (Markdown), plus the
// fitted parameters to paste into models/calibrated_defaults.cpp and models/calibration/*.yaml.
//   PARALLAX_SOURCE_DIR=/path/to/repo parallax-validate-models      (default: current directory)
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/calibrated_defaults.h"
#include "models/validation/gemm_validation.h"
#include "models/validation/nccl_validation.h"
#include "models/validation/ring_validation.h"
#include "models/validation/vidur_data.h"

namespace {

using namespace parallax::models;

void print_row(const std::string& group, const ErrorSummary& e) {
  fmt::print("| {} | {} | {:.1f} % | {:.1f} % | {:.1f} % | {:.1f} % |\n", group, e.count,
             100 * e.median, 100 * e.p95, 100 * e.max, 100 * e.mean);
}

void print_gemm(const std::string& gpu, const std::string& file, const GpuComputeParams& hw,
                const GpuComputeParams& shipped) {
  const auto rows = read_vidur_gemm_csv(source_dir() + "/tests/data/vidur/compute/" + file);
  const GemmValidation v = fit_and_validate_gemm(rows, hw);
  const GpuComputeParams& p = v.params;
  fmt::print("\n### GEMM, {} ({} rows, {} held out)\n\n", gpu, rows.size(), v.held_out.count);
  fmt::print("fitted: tile_m = {}, tile_n = {}, eta_max = {:.4f}, k_half = {:.1f}, eta_mem = {:.4f}, "
             "overhead_s = {:.3e}; train rms log error {:.4f}\n\n",
             p.tile_m, p.tile_n, p.eta_max, p.k_half, p.eta_mem, p.overhead_s,
             v.train_rms_log_error);
  fmt::print("| held-out group | n | median | P95 | max | mean |\n|---|---|---|---|---|---|\n");
  print_row("all", v.held_out);
  for (const auto& g : v.by_operator) print_row(g.group, g.errors);
  for (const auto& g : v.by_tp) print_row(g.group, g.errors);
  for (const auto& g : v.by_tokens) print_row(g.group, g.errors);
  const GemmValidation s = validate_gemm(rows, shipped);
  fmt::print("\nshipped defaults ({}_gemm_calibrated) on the same held-out rows: median {:.1f} %, "
             "P95 {:.1f} %\n", gpu, 100 * s.held_out.median, 100 * s.held_out.p95);
}

void print_ring(const std::string& gpu, const std::string& box, double link_Bps,
                const RingFit& shipped) {
  const auto rows = read_vidur_all_reduce_csv(source_dir() + "/tests/data/vidur/network/" + box +
                                              "/all_reduce_rank0.csv");
  const RingValidation v = fit_and_validate_ring(rows, link_Bps);
  const RingFit& f = v.fit;
  fmt::print("\n### Ring all-reduce, {} ({} single-node held-out points)\n\n", gpu,
             v.held_out.count);
  fmt::print("fitted: link {:.0f} GB/s, base_latency_s = {:.3e}, step_latency_s = {:.3e}, "
             "bandwidth_efficiency = {:.4f} (effective {:.1f} GB/s)\n\n",
             f.link_Bps / 1e9, f.base_latency_s, f.step_latency_s, f.bandwidth_efficiency,
             f.bandwidth_efficiency * f.link_Bps / 1e9);
  fmt::print("| GPUs | size band | n | median | P95 | max | mean |\n|---|---|---|---|---|---|---|\n");
  for (const auto& g : v.by_ranks_and_band) {
    print_row(fmt::format("{} | {}", g.ranks, g.band), g.errors);
  }
  print_row("all | all", v.held_out);
  const RingValidation s = validate_ring(rows, shipped);
  fmt::print("\nshipped defaults ({}_dgx_ring_calibrated) on the same held-out points: median "
             "{:.1f} %, P95 {:.1f} %\n", gpu, 100 * s.held_out.median, 100 * s.held_out.p95);
}

std::string gpus_label(int64_t ranks, VidurNodes nodes) {
  return nodes == VidurNodes::one ? fmt::format("{}", ranks) : fmt::format("2x{}", ranks / 2);
}

void print_nccl_table(const NcclValidation& v, VidurNodes nodes) {
  fmt::print("| GPUs | size band | n | median | P95 | max | mean |\n|---|---|---|---|---|---|---|\n");
  for (const auto& g : v.by_ranks_and_band) print_row(fmt::format("{} | {}", gpus_label(g.ranks, nodes), g.band), g.errors);
  for (const auto& g : v.from_1MiB) print_row(fmt::format("{} | {}", gpus_label(g.ranks, nodes), g.band), g.errors);
  print_row("all | all", v.all);
}

void print_nccl(const std::string& gpu, const std::string& box, const NcclBox& nccl_box, VidurNodes nodes) {
  const auto rows = read_vidur_all_reduce_csv(source_dir() + "/tests/data/vidur/network/" + box +
                                              "/all_reduce_rank0.csv");
  const char* which = nodes == VidurNodes::one ? "single-node" : "two-node";
  fmt::print("\n### NCCL protocol model, all-reduce, {}: preset (uncalibrated, every {} row)\n\n", gpu, which);
  print_nccl_table(validate_nccl_preset(rows, nccl_box, nodes), nodes);
  fmt::print("\n### NCCL protocol model, all-reduce, {}: calibrated per GPU count ({} rows, held-out sizes)\n\n", gpu, which);
  print_nccl_table(validate_nccl_calibrated(rows, nodes), nodes);
}

}  // namespace

int main() {
  try {
    fmt::print("## models/ validation against microsoft/vidur 7d47513 measurements\n");
    print_gemm("a100", "a100/llama2_7b_gemm.csv", a100_sxm_hardware(), a100_sxm_gemm_calibrated());
    print_gemm("h100", "h100/llama2_7b_gemm.csv", h100_sxm_hardware(), h100_sxm_gemm_calibrated());
    print_ring("a100", "a100_dgx", kA100NvlinkPerGpu_Bps, a100_dgx_ring_calibrated());
    print_ring("h100", "h100_dgx", kH100NvlinkPerGpu_Bps, h100_dgx_ring_calibrated());
    print_nccl("a100", "a100_dgx", dgx_a100_nccl_box(), VidurNodes::one);
    print_nccl("h100", "h100_dgx", dgx_h100_nccl_box(), VidurNodes::one);
    print_nccl("a100", "a100_dgx", dgx_a100_nccl_box(), VidurNodes::two);
  } catch (const std::exception& e) {
    fmt::print(stderr, "parallax-validate-models: {}\n", e.what());
    return 1;
  }
  return 0;
}
