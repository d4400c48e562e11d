// File: hw/calibration_output.cpp
#include "hw/calibration_output.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace parallax::hw {

std::string format_provenance_json(const models::MeasurementProvenance& p, size_t rows) {
  const auto optional = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
  };
  nlohmann::ordered_json j;
  j["gpu_name"] = p.gpu_name;
  j["sm_count"] = p.sm_count;
  j["driver"] = p.driver;
  j["cuda"] = p.cuda;
  j["sm_clock_mhz"] = optional(p.sm_clock_mhz);
  j["mem_clock_mhz"] = optional(p.mem_clock_mhz);
  j["date"] = p.date;
  j["git_commit"] = p.git_commit;
  j["rows"] = rows;
  return j.dump(2) + '\n';
}

RepStats rep_stats(std::vector<double> s) {
  if (s.empty()) return {};
  std::sort(s.begin(), s.end());
  const size_t n = s.size();
  const double median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  double mean = 0;
  for (double x : s) mean += x;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double x : s) ss += (x - mean) * (x - mean);
  return {median, n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0.0};
}

}  // namespace parallax::hw
