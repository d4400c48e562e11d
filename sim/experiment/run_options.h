// File: sim/experiment/run_options.h
// How one `parallax run` is asked for: the scenario, the output folder, the seed and overrides.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax {

struct RunOptions {
  std::string scenario_path;           // empty: the embedded quickstart
  std::string out_dir;                 // empty: print only
  std::optional<uint64_t> seed;
  std::vector<std::string> overrides;  // --set dotted.path=value
  bool quiet = false;
  std::string chakra_out;              // --chakra-out: kind training's step as Chakra ETs here ("": none)
};

}  // namespace parallax
