// File: sim/workload/arrival_process.cpp
#include "sim/workload/arrival_process.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "sim/workload/scaled_trace_process.h"

namespace parallax {

namespace {

void require_positive(double v, const char* name) {
  if (!(std::isfinite(v) && v > 0)) throw std::invalid_argument(fmt::format("{} must be > 0, got {}", name, v));
}

// t + gap, or Time::max() where that leaves the clock's range: a long gap (a low rate, a rare long
// draw) means "no arrival within any run", not a time that wraps to the past.
Time after_gap(Time t, double gap_s) {
  // In picoseconds, 1 us short of the end: the double's rounding near 9.2e18 ps cannot overflow.
  const double room_ps = static_cast<double>((Time::max() - t).ps()) - 1e6;
  return gap_s * 1e12 < room_ps ? t + Time::seconds(gap_s) : Time::max();
}

}  // namespace

PoissonProcess::PoissonProcess(double rate_per_s, RandomStream& rng, Time start)
    : rate_(rate_per_s), rng_(rng), t_(start) {
  require_positive(rate_per_s, "rate_per_s");
}

Time PoissonProcess::next() {
  t_ = after_gap(t_, rng_.exponential(1 / rate_));
  return t_;
}

GammaProcess::GammaProcess(double rate_per_s, double cv, RandomStream& rng, Time start)
    : rate_(rate_per_s), cv_(cv), shape_(1 / (cv * cv)), scale_(cv * cv / rate_per_s), rng_(rng), t_(start) {
  require_positive(rate_per_s, "rate_per_s");
  require_positive(cv, "cv");
}

Time GammaProcess::next() {
  const double gap = cv_ == 1 ? rng_.exponential(1 / rate_) : rng_.gamma(shape_, scale_);
  t_ = after_gap(t_, gap);
  return t_;
}

MmppOnOffProcess::MmppOnOffProcess(double rate_on_per_s, double rate_off_per_s, double mean_on_s,
                                   double mean_off_s, RandomStream& rng, Time start)
    : rate_on_(rate_on_per_s),
      rate_off_(rate_off_per_s),
      mean_on_(mean_on_s),
      mean_off_(mean_off_s),
      rng_(rng),
      t_(start) {
  require_positive(rate_on_per_s, "rate_on_per_s");
  if (!(std::isfinite(rate_off_per_s) && rate_off_per_s >= 0)) {
    throw std::invalid_argument(fmt::format("rate_off_per_s must be >= 0, got {}", rate_off_per_s));
  }
  require_positive(mean_on_s, "mean_on_s");
  require_positive(mean_off_s, "mean_off_s");
  // Stationary start: the state is on with probability mean_on/(mean_on+mean_off), and the residual
  // of an exponential sojourn is again exponential with the same mean.
  on_ = rng_.uniform01() < mean_on_ / (mean_on_ + mean_off_);
  switch_at_ = after_gap(t_, rng_.exponential(on_ ? mean_on_ : mean_off_));
}

double MmppOnOffProcess::mean_rate_per_s() const {
  return (rate_on_ * mean_on_ + rate_off_ * mean_off_) / (mean_on_ + mean_off_);
}

Time MmppOnOffProcess::next() {
  for (;;) {
    if (t_ == Time::max()) return t_;
    const double rate = on_ ? rate_on_ : rate_off_;
    if (rate > 0) {
      // Memorylessness: a gap that crosses the switch is discarded and redrawn in the next state.
      const Time candidate = after_gap(t_, rng_.exponential(1 / rate));
      if (candidate < switch_at_) {
        t_ = candidate;
        return t_;
      }
    }
    t_ = switch_at_;
    on_ = !on_;
    switch_at_ = after_gap(t_, rng_.exponential(on_ ? mean_on_ : mean_off_));
  }
}

DeterministicProcess::DeterministicProcess(double rate_per_s, Time start) : rate_(rate_per_s), start_(start) {
  require_positive(rate_per_s, "rate_per_s");
}

Time DeterministicProcess::next() {
  const Time at = after_gap(start_, static_cast<double>(k_) / rate_);
  ++k_;
  return at;
}

std::unique_ptr<ArrivalProcess> make_arrival_process(const ArrivalProcessSpec& spec, RandomStream& rng, Time start) {
  if (spec.kind == "poisson") return std::make_unique<PoissonProcess>(spec.rate_per_s, rng, start);
  if (spec.kind == "gamma") return std::make_unique<GammaProcess>(spec.rate_per_s, spec.cv, rng, start);
  if (spec.kind == "mmpp") {
    return std::make_unique<MmppOnOffProcess>(spec.rate_on_per_s, spec.rate_off_per_s, spec.mean_on_s,
                                              spec.mean_off_s, rng, start);
  }
  if (spec.kind == "deterministic") return std::make_unique<DeterministicProcess>(spec.rate_per_s, start);
  if (spec.kind == "azure_llm") return make_azure_llm_process(spec.path, spec.rate_per_s, start);
  throw std::invalid_argument(fmt::format(
      "unknown arrival process '{}' (expected poisson, gamma, mmpp, deterministic or azure_llm)", spec.kind));
}

std::vector<Time> arrivals_until(ArrivalProcess& process, Time end) {
  std::vector<Time> out;
  for (Time t = process.next(); t < end; t = process.next()) out.push_back(t);
  return out;
}

}  // namespace parallax
