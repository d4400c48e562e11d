// File: models/calibration_data/nccl_tests_fit.cpp
// nccl-tests rows → protocol fit → calibration (nccl_tests_fit.h).
#include "models/calibration_data/nccl_tests_fit.h"

#include <stdexcept>

#include <fmt/format.h>

#include "models/calibration_data/data_error.h"
#include "models/protocol_fit.h"

namespace parallax::models {

namespace {

std::vector<TimedSize> usable_rows(const NcclTestsLog& log) {
  std::vector<TimedSize> samples;
  for (const NcclTestsRow& r : log.rows)
    if (!r.out_of_place.wrong && r.out_of_place.time_s > 0 && r.bytes > 0)
      samples.push_back({r.bytes, r.out_of_place.time_s});
  // A user's log, not a caller's mistake: located, so the command line exits 2.
  if (samples.size() < 4)
    throw DataError(log.path, log.rows.empty() ? 0 : log.rows.back().line,
                    fmt::format("{} usable rows (out-of-place time > 0, #wrong 0) of {}; a fit needs at least 4 sizes",
                                samples.size(), log.rows.size()));
  return samples;
}

std::string_view algorithm_of(CollectiveOp op) {
  return op == CollectiveOp::all_to_all || op == CollectiveOp::send_recv ? "p2p" : "ring";
}

ErrorSummary errors_on(const std::vector<TimedSize>& samples, CollectiveOp op, int ranks,
                       const std::vector<NcclCandidate>& candidates) {
  std::vector<double> errors;
  for (const TimedSize& s : samples)
    errors.push_back(relative_error(choose_nccl(op, ranks, s.bytes, candidates).cost.time_s, s.measured_s));
  return summarize_errors(errors);
}

ErrorSummary split_errors(const std::vector<TimedSize>& samples, CollectiveOp op, int ranks, int every) {
  std::vector<TimedSize> train, test;
  for (size_t i = 0; i < samples.size(); ++i)
    (static_cast<int>(i % static_cast<size_t>(every)) == every - 1 ? test : train).push_back(samples[i]);
  return errors_on(test, op, ranks, fit_protocols(op, ranks, train, algorithm_of(op)));
}

}  // namespace

std::vector<NcclCandidate> calibrated_candidates(const CollectiveCalibration& c) {
  std::vector<NcclCandidate> out;
  for (const ProtocolCalibration& p : c.protocols) {
    Protocol protocol = Protocol::simple;
    parse_protocol(p.protocol, protocol);
    // string_views into the calibration's strings: valid while `c` lives.
    out.push_back({p.algorithm, protocol, p.latency_s, p.busbw_Bps, 0});
  }
  if (out.empty()) {
    const auto op = parse_collective_op(c.op);
    const double steps = op ? static_cast<double>(ring_steps(*op, c.ranks)) : 0.0;
    out.push_back({"ring", Protocol::simple, c.base_latency_s + steps * c.step_latency_s,
                   c.bandwidth_efficiency * c.link_Bps, 0});
  }
  return out;
}

double predict_collective_s(const CollectiveCalibration& c, CollectiveOp op, double bytes) {
  return choose_nccl(op, c.ranks, bytes, calibrated_candidates(c)).cost.time_s;
}

ErrorSummary held_out_errors(const NcclTestsLog& log, CollectiveOp op, int ranks, int every) {
  if (ranks < 2 || every < 2) throw std::invalid_argument("held_out_errors: ranks < 2 or every < 2");
  return split_errors(usable_rows(log), op, ranks, every);
}

NcclTestsFit fit_nccl_tests(const NcclTestsLog& log, CollectiveOp op, int ranks, double link_Bps) {
  if (ranks < 2) throw std::invalid_argument("fit_nccl_tests: a collective needs at least 2 ranks");
  const std::vector<TimedSize> samples = usable_rows(log);
  const std::vector<NcclCandidate> fit = fit_protocols(op, ranks, samples, algorithm_of(op));
  const ErrorSummary in_sample = errors_on(samples, op, ranks, fit);
  NcclTestsFit out;
  CollectiveCalibration& c = out.calibration;
  c.op = std::string(to_string(op));
  c.ranks = ranks;
  for (const NcclCandidate& k : fit)
    c.protocols.push_back({std::string(k.algorithm), std::string(to_string(k.protocol)), k.latency_s, k.busbw_Bps});
  // The single-ring fields, for readers of the older format: the largest-size protocol.
  c.link_Bps = link_Bps;
  c.base_latency_s = fit.back().latency_s;
  c.step_latency_s = 0.0;
  c.bandwidth_efficiency = fit.back().busbw_Bps / link_Bps;
  c.rows = static_cast<int>(samples.size());
  c.median_rel_error = in_sample.median;
  c.p95_rel_error = in_sample.p95;
  c.max_rel_error = in_sample.max;
  // Held out: rows in file order (sizes ascending in nccl-tests), every 4th from the 4th on.
  out.held_out = split_errors(samples, op, ranks, 4);
  return out;
}

}  // namespace parallax::models
