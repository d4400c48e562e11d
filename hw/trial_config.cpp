// File: hw/trial_config.cpp
#include "hw/trial_config.h"

#include <algorithm>
#include <iterator>
#include <type_traits>

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

std::vector<double> split_plus_numbers(const models::Measurement& r, std::string_view key) {
  std::vector<double> out;
  for (const std::string& part : split_plus(r.text(key))) {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != part.size() || !(v > 0))
      throw models::DataError(r.file, r.line, fmt::format("case {}: {}={}: '{}' is not a number > 0", r.case_id, key,
                                                          r.text(key), part));
    out.push_back(v);
  }
  return out;
}

template <typename T>
std::string join_plus(const std::vector<T>& items) {
  std::string out;
  for (const T& x : items) {
    if (!out.empty()) out += '+';
    if constexpr (std::is_same_v<T, std::string>) out += x;
    else out += num(x);
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
  return {{"policy", t.policy},
          {"models", join_plus(t.models)},
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

std::string_view overlap_family(const OverlapTrial& t) {
  return t.strategy == "interdecom" ? "interdecom" : "intrafusion";
}

int64_t overlap_copy_bytes(const OverlapTrial& t) {
  const int64_t s = t.op == "ag_gemm" ? t.m * t.k * 2 : t.m * t.n * 2;
  return s / t.tp * (t.tp - 1);
}

std::vector<std::pair<std::string, std::string>> overlap_trial_config(const OverlapTrial& t) {
  // The family's schema keys first (measurement_csv.cpp), then what else defines the trial.
  std::vector<std::pair<std::string, std::string>> c{
      {"dtype", "bf16"}, {"m", std::to_string(t.m)}, {"n", std::to_string(t.n)}, {"k", std::to_string(t.k)}};
  if (overlap_family(t) == "interdecom") {
    c.push_back({"d", std::to_string(t.d)});
    c.push_back({"copy_sms", std::to_string(t.comm_sms)});
  } else {
    c.push_back({"stolen_sms", std::to_string(t.strategy == "intrafusion" ? t.comm_sms : 0)});
  }
  c.push_back({"copy_bytes", std::to_string(overlap_copy_bytes(t))});
  c.push_back({"strategy", t.strategy});
  c.push_back({"op", t.op});
  c.push_back({"tp", std::to_string(t.tp)});
  c.push_back({"comm_sms", std::to_string(t.comm_sms)});
  c.push_back({"sms", std::to_string(t.sms)});
  c.push_back({"green_min_sms", std::to_string(t.green_min_sms)});
  c.push_back({"green_multiple_sms", std::to_string(t.green_multiple_sms)});
  c.push_back({"flops_per_s", num(t.flops_per_s)});
  c.push_back({"hbm_Bps", num(t.hbm_Bps)});
  c.push_back({"launch_s", num(t.launch_s)});
  return c;
}

OverlapTrial overlap_trial_from(const models::Measurement& r) {
  OverlapTrial t;
  t.strategy = r.text("strategy");
  t.op = r.text("op");
  t.m = static_cast<int64_t>(r.number("m"));
  t.n = static_cast<int64_t>(r.number("n"));
  t.k = static_cast<int64_t>(r.number("k"));
  t.tp = static_cast<int>(r.number("tp"));
  t.d = r.has("d") ? static_cast<int>(r.number("d")) : 1;
  t.comm_sms = static_cast<int>(r.number("comm_sms"));
  t.sms = static_cast<int>(r.number("sms"));
  t.green_min_sms = static_cast<int>(r.number("green_min_sms"));
  t.green_multiple_sms = static_cast<int>(r.number("green_multiple_sms"));
  t.flops_per_s = r.number("flops_per_s");
  t.hbm_Bps = r.number("hbm_Bps");
  t.launch_s = r.number("launch_s");
  const bool known = std::find(std::begin(kOverlapStrategies), std::end(kOverlapStrategies), t.strategy) !=
                     std::end(kOverlapStrategies);
  if (!known || t.tp < 2 || t.d < 1 || t.comm_sms < 1 || t.comm_sms >= t.sms || !(t.flops_per_s > 0) ||
      !(t.hbm_Bps > 0) || t.launch_s < 0)
    throw models::DataError(r.file, r.line,
                            fmt::format("overlap case {}: strategy must be sequential, intrafusion or interdecom; tp >= 2, "
                                        "d >= 1, 0 < comm_sms < sms, flops_per_s and hbm_Bps > 0",
                                        r.case_id));
  if (std::string_view(models::to_string(r.family)) != overlap_family(t))
    throw models::DataError(r.file, r.line, fmt::format("overlap case {}: strategy {} belongs to family {}, not {}",
                                                        r.case_id, t.strategy, overlap_family(t),
                                                        models::to_string(r.family)));
  return t;
}

std::vector<std::pair<std::string, std::string>> multiplex_trial_config(const MultiplexTrial& t) {
  return {{"policy", t.policy},
          {"models", join_plus(t.models)},
          {"rates_per_s", join_plus(t.rates_per_s)},
          {"max_batch", std::to_string(t.max_batch)},
          {"timeout_s", num(t.timeout_s)},
          {"slo_x_solo", num(t.slo_x_solo)},
          {"duration_s", num(t.duration_s)},
          {"seed", std::to_string(t.seed)},
          {"sms", std::to_string(t.sms)},
          {"green_min_sms", std::to_string(t.green_min_sms)},
          {"green_multiple_sms", std::to_string(t.green_multiple_sms)},
          {"flops_per_s", num(t.flops_per_s)},
          {"hbm_Bps", num(t.hbm_Bps)},
          {"launch_s", num(t.launch_s)}};
}

MultiplexTrial multiplex_trial_from(const models::Measurement& r) {
  MultiplexTrial t;
  t.policy = r.text("policy");
  t.models = split_plus(r.text("models"));
  t.rates_per_s = split_plus_numbers(r, "rates_per_s");
  t.max_batch = static_cast<int>(r.number("max_batch"));
  t.timeout_s = r.number("timeout_s");
  t.slo_x_solo = r.number("slo_x_solo");
  t.duration_s = r.number("duration_s");
  t.seed = static_cast<uint64_t>(r.number("seed"));
  t.sms = static_cast<int>(r.number("sms"));
  t.green_min_sms = static_cast<int>(r.number("green_min_sms"));
  t.green_multiple_sms = static_cast<int>(r.number("green_multiple_sms"));
  t.flops_per_s = r.number("flops_per_s");
  t.hbm_Bps = r.number("hbm_Bps");
  t.launch_s = r.number("launch_s");
  if (t.models.empty() || t.models.size() != t.rates_per_s.size() || t.max_batch < 1 || t.timeout_s < 0 ||
      !(t.slo_x_solo > 0) || !(t.duration_s > 0) || t.sms < 1 || !(t.flops_per_s > 0) || !(t.hbm_Bps > 0))
    throw models::DataError(r.file, r.line,
                            fmt::format("multiplex case {}: needs one rate per model, max_batch >= 1, timeout_s >= 0 and "
                                        "slo_x_solo, duration_s, sms, flops_per_s, hbm_Bps > 0",
                                        r.case_id));
  return t;
}

std::vector<TrialMetric> multiplex_metrics() {
  return {{"goodput_rps", "1/s"}, {"slo_attainment", "fraction"}, {"p50_latency_s", "s"}, {"p99_latency_s", "s"}};
}

std::vector<TrialMetric> serverless_metrics() {
  return {{"p50_latency_s", "s"}, {"p99_latency_s", "s"}, {"slo_attainment", "fraction"}, {"swaps", "count"}};
}

}  // namespace parallax::hw
