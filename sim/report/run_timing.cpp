// File: sim/report/run_timing.cpp
#include "sim/report/run_timing.h"

#include "sim/report/json_output.h"

namespace parallax {

nlohmann::ordered_json timing_json(double wall_s, double simulated_s, double events) {
  nlohmann::ordered_json j;
  j["wall_s"] = wall_s;
  if (wall_s > 0 && events > 0) j["events_per_s"] = events / wall_s;
  if (wall_s > 0 && simulated_s > 0) j["sim_to_wall_ratio"] = simulated_s / wall_s;
  return j;
}

void write_timing_json(const std::filesystem::path& dir, const nlohmann::ordered_json& timing) {
  write_json_atomically(dir / kTimingFile, timing);
}

}  // namespace parallax
