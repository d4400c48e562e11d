// File: hw/calibration_summary.cpp
#include "hw/calibration_summary.h"

#include <algorithm>
#include <map>
#include <string_view>

#include <fmt/format.h>

namespace parallax::hw {

namespace {

std::string config_value(const models::Measurement& m, std::string_view key) { return m.has(key) ? m.text(key) : std::string(); }
double num(const models::Measurement& m, std::string_view key) { return m.has(key) ? m.number(key) : 0.0; }

}  // namespace

std::string calibration_summary(const std::vector<models::Measurement>& rows) {
  std::map<std::string, size_t> count;
  double best_gemm[2] = {0, 0};  // bf16, fp16 FLOP/s
  std::string best_gemm_case[2];
  double best_d2d = 0, best_h2d = 0, best_d2h = 0, launch_1 = 0;
  double stream_per_sm = 0, stream_sms = 0, stream_best = 0;  // sm_scaling: the fewest SMs' rate, the best rate
  for (const models::Measurement& r : rows) {
    const std::string family(models::to_string(r.family));
    ++count[family];
    if (r.value <= 0) continue;
    if (family == "gemm") {
      const double flops = 2 * num(r, "m") * num(r, "n") * num(r, "k");
      const int i = config_value(r, "dtype") == "bf16" ? 0 : 1;
      if (flops / r.value > best_gemm[i]) {
        best_gemm[i] = flops / r.value;
        best_gemm_case[i] = r.case_id;
      }
    } else if (family == "copy") {
      const double bps = num(r, "bytes") / r.value;
      const std::string kind = config_value(r, "kind");
      const bool pinned = config_value(r, "host_memory") == "pinned";
      if (kind == "d2d") best_d2d = std::max(best_d2d, 2 * bps);
      if (kind == "h2d" && pinned) best_h2d = std::max(best_h2d, bps);
      if (kind == "d2h" && pinned) best_d2h = std::max(best_d2h, bps);
    } else if (family == "sm_scaling" && num(r, "dram_bytes") > 0) {
      const double bps = num(r, "dram_bytes") / r.value;
      stream_best = std::max(stream_best, bps);
      if (stream_sms == 0 || num(r, "sms") < stream_sms) {
        stream_sms = num(r, "sms");
        stream_per_sm = bps / stream_sms;
      }
    } else if (family == "launch" && config_value(r, "what") == "launch" && config_value(r, "kernels") == "1") {
      launch_1 = r.value;
    }
  }
  if (rows.empty()) return "no measurements\n";
  const models::MeasurementProvenance& p = rows.front().provenance;
  const auto mhz = [](const std::optional<double>& v) { return v ? fmt::format("{:.0f}", *v) : std::string("?"); };
  std::string out = fmt::format("{} ({} SMs), driver {}, CUDA {}, SM clock {} MHz, {}, parallax {}\n", p.gpu_name, p.sm_count,
                                p.driver, p.cuda, mhz(p.sm_clock_mhz),
                                p.date, p.git_commit);
  out += fmt::format("{:<12} {:>5}\n", "family", "rows");
  for (const auto& [f, n] : count) out += fmt::format("{:<12} {:>5}\n", f, n);
  const auto pct = [](double x, double ceiling) { return fmt::format("{:.0f}%", 100 * x / ceiling); };
  if (best_gemm[0] > 0)
    out += fmt::format("bf16 GEMM best   {:8.1f} TFLOP/s ({} of {:.0f}; {})\n", best_gemm[0] / 1e12,
                       pct(best_gemm[0], kH200GemmCeilingFlops), kH200GemmCeilingFlops / 1e12, best_gemm_case[0]);
  if (best_gemm[1] > 0)
    out += fmt::format("fp16 GEMM best   {:8.1f} TFLOP/s ({} of {:.0f}; {})\n", best_gemm[1] / 1e12,
                       pct(best_gemm[1], kH200GemmCeilingFlops), kH200GemmCeilingFlops / 1e12, best_gemm_case[1]);
  if (best_d2d > 0)
    out += fmt::format("device copy best {:8.2f} TB/s reads+writes ({} of {:.1f})\n", best_d2d / 1e12,
                       pct(best_d2d, kH200CopyCeilingBps), kH200CopyCeilingBps / 1e12);
  if (best_h2d > 0) out += fmt::format("H2D pinned best  {:8.1f} GB/s\n", best_h2d / 1e9);
  if (best_d2h > 0) out += fmt::format("D2H pinned best  {:8.1f} GB/s\n", best_d2h / 1e9);
  if (launch_1 > 0) out += fmt::format("launch+sync      {:8.1f} us\n", launch_1 * 1e6);
  if (stream_per_sm > 0)
    out += fmt::format("stream per SM    {:8.1f} GB/s on {:.0f} SMs (best {:.2f} TB/s; the presets assume 2·HBM/SMs)\n",
                       stream_per_sm / 1e9, stream_sms, stream_best / 1e12);
  return out;
}

}  // namespace parallax::hw
