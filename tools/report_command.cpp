// File: tools/report_command.cpp
#include "tools/report_command.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/io/input_file.h"
#include "sim/report/report_pages.h"
#include "sim/experiment/version.h"
#include "sim/io/input_error.h"

namespace parallax {

namespace {

std::string read_required(const std::filesystem::path& path) { return read_input_text(path.string()); }

nlohmann::ordered_json read_json(const std::filesystem::path& path) {
  try {
    return nlohmann::ordered_json::parse(read_required(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError({path.string(), 0, 0}, "", fmt::format("not valid JSON: {}", e.what()));
  }
}

void add_binary_provenance(HtmlReport& page) {
  page.provenance.insert(page.provenance.begin(),
                         {{"parallax version", kParallaxVersion}, {"git commit", kParallaxGitCommit}});
}

}  // namespace

void write_sweep_report(const std::filesystem::path& dir, const SweepPlotChoice& choice) {
  const nlohmann::ordered_json sweep = read_json(dir / "sweep.json");
  const CsvTable results = parse_csv(read_required(dir / "results.csv"));
  for (const std::string& m : choice.metrics) {
    const bool known = std::find(results.header.begin(), results.header.end(), m) != results.header.end();
    bool numeric = known;
    for (size_t i = 0; known && i < results.rows.size(); ++i) numeric = numeric && !std::isnan(results.number(i, m));
    if (!numeric) {
      std::vector<std::string> names;
      for (const std::string& c : results.header) {
        if (c == "point" || c == "seed" || c.ends_with("wall_s") || c.ends_with("sim_to_wall_ratio")) continue;
        bool all = !results.rows.empty();
        for (size_t i = 0; i < results.rows.size() && all; ++i) all = !std::isnan(results.number(i, c));
        if (all) names.push_back(c);
      }
      throw InputError({(dir / "results.csv").string(), 0, 0}, "--metric",
                       fmt::format("{} '{}': the metrics to plot are {}", known ? "not a numeric column:" : "no column",
                                   m, fmt::join(names, ", ")));
    }
  }
  HtmlReport page = sweep_report_page(sweep, results, choice);
  const std::string source = sweep.value("source", std::string());
  std::ifstream file(source, std::ios::binary);
  if (!source.empty() && file) {
    std::ostringstream text;
    text << file.rdbuf();
    page.scenario = {"sweep file", source, text.str()};
  }
  add_binary_provenance(page);
  page.provenance.emplace_back("sweep id", sweep.value("sweep_id", std::string()));
  page.provenance.emplace_back("base scenario", sweep.value("base", std::string()));
  page.provenance.emplace_back("seeds", "per point: the seed column of the points table and results.csv");
  write_html_report(dir / "report.html", page);
}

void write_validation_report(const std::filesystem::path& dir) {
  const nlohmann::ordered_json validation = read_json(dir / "validation.json");
  HtmlReport page = validation_report_page(validation, parse_csv(read_required(dir / "validation.csv")));
  add_binary_provenance(page);
  page.provenance.emplace_back("measurements", (dir / "measurements.csv").string());
  page.provenance.emplace_back("calibration used", validation.value("calibration", std::string()));
  page.provenance.emplace_back("split", validation.value("split", std::string()));
  write_html_report(dir / "report.html", page);
}

CLI::App* add_report_subcommand(CLI::App& app, ReportOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "report", "(Re)write DIR/report.html for a sweep folder (sweep.json) or a validated measurement folder "
                "(validation.json); parallax run writes its own");
  cmd->add_option("dir", options.dir, "the folder")->required();
  cmd->add_option("--metric", options.plot.metrics,
                  "sweep folders: plot this results.csv column over the swept axes (repeatable; default: "
                  "makespan_s, else the first summary column that varies)")
      ->type_name("NAME");
  cmd->add_flag("--log-x", options.plot.log_x, "sweep folders: log x axis (default: log when x spans 20x or more)");
  cmd->add_flag("--log-y", options.plot.log_y, "sweep folders: log y axis (default: log when y spans 20x or more)");
  return cmd;
}

int report_command(const ReportOptions& options) {
  const std::filesystem::path dir(options.dir);
  const bool plot_options = !options.plot.metrics.empty() || options.plot.log_x || options.plot.log_y;
  if (std::filesystem::exists(dir / "sweep.json")) {
    write_sweep_report(dir, options.plot);
  } else if (std::filesystem::exists(dir / "validation.json")) {
    if (plot_options)
      throw InputError({options.dir, 0, 0}, "--metric", "--metric, --log-x and --log-y apply to sweep folders only");
    write_validation_report(dir);
  } else {
    throw InputError({options.dir, 0, 0}, "",
                     "neither sweep.json nor validation.json here: not a sweep folder or a validated measurement "
                     "folder (parallax run writes its own report.html)");
  }
  std::printf("wrote %s\n", (dir / "report.html").c_str());
  return 0;
}

}  // namespace parallax
