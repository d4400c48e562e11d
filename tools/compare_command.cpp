// File: tools/compare_command.cpp
#include "tools/compare_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/report/atomic_file.h"
#include "sim/report/console_table.h"
#include "sim/report/report_pages.h"
#include "sim/report/run_comparison.h"
#include "sim/experiment/version.h"
#include "sim/io/input_error.h"

namespace parallax {

namespace {

std::string read_whole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path.string(), 0, 0}, "", "cannot read the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::ordered_json read_run_json(const std::filesystem::path& path) {
  try {
    return nlohmann::ordered_json::parse(read_whole(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError({path.string(), 0, 0}, "", fmt::format("not valid JSON: {}", e.what()));
  }
}

RunFolder read_run_folder(const std::string& label) {
  const std::filesystem::path dir(label);
  if (!std::filesystem::is_directory(dir))
    throw InputError({label, 0, 0}, "", "not a run folder: no such directory");
  if (!std::filesystem::exists(dir / "summary.json"))
    throw InputError({label, 0, 0}, "",
                     "not a run folder: no summary.json here (parallax run FILE --out DIR writes one; a sweep "
                     "folder's points are under points/<hash>/)");
  RunFolder f;
  f.label = label;
  f.summary = read_run_json(dir / "summary.json");
  if (std::filesystem::exists(dir / "timing.json")) f.timing = read_run_json(dir / "timing.json");
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".csv")
      f.tables[entry.path().filename().string()] = parse_csv(read_whole(entry.path()));
  return f;
}

void print_metrics(const RunComparison& c, const std::vector<const ComparedMetric*>& rows, const char* heading) {
  std::vector<std::string> header{heading};
  for (size_t i = 0; i < c.runs.size(); ++i) {
    header.push_back(i == 0 ? fmt::format("[0] {}", c.runs[0]) : fmt::format("[{}]", i));
    if (i > 0) {
      header.push_back(fmt::format("Δ[{}]", i));
      header.push_back(fmt::format("Δ%[{}]", i));
    }
  }
  std::vector<std::vector<std::string>> body;
  for (const ComparedMetric* m : rows) {
    std::vector<std::string> row{m->key};
    for (size_t i = 0; i < c.runs.size(); ++i) {
      row.push_back(m->values[i] ? fmt::format("{:.6g}", *m->values[i]) : "-");
      if (i > 0) {
        const auto a = m->absolute(i), r = m->relative(i);
        row.push_back(a ? fmt::format("{:+.4g}", *a) : "-");
        row.push_back(r ? fmt::format("{:+.3g}%", *r * 100) : "n/a");
      }
    }
    body.push_back(std::move(row));
  }
  std::fputs(format_table(header, body).c_str(), stdout);
}

}  // namespace

CLI::App* add_compare_subcommand(CLI::App& app, CompareOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "compare", "Compare run folders metric by metric (summary.json and the CSV tables) against the first one");
  cmd->add_option("dirs", options.dirs, "run folders (parallax run --out DIR), the baseline first")->required();
  cmd->add_option("--out", options.out_dir, "write compare.csv and report.html (plots on shared axes) here");
  cmd->add_flag("--all", options.all, "also print the metrics that are identical in every run");
  return cmd;
}

int compare_command(const CompareOptions& options) {
  if (options.dirs.size() < 2)
    throw InputError({options.dirs.empty() ? std::string("compare") : options.dirs.front(), 0, 0}, "",
                     "parallax compare needs at least two run folders (the first is the baseline)");
  std::vector<RunFolder> folders;
  for (const std::string& d : options.dirs) folders.push_back(read_run_folder(d));
  const RunComparison c = compare_runs(folders);

  std::vector<const ComparedMetric*> shown;
  for (const ComparedMetric& m : c.metrics)
    if (options.all || m.differs()) shown.push_back(&m);
  const size_t differing =
      static_cast<size_t>(std::count_if(c.metrics.begin(), c.metrics.end(), [](const ComparedMetric& m) { return m.differs(); }));
  for (size_t i = 1; i < c.runs.size(); ++i) std::printf("[%zu] %s\n", i, c.runs[i].c_str());
  if (!shown.empty()) print_metrics(c, shown, "metric");
  std::printf("%zu of %zu metrics differ%s\n", differing, c.metrics.size(),
              options.all || differing == c.metrics.size() ? "" : " (identical ones left out; --all shows them)");
  for (const ComparedText& t : c.texts)
    std::printf("%s differs: %s\n", t.key.c_str(), fmt::format("{}", fmt::join(t.values, " | ")).c_str());
  if (!c.timing.empty()) {
    std::printf("\ntiming.json (wall clock, not counted as differences):\n");
    std::vector<const ComparedMetric*> timing;
    for (const ComparedMetric& m : c.timing) timing.push_back(&m);
    print_metrics(c, timing, "timing");
  }
  if (!options.out_dir.empty()) {
    const std::filesystem::path out(options.out_dir);
    std::filesystem::create_directories(out);
    write_file_atomically(out / "compare.csv", comparison_csv(c));
    HtmlReport page = compare_report_page(c);
    page.provenance.insert(page.provenance.begin(),
                           {{"parallax version", kParallaxVersion}, {"git commit", kParallaxGitCommit}});
    write_html_report(out / "report.html", page);
    std::printf("wrote %s and %s\n", (out / "compare.csv").c_str(), (out / "report.html").c_str());
  }
  return 0;
}

}  // namespace parallax
