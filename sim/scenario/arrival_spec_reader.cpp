// File: sim/scenario/arrival_spec_reader.cpp
#include "sim/scenario/arrival_spec_reader.h"

#include <fmt/format.h>

#include <filesystem>

#include "sim/scenario/config_fields.h"
#include "sim/io/input_error.h"
#include "sim/scenario/input_limits.h"

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
  // The ranges of make_arrival_process (arrival_process.h), narrowed to input_limits.h and
  // checked here with their place.
  const auto num = [&](std::string_view k, double& out, bool required, const NumberRange& range) {
    const ConfigNode* n = required ? &f.required(k) : f.optional(k);
    if (n != nullptr) out = read_number_in(*n, f.path_of(k), range);
  };
  const bool mmpp = a.kind == "mmpp";
  num("rate_per_s", a.rate_per_s, !mmpp, kRateRange);
  num("cv", a.cv, a.kind == "gamma", kCvRange);
  num("rate_on_per_s", a.rate_on_per_s, mmpp, kRateRange);
  if (const ConfigNode* n = f.optional("rate_off_per_s"))  // 0: silent off periods
    if (read_non_negative(*n, f.path_of("rate_off_per_s")) != 0)
      a.rate_off_per_s = read_number_in(*n, f.path_of("rate_off_per_s"), kRateRange);
  num("mean_on_s", a.mean_on_s, mmpp, kSojournRange);
  num("mean_off_s", a.mean_off_s, mmpp, kSojournRange);
  return a;
}

void check_arrival_draws(const ConfigNode& node, const std::string& path, const ArrivalProcessSpec& a,
                         double duration_s) {
  const bool mmpp = a.kind == "mmpp";
  const double per_s = mmpp ? a.rate_on_per_s + a.rate_off_per_s + 1 / a.mean_on_s + 1 / a.mean_off_s : a.rate_per_s;
  const double draws = per_s * duration_s;
  if (draws > kMaxExpectedDraws)
    fail_at(node, path,
            fmt::format("'{}' would draw about {:.3g} times over duration_s {:g} ({:.3g} per second{}); at most {:g} "
                        "draws per arrival process are allowed (memory and run time grow with them)",
                        path, draws, duration_s, per_s, mmpp ? ", arrivals and state switches" : "", kMaxExpectedDraws));
  // Under one expected request the run measures nothing, yet would report every request (none)
  // within its SLO: 100 % attainment from an empty run.
  if (const double expected = expected_arrivals(a, duration_s); expected < 1)
    fail_at(node, path,
            fmt::format("'{}' expects about {:.3g} requests over duration_s {:g}: at least one is needed to measure "
                        "anything (raise duration_s or the rate)",
                        path, expected, duration_s));
}

double expected_arrivals(const ArrivalProcessSpec& a, double duration_s) {
  if (a.kind != "mmpp") return a.rate_per_s * duration_s;
  return (a.rate_on_per_s * a.mean_on_s + a.rate_off_per_s * a.mean_off_s) / (a.mean_on_s + a.mean_off_s) * duration_s;
}

}  // namespace parallax
