// File: sim/scenario/embedded_file.cpp
#include "sim/scenario/embedded_file.h"

namespace parallax {

std::optional<std::string_view> find_embedded_scenario_file(std::string_view path) {
  for (const EmbeddedFile& f : embedded_scenario_files())
    if (f.path == path) return f.text;
  return std::nullopt;
}

}  // namespace parallax
