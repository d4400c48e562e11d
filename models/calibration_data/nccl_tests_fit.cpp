// File: models/calibration_data/nccl_tests_fit.cpp
#include "models/calibration_data/nccl_tests_fit.h"

#include <stdexcept>

#include <fmt/format.h>
#include <vector>

#include "models/calibration_data/data_error.h"
#include "models/ring.h"
#include "models/ring_fit.h"

namespace parallax::models {

namespace {

RingFit as_ring_fit(const CollectiveCalibration& c) {
  RingFit f;
  f.link_Bps = c.link_Bps;
  f.base_latency_s = c.base_latency_s;
  f.step_latency_s = c.step_latency_s;
  f.bandwidth_efficiency = c.bandwidth_efficiency;
  return f;
}

ErrorSummary errors_on(const std::vector<CollectiveSample>& samples, const RingFit& fit) {
  std::vector<double> errors;
  for (const CollectiveSample& s : samples)
    errors.push_back(relative_error(ring_cost(s.op, s.bytes, fit.ring(s.ranks)).time_s, s.measured_s));
  return summarize_errors(errors);
}

}  // namespace

double predict_collective_s(const CollectiveCalibration& c, CollectiveOp op, double bytes) {
  return ring_cost(op, bytes, as_ring_fit(c).ring(c.ranks)).time_s;
}

NcclTestsFit fit_nccl_tests(const NcclTestsLog& log, CollectiveOp op, int ranks, double link_Bps) {
  if (ranks < 2) throw std::invalid_argument("fit_nccl_tests: a collective needs at least 2 ranks");
  std::vector<CollectiveSample> samples;
  for (const NcclTestsRow& r : log.rows)
    if (!r.out_of_place.wrong && r.out_of_place.time_s > 0)
      samples.push_back({op, ranks, r.bytes, r.out_of_place.time_s});
  // A user's log, not a caller's mistake: located, so the command line exits 2.
  if (samples.size() < 4)
    throw DataError(log.path, log.rows.empty() ? 0 : log.rows.back().line,
                    fmt::format("{} usable rows (out-of-place time > 0, #wrong 0) of {}; a fit needs at least 4 sizes",
                                samples.size(), log.rows.size()));
  const RingFit fit = fit_uniform_ring(samples, link_Bps);
  const ErrorSummary in_sample = errors_on(samples, fit);
  NcclTestsFit out;
  CollectiveCalibration& c = out.calibration;
  c.op = std::string(to_string(op));
  c.ranks = ranks;
  c.link_Bps = link_Bps;
  c.base_latency_s = fit.base_latency_s;
  c.step_latency_s = fit.step_latency_s;
  c.bandwidth_efficiency = fit.bandwidth_efficiency;
  c.rows = static_cast<int>(samples.size());
  c.median_rel_error = in_sample.median;
  c.p95_rel_error = in_sample.p95;
  c.max_rel_error = in_sample.max;
  // Held out: rows in file order (sizes ascending in nccl-tests), every 4th from the 4th on.
  std::vector<CollectiveSample> train, test;
  for (size_t i = 0; i < samples.size(); ++i) (i % 4 == 3 ? test : train).push_back(samples[i]);
  out.held_out = errors_on(test, fit_uniform_ring(train, link_Bps));
  return out;
}

}  // namespace parallax::models
