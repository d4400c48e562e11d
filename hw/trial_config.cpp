// File: hw/trial_config.cpp
#include "hw/trial_config.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/calibration_data/data_error.h"

namespace parallax::hw {

namespace {

std::string num(double v) { return fmt::format("{}", v); }

std::vector<std::string> split_plus(const std::string& s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    const size_t end = std::min(s.find('+', pos), s.size());
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> colocate_trial_config(const ColocateTrial& t) {
  return {{"policy", t.policy},
          {"ls_model", t.ls_model},
          {"ls_batch", std::to_string(t.ls_batch)},
          {"be_model", t.be_model},
          {"be_batch", std::to_string(t.be_batch)},
          {"ls_load", num(t.ls_load)},
          {"ls_slo_x_solo", num(t.ls_slo_x_solo)},
          {"duration_s", num(t.duration_s)},
          {"seed", std::to_string(t.seed)},
          {"static_ls_sms", std::to_string(t.static_ls_sms)},
          {"sms", std::to_string(t.sms)},
          {"green_min_sms", std::to_string(t.green_min_sms)},
          {"green_multiple_sms", std::to_string(t.green_multiple_sms)},
          {"flops_per_s", num(t.flops_per_s)},
          {"hbm_Bps", num(t.hbm_Bps)},
          {"launch_s", num(t.launch_s)}};
}

ColocateTrial colocate_trial_from(const models::Measurement& r) {
  ColocateTrial t;
  t.policy = r.text("policy");
  t.ls_model = r.text("ls_model");
  t.ls_batch = static_cast<int>(r.number("ls_batch"));
  t.be_model = r.text("be_model");
  t.be_batch = static_cast<int>(r.number("be_batch"));
  t.ls_load = r.number("ls_load");
  t.ls_slo_x_solo = r.number("ls_slo_x_solo");
  t.duration_s = r.number("duration_s");
  t.seed = static_cast<uint64_t>(r.number("seed"));
  t.static_ls_sms = static_cast<int>(r.number("static_ls_sms"));
  t.sms = static_cast<int>(r.number("sms"));
  t.green_min_sms = static_cast<int>(r.number("green_min_sms"));
  t.green_multiple_sms = static_cast<int>(r.number("green_multiple_sms"));
  t.flops_per_s = r.number("flops_per_s");
  t.hbm_Bps = r.number("hbm_Bps");
  t.launch_s = r.number("launch_s");
  if (t.ls_batch < 1 || t.be_batch < 1 || !(t.ls_load > 0) || !(t.duration_s > 0) || t.sms < 1 ||
      !(t.flops_per_s > 0) || !(t.hbm_Bps > 0))
    throw models::DataError(r.file, r.line,
                            fmt::format("colocate case {}: batches, ls_load, duration_s, sms, flops_per_s and hbm_Bps "
                                        "must be > 0",
                                        r.case_id));
  return t;
}

std::vector<TrialMetric> colocate_metrics(std::string_view policy) {
  std::vector<TrialMetric> m{{"ls_p50_latency_s", "s"}, {"ls_p99_latency_s", "s"}, {"ls_slo_attainment", "fraction"}};
  if (policy != "ls_alone") m.push_back({"be_throughput", "1/s"});
  return m;
}

std::vector<std::pair<std::string, std::string>> serverless_trial_config(const ServerlessTrial& t) {
  std::string models;
  for (const std::string& m : t.models) models += (models.empty() ? "" : "+") + m;
  return {{"policy", t.policy},
          {"models", models},
          {"rate_per_s", num(t.rate_per_s)},
          {"duration_s", num(t.duration_s)},
          {"seed", std::to_string(t.seed)},
          {"pool_bytes", std::to_string(t.pool_bytes)},
          {"gpu_kind", t.gpu_kind},
          {"flops_per_s", num(t.flops_per_s)},
          {"launch_s", num(t.launch_s)},
          {"host_link_Bps", num(t.host_link_Bps)}};
}

ServerlessTrial serverless_trial_from(const models::Measurement& r) {
  ServerlessTrial t;
  t.policy = r.text("policy");
  t.models = split_plus(r.text("models"));
  t.rate_per_s = r.number("rate_per_s");
  t.duration_s = r.number("duration_s");
  t.seed = static_cast<uint64_t>(r.number("seed"));
  t.pool_bytes = static_cast<int64_t>(r.number("pool_bytes"));
  t.gpu_kind = r.text("gpu_kind");
  t.flops_per_s = r.number("flops_per_s");
  t.launch_s = r.number("launch_s");
  t.host_link_Bps = r.number("host_link_Bps");
  if (t.models.empty() || !(t.rate_per_s > 0) || !(t.duration_s > 0) || t.pool_bytes < 1 || !(t.flops_per_s > 0) ||
      !(t.host_link_Bps > 0))
    throw models::DataError(r.file, r.line,
                            fmt::format("serverless case {}: needs models and rate_per_s, duration_s, "
                                        "pool_bytes, flops_per_s, host_link_Bps > 0",
                                        r.case_id));
  return t;
}

std::vector<TrialMetric> serverless_metrics() {
  return {{"p50_latency_s", "s"}, {"p99_latency_s", "s"}, {"slo_attainment", "fraction"}, {"swaps", "count"}};
}

}  // namespace parallax::hw
