// File: tools/bench_serverless.cpp
#include "tools/bench_serverless.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/engine/random_streams.h"
#include "sim/policies/serverless/policy_presets.h"
#include "sim/report/console_table.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/workload/azure2019_trace.h"
#include "sim/workload/minute_expansion.h"
#include "sim/workload/torpor_trace.h"
#include "tools/cli_checks.h"
#include "sim/experiment/serverless_sim.h"

namespace parallax {

namespace {

// Arrivals from per-minute counts, one minute in memory at a time.
class MinuteFeed final : public ArrivalFeed {
 public:
  MinuteFeed(const MinuteCounts& counts, RandomStream& rng) : expander_(counts, rng) {}
  bool next(ServerlessArrival& out) override {
    Arrival a;
    if (!expander_.next(a)) return false;
    out = {a.at, a.function};
    ++count_;
    return true;
  }
  uint64_t count() const { return count_; }

 private:
  MinuteCountExpander expander_;
  uint64_t count_ = 0;
};

double peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) * 1024.0;
}

}  // namespace

ServerlessBench::ServerlessBench(CLI::App& bench) {
  cmd_ = bench.add_subcommand("serverless", "Serverless cluster at scale: simulated requests per second of wall time");
  cmd_->add_option("--functions", functions_, "functions (models round-robin over Torpor's eight)")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  cmd_->add_option("--nodes", nodes_, "nodes behind the cluster router")->check(CLI::Range(1, 4096))->capture_default_str();
  // At most the scenarios' horizon, 1e6 s (sim/scenario/input_limits.h).
  cmd_->add_option("--hours", hours_, "simulated hours")
      ->check(CLI::Range(1e-3, 1e6 / 3600))
      ->capture_default_str();
  std::vector<std::string> policies(serverless_policy_names().begin(), serverless_policy_names().end());
  cmd_->add_option("--policy", policy_, "serverless policy (swap policies)")
      ->check(CLI::IsMember(policies))
      ->capture_default_str();
  cmd_->add_option("--hardware", hardware_, "hardware preset of one node")->capture_default_str();
  cmd_->add_option("--rates", rates_, "per-function mean rates, req/min (invoc_pattern.txt)")->capture_default_str();
  cmd_->add_option("--shape", shape_, "Azure 2019 invocations file whose first row gives the daily shape")->capture_default_str();
  cmd_->add_option("--seed", seed_, "root random seed")->check(unsigned64_check())->capture_default_str();
  cmd_->add_flag("--platform-path", platform_path_, "every copy and kernel through the platform (no closed form)");
}

// Traffic: function f has mean rate rates[f mod R] (req/min, Torpor's invoc_pattern.txt) shaped
// over the day by the Azure 2019 function's per-minute counts normalised to mean 1 (minute m of
// the run uses minute m mod 1440); the count of (f, m) is rate x shape rounded up or down at
// random (mean kept), spread within the minute as a Poisson process (minute_expansion.h).
int ServerlessBench::run() const {
  if (functions_ < 1 || nodes_ < 1 || !(hours_ > 0)) throw std::invalid_argument("bench serverless: functions, nodes and hours must be positive");
  const std::vector<double> rates = read_torpor_rates(rates_);
  const MinuteCounts azure = read_azure2019_invocations(shape_, 1);
  const std::vector<uint32_t>& day = azure.functions.at(0).per_minute;
  double day_mean = 0;
  for (uint32_t c : day) day_mean += c;
  day_mean /= static_cast<double>(day.size());
  const auto minutes = static_cast<size_t>(std::llround(hours_ * 60));
  RandomStreams streams(seed_);
  RandomStream& rounding = streams.stream("bench.counts");
  MinuteCounts counts;
  counts.functions.resize(static_cast<size_t>(functions_));
  double expected = 0;
  for (size_t f = 0; f < counts.functions.size(); ++f) {
    FunctionMinuteCounts& fc = counts.functions[f];
    fc.name = fmt::format("f{}", f);
    fc.per_minute.resize(minutes);
    for (size_t m = 0; m < minutes; ++m) {
      const double mean = rates[f % rates.size()] * day[m % day.size()] / day_mean;
      expected += mean;
      fc.per_minute[m] = static_cast<uint32_t>(std::floor(mean + rounding.uniform01()));
    }
  }

  static const std::array<std::string, 8> kModels{"resnet50",    "resnet101",    "resnet152",      "densenet169",
                                                  "densenet201", "inception_v3", "efficientnet_b0", "bert_qa"};
  ServerlessSimSetup setup;
  setup.hardware = load_hardware_preset(hardware_);
  setup.policy = serverless_policy_preset(policy_);
  setup.policy.closed_form = !platform_path_;
  setup.models = served_models(kModels, setup.hardware.gpus.at(0));
  for (int f = 0; f < functions_; ++f) setup.functions.push_back({fmt::format("f{}", f), static_cast<uint32_t>(f % 8)});
  setup.nodes = nodes_;
  setup.seed = seed_;
  MinuteFeed feed(counts, streams.stream("bench.arrivals"));
  const double rss_before = peak_rss_bytes();
  ServerlessSimStats stats;
  const auto t0 = std::chrono::steady_clock::now();
  const ServerlessSummary s = simulate_serverless(setup, {}, &feed, &stats);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double rss_after = peak_rss_bytes();
  const double requests = static_cast<double>(s.arrived);

  std::vector<std::vector<std::string>> rows{
      {"functions / nodes / GPUs", fmt::format("{} / {} / {}", functions_, nodes_, nodes_ * setup.hardware.gpus.size())},
      {"simulated", fmt::format("{:.1f} h", hours_)},
      {"requests", fmt::format("{} (expected {:.0f})", s.arrived, expected)},
      {"wall", format_seconds(wall_s)},
      {"simulated requests/s", fmt::format("{:.0f}", requests / wall_s)},
      {"engine events", fmt::format("{} ({:.1f} per request)", stats.events, static_cast<double>(stats.events) / requests)},
      {"peak RSS", fmt::format("{:.0f} MiB (+{:.0f} during the run)", rss_after / 1048576, (rss_after - rss_before) / 1048576)},
      {"memory per request", fmt::format("{:.0f} B", (rss_after - rss_before) / requests)},
      {"slo_attainment", fmt::format("{:.1f}% ({} of {})", 100 * s.slo_attainment, s.functions_compliant, s.functions)},
      {"p99 latency", format_seconds(s.p99_latency_s)},
      {"swaps pcie / nvlink", fmt::format("{} / {}", s.swaps_pcie, s.swaps_nvlink)},
      {"gpus_used", fmt::format("{}", s.gpus_used)}};
  std::fputs(format_table({"serverless bench", fmt::format("policy {}", policy_)}, rows).c_str(), stdout);
  std::printf("\none core; arrivals generated minute by minute during the run (counted in the wall time).\n");
  return 0;
}

}  // namespace parallax
