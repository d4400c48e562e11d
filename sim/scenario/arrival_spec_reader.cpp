// File: sim/scenario/arrival_spec_reader.cpp
#include "sim/scenario/arrival_spec_reader.h"

#include <fmt/format.h>

#include <filesystem>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/input_error.h"

namespace parallax {

ArrivalProcessSpec read_arrival_process_spec(const ConfigNode& node, const std::string& path, const WorkloadContext& context) {
  const MapFields f(node, path,
                    {"kind", "rate_per_s", "cv", "rate_on_per_s", "rate_off_per_s", "mean_on_s", "mean_off_s", "path"});
  ArrivalProcessSpec a;
  a.kind = read_choice(f.required("kind"), f.path_of("kind"), {"poisson", "gamma", "mmpp", "deterministic", "azure_llm"});
  if (a.kind == "azure_llm") {  // the file's rows are read (and checked) when the run starts
    const ConfigNode& p = f.required("path");
    const std::string written = read_string(p, f.path_of("path"));
    std::filesystem::path resolved(written);
    if (resolved.is_relative()) resolved = (context.base_dir / resolved).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(resolved, ec))
      fail_at(p, f.path_of("path"),
              fmt::format("'{}': cannot open '{}' (resolved to '{}')", f.path_of("path"), written, resolved.string()));
    a.path = resolved.string();
  } else if (f.optional("path") != nullptr) {
    fail_at(*f.optional("path"), f.path_of("path"), fmt::format("'{}' is only for kind azure_llm", f.path_of("path")));
  }
  // The ranges of make_arrival_process (arrival_process.h), checked here with their place.
  const auto num = [&](std::string_view k, double& out, bool required, bool zero_ok) {
    const ConfigNode* n = required ? &f.required(k) : f.optional(k);
    if (n != nullptr) out = zero_ok ? read_non_negative(*n, f.path_of(k)) : read_positive(*n, f.path_of(k));
  };
  const bool mmpp = a.kind == "mmpp";
  num("rate_per_s", a.rate_per_s, !mmpp, false);
  num("cv", a.cv, a.kind == "gamma", false);
  num("rate_on_per_s", a.rate_on_per_s, mmpp, false);
  num("rate_off_per_s", a.rate_off_per_s, false, true);
  num("mean_on_s", a.mean_on_s, mmpp, false);
  num("mean_off_s", a.mean_off_s, mmpp, false);
  return a;
}

}  // namespace parallax
