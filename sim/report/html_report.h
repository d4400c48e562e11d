// File: sim/report/html_report.h
// report.html: one self-contained page per output directory. A summary table of the key numbers,
// the plots as inline SVG, the scenario text in a collapsed <details>, and provenance (version,
// commit, seed, the command's overrides). Everything is inlined: no scripts, no external style
// sheets, fonts or images, so the page opens from disk with no network. No timestamps: the same
// report gives the same bytes. What goes on the page for each experiment is report_pages.h.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace parallax {

struct ReportFigure {
  std::string title;
  std::string caption;  // one or two sentences on how to read it (plain text)
  std::string svg;      // from render_xy_plot / render_bar_chart
};

// A table of rows (a sweep's points), printed after the plots.
struct ReportTable {
  std::string title;
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct ReportScenario {
  std::string name;
  std::string source;  // the file path, or "<embedded quickstart>"
  std::string text;    // the YAML as read
};

struct HtmlReport {
  std::string title;
  std::string command = "parallax run";  // what wrote the directory
  std::string kind;  // workload kind: transfers, overlap, serverless, ...; empty for sweep, validate
  std::vector<std::pair<std::string, std::string>> summary;  // key numbers, in order
  std::vector<ReportFigure> figures;
  std::vector<std::string> notes;  // plain-text paragraphs after the figures
  std::vector<ReportTable> tables;
  ReportScenario scenario;  // the section is left out when both source and text are empty
  std::vector<std::pair<std::string, std::string>> provenance;
};

std::string render_html_report(const HtmlReport& report);

// render_html_report into `path` via write_file_atomically.
void write_html_report(const std::filesystem::path& path, const HtmlReport& report);

}  // namespace parallax
