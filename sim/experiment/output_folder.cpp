// File: sim/experiment/output_folder.cpp
#include "sim/experiment/output_folder.h"

#include <fmt/format.h>
#include <fmt/std.h>

#include "sim/experiment/experiment.h"
#include "sim/experiment/version.h"
#include "sim/io/input_file.h"
#include "sim/report/atomic_file.h"
#include "sim/report/json_output.h"
#include "sim/report/output_error.h"
#include "sim/report/run_timing.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

void begin_run_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw OutputError(fmt::format("--out {}: exists and is not a folder", dir));
  // Created here, before the scenario is loaded, so that a folder that cannot be made (under a
  // file, on a read-only or virtual file system) is the user's error at once, with its reason.
  std::filesystem::create_directories(dir, ec);
  if (ec) throw output_error("--out: cannot create the folder", dir, ec.value());
  remove_stale_temporaries(dir);
  for (const char* earlier : {"summary.json", "report.html"}) {
    std::filesystem::remove(dir / earlier, ec);
    if (ec) throw output_error("--out: cannot remove the earlier", dir / earlier, ec.value());
  }
}

HtmlReport run_report_page(const Scenario& sc, const RunOptions& options, const Result& result) {
  HtmlReport page = experiment_for(result.kind).page(sc, result);
  const bool embedded = options.scenario_path.empty();
  page.scenario = {sc.name, embedded ? std::string(kQuickstartSource) : options.scenario_path,
                   embedded ? std::string(embedded_quickstart()) : read_input_file(options.scenario_path)};
  page.provenance = {{"parallax version", kParallaxVersion},
                     {"git commit", kParallaxGitCommit},
                     {"seed", fmt::format("{}", sc.seed)},
                     {"hardware", sc.hardware.name},
                     {"scenario file", page.scenario.source}};
  for (const std::string& o : options.overrides) page.provenance.emplace_back("--set", o);
  return page;
}

void write_run_folder(const std::filesystem::path& dir, const Result& result, const HtmlReport& page) {
  std::filesystem::create_directories(dir);
  for (const std::string& name : result.stale) std::filesystem::remove(dir / name);
  for (const OutputFile& f : result.files) {
    if (!f.stream) {
      write_file_atomically(dir / f.name, f.text);
      continue;
    }
    AtomicFileWriter file(dir / f.name);
    f.stream(file.stream());
    file.commit();
  }
  write_timing_json(dir, result.timing);
  write_json_atomically(dir / "summary.json", result.summary);
  write_html_report(dir / "report.html", page);
}

void print_result(std::FILE* out, const Result& result, const std::string& out_dir) {
  std::fputs(format_tables(result.console).c_str(), out);
  if (!out_dir.empty()) std::fprintf(out, "\noutputs: %s\n", out_dir.c_str());
}

}  // namespace parallax
