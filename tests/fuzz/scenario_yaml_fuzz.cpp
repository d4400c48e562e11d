// File: tests/fuzz/scenario_yaml_fuzz.cpp
// Fuzzes the scenario loader (YAML -> Scenario): parsing, presets, topology shapes, workload
// validation. An input whose first line is "#set KEY=VALUE" also passes that line as a --set
// override, so the override parser is fuzzed with the document it edits.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = parallax::fuzz::as_text(data, size);
  std::vector<std::string> overrides;
  constexpr std::string_view kSet = "#set ";
  if (text.starts_with(kSet)) {
    const size_t eol = text.find('\n');
    overrides.emplace_back(text.substr(kSet.size(), eol == std::string_view::npos ? std::string_view::npos
                                                                                  : eol - kSet.size()));
  }
  parallax::fuzz::expect_only_input_errors(
      [&] { (void)parallax::load_scenario_text(text, "fuzz.yaml", overrides); });
  return 0;
}
