// File: tests/fuzz/scenario_ranges_fuzz.cpp
// Fuzzes the range checks of the scenario loader (sim/scenario/input_limits.h): the first byte
// picks a template of tests/support/scenario_clock.h (byte % 3: transfers, colocate, multiplex), the
// remaining lines are --set overrides (KEY=VALUE, at most 16) that push its times, rates and
// sizes anywhere. An input the loader accepts is then exercised (tests/support/scenario_clock.h):
// the transfers replayed to their end, the arrivals drawn over duration_s (at most 100,000 per
// process, to stay within the fuzzer's time limit). A finding: anything but InputError from the
// loader, a TimeRangeError from the run, a replay that does not finish, or a run past
// kMaxRunSeconds. A PlatformError from the run (an override rewired a link so that a route passes
// through a GPU, which the loader's connectivity check does not see) is exit 2 in the command
// line, and not what this target looks for.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sim/platform/platform.h"
#include "sim/scenario/input_limits.h"
#include "sim/scenario/scenario_loader.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/support/scenario_clock.h"


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& templates = parallax::testing::kRangeTemplates;
  const std::string_view yaml = templates[data[0] % templates.size()];
  std::string_view rest = parallax::fuzz::as_text(data + 1, size - 1);
  std::vector<std::string> overrides;
  while (!rest.empty() && overrides.size() < 16) {
    const size_t eol = rest.find('\n');
    const std::string_view line = rest.substr(0, eol);
    if (!line.empty()) overrides.emplace_back(line);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
  }
  parallax::Scenario scenario;
  try {
    scenario = parallax::load_scenario_text(yaml, "ranges.yaml", overrides);
  } catch (const parallax::InputError&) {
    return 0;  // refused, with its place: the documented answer
  }
  parallax::testing::ClockReach reach;
  try {
    reach = parallax::testing::exercise_clock(scenario, 100'000);
  } catch (const parallax::PlatformError&) {
    return 0;  // a machine the platform cannot build (an override rewired a link): exit 2 in the CLI
  }
  if (!reach.finished || reach.latest.to_seconds() > parallax::kMaxRunSeconds) std::abort();
  return 0;
}
