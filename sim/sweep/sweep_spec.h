// File: sim/sweep/sweep_spec.h
// A sweep file, read strictly: the base scenario it varies, the overrides every point shares, and
// the axes (cartesian products and zipped lists over dotted keys, plus `seeds`/`repeat`). Errors
// are InputErrors located in the sweep file and naming the key. Expanding the axes into points is
// left to sweep_expansion.h; running them to tools/sweep_command.cpp. Format: docs/sweeps.md.
//
//   base: ../bench/ring.yaml                   # relative to the sweep file
//   set: {output.trace: false}                 # optional: the same for every point
//   axes:
//     - cartesian: {hardware.gpus: [8, 64, 512]}
//     - zip: {workload.collectives.0.bytes: [1MiB, 64MiB], workload.collectives.0.start_s: [0, 1]}
//   seeds: [1, 2]                              # optional; or `repeat: N`, meaning seeds 1..N
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/config_tree.h"
#include "sim/io/input_error.h"

namespace parallax {

// One dotted key and the values it takes, in file order.
struct SweepAxis {
  std::string key;
  SourceLocation where;  // of the key in the sweep file
  std::vector<ConfigNode> values;
};

// `cartesian`: every combination of its axes (the first varies slowest). `zip`: its axes move
// together, value i of each at step i; all have one length.
struct SweepAxisGroup {
  enum class Kind { cartesian, zip };
  Kind kind = Kind::cartesian;
  SourceLocation where;
  std::vector<SweepAxis> axes;
};

struct SweepSpec {
  std::string source;                  // the sweep file as named
  std::string base_path;               // the base scenario, resolved against the sweep file's folder
  std::string base_text;               // its bytes, read once (they enter every point's hash)
  std::vector<SweepAxis> fixed;        // `set:`, one value each
  std::vector<SweepAxisGroup> groups;  // in file order; `seeds`/`repeat` is the last, on key `seed`
};

// Reads `path` and the base scenario it names. A missing file, an unknown key, a value list that
// is empty or not a list, a zip of unequal lengths, a key given twice, a key inside another key
// ("hardware" and "hardware.gpus"), `seeds` with `repeat` or with an axis on `seed`: InputError.
SweepSpec parse_sweep_file(const std::string& path);

// The same from text; `source_name` names it in errors, and its folder resolves `base`.
SweepSpec parse_sweep_text(std::string_view text, const std::string& source_name);

}  // namespace parallax
