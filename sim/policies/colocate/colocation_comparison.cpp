// File: sim/policies/colocate/colocation_comparison.cpp
#include "sim/policies/colocate/colocation_comparison.h"

namespace parallax {

namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

}  // namespace

std::optional<ColocationComparison> compare_with_baselines(const std::vector<PolicyOutcome>& outcomes,
                                                           double slo_target) {
  const PolicyOutcome* sgdrc = nullptr;
  for (const PolicyOutcome& o : outcomes)
    if (sgdrc == nullptr && o.name.find("sgdrc") != std::string::npos) sgdrc = &o;
  if (sgdrc == nullptr) return std::nullopt;
  ColocationComparison c;
  c.policy = sgdrc->name;
  c.meets_slo = sgdrc->ls_slo_attainment >= slo_target;
  const PolicyOutcome* best = nullptr;
  for (const PolicyOutcome& o : outcomes) {
    if (&o == sgdrc || !o.runs_be) continue;
    BaselineRatio r{o.name, o.ls_slo_attainment >= slo_target, ratio(sgdrc->be_throughput, o.be_throughput),
                    ratio(sgdrc->overall_throughput, o.overall_throughput)};
    c.baselines.push_back(r);
    if (r.baseline_meets_slo && (best == nullptr || o.be_throughput > best->be_throughput)) {
      best = &o;
      c.best_meeting_slo = r;
    }
  }
  return c;
}

}  // namespace parallax
