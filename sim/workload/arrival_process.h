// File: sim/workload/arrival_process.h
// Synthetic arrival processes (REFERENCE.md §7.1, after AlpaServe's alpa_serve/simulator/workload):
// Poisson(rate), Gamma(rate, cv) renewal, a two-state on/off MMPP and a deterministic clock. Each
// draws only from the RandomStream it is given, so the same seed gives the same arrivals on every
// machine; the caller owns the stream and must keep it alive. Rates are per second.
//
//   RandomStream& rng = streams.stream("arrivals/resnet50");
//   GammaProcess p(/*rate_per_s=*/20, /*cv=*/4, rng);
//   std::vector<Time> first_minute = arrivals_until(p, Time::seconds(60));
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/engine/random_streams.h"
#include "sim/engine/sim_time.h"

namespace parallax {

// A point process on [start, ∞): next() returns arrival times in non-decreasing order. Gaps are
// drawn in seconds and rounded to the picosecond one by one (error ≤ 0.5 ps per gap). The
// constructors throw std::invalid_argument on a parameter out of range.
class ArrivalProcess {
 public:
  virtual ~ArrivalProcess() = default;
  virtual Time next() = 0;
  virtual double mean_rate_per_s() const = 0;  // long-run arrivals per second
};

// Exponential gaps with mean 1/rate.
class PoissonProcess final : public ArrivalProcess {
 public:
  PoissonProcess(double rate_per_s, RandomStream& rng, Time start = Time::zero());
  Time next() override;
  double mean_rate_per_s() const override { return rate_; }

 private:
  double rate_;
  RandomStream& rng_;
  Time t_;
};

// Renewal process with Gamma gaps: mean 1/rate, coefficient of variation cv, i.e. shape 1/cv² and
// scale cv²/rate. cv = 1 draws exactly the sequence PoissonProcess draws from the same stream;
// cv > 1 is burstier than Poisson, cv < 1 more regular.
class GammaProcess final : public ArrivalProcess {
 public:
  GammaProcess(double rate_per_s, double cv, RandomStream& rng, Time start = Time::zero());
  Time next() override;
  double mean_rate_per_s() const override { return rate_; }

 private:
  double rate_, cv_, shape_, scale_;
  RandomStream& rng_;
  Time t_;
};

// Markov-modulated Poisson process with two states: Poisson at rate_on during "on" sojourns and
// at rate_off (may be 0) during "off" sojourns; sojourns are exponential with the given means. The
// first state is drawn from the stationary law (on with probability mean_on/(mean_on+mean_off)),
// so the process is stationary from t = start. Mean rate = (rate_on·mean_on + rate_off·mean_off) /
// (mean_on + mean_off).
class MmppOnOffProcess final : public ArrivalProcess {
 public:
  MmppOnOffProcess(double rate_on_per_s, double rate_off_per_s, double mean_on_s, double mean_off_s,
                   RandomStream& rng, Time start = Time::zero());
  Time next() override;
  double mean_rate_per_s() const override;

 private:
  double rate_on_, rate_off_, mean_on_, mean_off_;
  RandomStream& rng_;
  Time t_;
  Time switch_at_;  // end of the current sojourn
  bool on_;
};

// Arrival k (k = 0, 1, ...) at start + round(k / rate); no randomness.
class DeterministicProcess final : public ArrivalProcess {
 public:
  explicit DeterministicProcess(double rate_per_s, Time start = Time::zero());
  Time next() override;
  double mean_rate_per_s() const override { return rate_; }

 private:
  double rate_;
  Time start_;
  int64_t k_ = 0;
};

// A process described by plain values, as a scenario file gives it. kind is one of "poisson",
// "gamma", "mmpp", "deterministic", "azure_llm" (an Azure LLM trace file scaled to rate_per_s:
// scaled_trace_process.h); unused fields are ignored.
struct ArrivalProcessSpec {
  std::string kind = "poisson";
  double rate_per_s = 0;        // poisson, gamma, deterministic
  double cv = 1;                // gamma
  double rate_on_per_s = 0;     // mmpp
  double rate_off_per_s = 0;    // mmpp
  double mean_on_s = 0;         // mmpp
  double mean_off_s = 0;        // mmpp
  std::string path = {};        // azure_llm: the trace file
};

// Throws std::invalid_argument naming the parameter when the kind is unknown or a value is out of
// range (rates > 0, cv > 0, sojourn means > 0, rate_off >= 0); the scenario layer adds the place.
// azure_llm reads its file here: InputError with file:line for a bad row.
std::unique_ptr<ArrivalProcess> make_arrival_process(const ArrivalProcessSpec& spec, RandomStream& rng,
                                                     Time start = Time::zero());

// Every arrival strictly before `end`.
std::vector<Time> arrivals_until(ArrivalProcess& process, Time end);

}  // namespace parallax
