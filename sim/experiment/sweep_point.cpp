// File: sim/experiment/sweep_point.cpp
#include "sim/experiment/sweep_point.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/engine/sim_time.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/output_folder.h"
#include "sim/platform/platform.h"
#include "sim/report/run_timing.h"
#include "sim/io/input_error.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/sweep/results_table.h"

namespace parallax {

namespace {

// The axis (or `set:` entry) that a point's error is about: its key is the error's key or a
// prefix of it. Errors are then located at that key in the sweep file.
const SweepAxis* axis_for_key(const SweepSpec& spec, const std::string& key) {
  const auto matches = [&](const SweepAxis& a) {
    return key == a.key || (key.size() > a.key.size() && key.compare(0, a.key.size(), a.key) == 0 &&
                            key[a.key.size()] == '.');
  };
  for (const SweepAxisGroup& g : spec.groups)
    for (const SweepAxis& a : g.axes)
      if (matches(a)) return &a;
  for (const SweepAxis& a : spec.fixed)
    if (matches(a)) return &a;
  return nullptr;
}

std::optional<double> number_at(const nlohmann::ordered_json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<double>();
}

}  // namespace

void validate_sweep_points(const SweepSpec& spec, const SweepSpace& space,
                           const std::function<std::optional<size_t>()>& next_index) {
  std::vector<std::vector<bool>> seen(space.wheel_count());
  size_t unseen = 0;
  for (size_t w = 0; w < space.wheel_count(); ++w) {
    seen[w].assign(space.wheel_length(w), false);
    unseen += space.wheel_length(w);
  }
  bool first = true;
  for (std::optional<size_t> i = next_index(); i && (first || unseen > 0); i = next_index()) {
    bool fresh = first;
    first = false;
    for (size_t w = 0; w < space.wheel_count(); ++w)
      if (const size_t d = space.digit(*i, w); !seen[w][d]) {
        seen[w][d] = true;
        --unseen;
        fresh = true;
      }
    if (!fresh) continue;
    const SweepPoint p = space.point(*i);
    try {
      (void)load_scenario_file(spec.base_path, p.overrides);
    } catch (const InputError& e) {
      const SweepAxis* axis = axis_for_key(spec, e.key());
      const SourceLocation where = axis ? axis->where : SourceLocation{spec.source, 0, 0};
      throw InputError(where, e.key(),
                       fmt::format("point {} ({}) is not a valid scenario: {}", p.index, fmt::join(p.overrides, " "),
                                   e.what()));
    }
  }
}

ManifestEntry run_sweep_point(const SweepSpec& spec, const SweepSpace& plan, const SweepPoint& p,
                              const std::filesystem::path& dir) {
  RunOptions run;
  run.scenario_path = spec.base_path;
  run.out_dir = dir.string();
  run.overrides = p.overrides;
  run.quiet = true;
  const WallClock clock;
  begin_run_folder(dir);
  const Scenario sc = load_scenario_file(spec.base_path, p.overrides);
  ExperimentContext context;
  context.out_dir = run.out_dir;
  Result result;
  try {
    result = run_experiment(sc, context);
    write_run_folder(dir, result, run_report_page(sc, run, result));
  } catch (const PlatformError& e) {  // the machine a point describes cannot be built: bad input
    throw InputError(SourceLocation{spec.source, 0, 0}, "", e.what());
  } catch (const TimeRangeError& e) {  // the point's figures take its run past the clock: bad input
    throw InputError(SourceLocation{spec.source, 0, 0}, "",
                     fmt::format("point {}: {} (docs/reliability.md, Ranges)", p.index, e.what()));
  }
  const double wall_s = clock.elapsed_s();

  ManifestEntry e;
  e.point = p.index;
  e.hash = p.hash;
  e.seed = sc.seed;  // as the scenario resolves it (override or base)
  for (size_t a = 0; a < plan.axis_keys.size(); ++a) e.axes.emplace_back(plan.axis_keys[a], p.values[a]);
  e.wall_s = wall_s;
  e.events_per_s = number_at(result.timing, "events_per_s");
  if (const std::optional<double> r = number_at(result.timing, "sim_to_wall_ratio"))
    e.sim_to_wall = *r;
  else if (const std::optional<double> m = number_at(result.summary, "makespan_s"); m && wall_s > 0)
    e.sim_to_wall = *m / wall_s;
  e.summary = flatten_summary(result.summary);
  return e;
}

}  // namespace parallax
