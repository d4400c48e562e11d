// File: sim/workload/scaled_trace_process.cpp
#include "sim/workload/scaled_trace_process.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/workload/azure_llm_trace.h"

namespace parallax {

ScaledTraceProcess::ScaledTraceProcess(std::vector<Time> times, double rate_per_s, Time start)
    : times_(std::move(times)), rate_(rate_per_s), start_(start) {
  if (!(rate_per_s > 0) || !std::isfinite(rate_per_s))
    throw std::invalid_argument(fmt::format("trace arrivals: rate_per_s must be > 0, got {}", rate_per_s));
  if (!std::is_sorted(times_.begin(), times_.end()))
    throw std::invalid_argument("trace arrivals: times are not sorted");
  if (times_.size() < 2 || times_.back() == times_.front())
    throw std::invalid_argument("trace arrivals: the trace needs two or more distinct times to have a rate");
  const Time first = times_.front();
  for (Time& t : times_) t = t - first;
  const double recorded_rate = static_cast<double>(times_.size()) / times_.back().to_seconds();
  scale_ = recorded_rate / rate_;
}

Time ScaledTraceProcess::next() {
  if (k_ >= times_.size()) return Time::max();
  return start_ + Time::seconds(times_[k_++].to_seconds() * scale_);
}

std::unique_ptr<ArrivalProcess> make_azure_llm_process(const std::string& path, double rate_per_s, Time start) {
  const TraceArrivals trace = read_azure_llm_trace(path);
  std::vector<Time> times;
  times.reserve(trace.arrivals.size());
  for (const Arrival& a : trace.arrivals) times.push_back(a.at);
  try {
    return std::make_unique<ScaledTraceProcess>(std::move(times), rate_per_s, start);
  } catch (const std::invalid_argument& e) {  // a file with one timestamp is bad input, not a bug
    throw InputError({path, 0, 0}, "", e.what());
  }
}

}  // namespace parallax
