// File: sim/policies/colocate/colocation_comparison.h
// How SGDRC-like colocation compares with its baselines, the way SGDRC's paper states its gains
// (REFERENCE.md §6.6: "99.0 % average SLO attainment; up to 1.47× overall and 2.36× BE
// throughput"). A throughput gain only means something at an equal LS guarantee: a baseline that
// misses the LS SLO buys its BE throughput with LS latency. So the comparison names, besides the
// ratio against every baseline, the best baseline that meets the SLO target (the highest BE
// throughput among policies, other than the SGDRC-like one, whose LS SLO attainment >= target).
//
// Overall throughput counts inferred samples per second of both tenants (LS requests × LS batch
// + BE batches × BE batch), so LS and BE work add up in one unit.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace parallax {

struct PolicyOutcome {
  std::string name;
  double ls_slo_attainment = 0;
  double be_throughput = 0;       // BE batches per second
  double overall_throughput = 0;  // samples per second, LS and BE
  bool runs_be = true;
};

struct BaselineRatio {
  std::string baseline;
  bool baseline_meets_slo = false;
  double be_throughput_ratio = 0;       // SGDRC-like / baseline (0 when the baseline has none)
  double overall_throughput_ratio = 0;
};

struct ColocationComparison {
  std::string policy;                        // the SGDRC-like policy compared
  bool meets_slo = false;
  std::vector<BaselineRatio> baselines;      // every other policy that runs BE, in input order
  std::optional<BaselineRatio> best_meeting_slo;
};

// nullopt when no policy's name contains "sgdrc".
std::optional<ColocationComparison> compare_with_baselines(const std::vector<PolicyOutcome>& outcomes,
                                                           double slo_target);

}  // namespace parallax
