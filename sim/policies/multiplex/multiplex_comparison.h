// File: sim/policies/multiplex/multiplex_comparison.h
// Elastic sharing against each baseline at equal SLOs (issue 6: "how much throughput and SLO
// attainment elastic sharing recovers over MIG, MPS and time slicing at equal SLOs"). Every policy
// of a run serves the same arrivals with the same per-service SLOs, so the comparison is of what
// each delivered within those SLOs: goodput (requests finished within their SLO per second), SLO
// attainment, throughput (every finished request) and mean latency. The best baseline is the one
// with the highest goodput (first listed on ties): the one elastic has to beat.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace parallax {

struct MultiplexOutcome {
  std::string name;
  double throughput_rps = 0;
  double goodput_rps = 0;
  double slo_attainment = 0;
  double mean_latency_s = 0;
};

struct MultiplexBaselineRatio {
  std::string baseline;
  double goodput_ratio = 0;          // elastic / baseline (0 when the baseline has none)
  double throughput_ratio = 0;
  double slo_attainment_gain = 0;    // elastic − baseline, as a fraction (0.05 = 5 points)
  double mean_latency_change = 0;    // elastic / baseline − 1 (−0.29 = 29 % lower)
};

struct MultiplexComparison {
  std::string policy;                           // "elastic"
  std::vector<MultiplexBaselineRatio> baselines;  // every other policy, in input order
  std::optional<MultiplexBaselineRatio> best_baseline;
};

// nullopt when no policy is named "elastic".
std::optional<MultiplexComparison> compare_elastic_with_baselines(const std::vector<MultiplexOutcome>& outcomes);

}  // namespace parallax
