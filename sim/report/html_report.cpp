// File: sim/report/html_report.cpp
#include "sim/report/html_report.h"

#include "sim/report/atomic_file.h"
#include "sim/report/svg_document.h"

namespace parallax {

namespace {

constexpr const char* kStyle = R"(body{font-family:sans-serif;max-width:1100px;margin:24px auto;padding:0 16px;color:#222}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:14px}td,th{border:1px solid #ddd;padding:3px 10px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}figure{margin:18px 0}
figcaption{font-size:13px;color:#555;max-width:760px;margin-top:4px}
pre{background:#f6f6f6;padding:10px;overflow-x:auto;font-size:12px}.kind{color:#666;font-size:14px}
.plot{overflow-x:auto})";

void key_value_table(std::string& out, const std::vector<std::pair<std::string, std::string>>& rows, bool numbers) {
  out += "<table>\n";
  for (const auto& [k, v] : rows)
    out += "<tr><th>" + xml_escape(k) + "</th><td" + (numbers ? " class=\"num\"" : "") + ">" + xml_escape(v) +
           "</td></tr>\n";
  out += "</table>\n";
}

}  // namespace

std::string render_html_report(const HtmlReport& r) {
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + xml_escape(r.title) + "</title>\n<style>\n" + kStyle + "\n</style>\n</head>\n<body>\n";
  out += "<h1>" + xml_escape(r.title) + "</h1>\n<p class=\"kind\">" + xml_escape(r.command);
  if (!r.kind.empty()) out += ", workload kind <b>" + xml_escape(r.kind) + "</b>";
  out += "</p>\n";
  out += "<section id=\"summary\">\n<h2>Summary</h2>\n";
  key_value_table(out, r.summary, true);
  out += "</section>\n<section id=\"plots\">\n<h2>Plots</h2>\n";
  if (r.figures.empty()) out += "<p>No plots for this kind of run yet.</p>\n";
  for (const ReportFigure& f : r.figures) {
    out += "<figure class=\"plot\">\n" + f.svg;
    out += "<figcaption><b>" + xml_escape(f.title) + ".</b> " + xml_escape(f.caption) + "</figcaption>\n</figure>\n";
  }
  for (const std::string& n : r.notes) out += "<p>" + xml_escape(n) + "</p>\n";
  out += "</section>\n";
  if (!r.tables.empty()) {
    out += "<section id=\"tables\">\n";
    for (const ReportTable& t : r.tables) {
      out += "<h2>" + xml_escape(t.title) + "</h2>\n<p>" + xml_escape(t.caption) + "</p>\n<table>\n<tr>";
      for (const std::string& h : t.header) out += "<th>" + xml_escape(h) + "</th>";
      out += "</tr>\n";
      for (const auto& row : t.rows) {
        out += "<tr>";
        for (const std::string& cell : row) out += "<td class=\"num\">" + xml_escape(cell) + "</td>";
        out += "</tr>\n";
      }
      out += "</table>\n";
    }
    out += "</section>\n";
  }
  if (!r.scenario.source.empty() || !r.scenario.text.empty())
    out += "<section id=\"scenario\">\n<h2>Scenario</h2>\n<details>\n<summary>" + xml_escape(r.scenario.name) +
           " (" + xml_escape(r.scenario.source) + ")</summary>\n<pre>" + xml_escape(r.scenario.text) +
           "</pre>\n</details>\n</section>\n";
  out += "<section id=\"provenance\">\n<h2>Provenance</h2>\n";
  key_value_table(out, r.provenance, false);
  out += "</section>\n</body>\n</html>\n";
  return out;
}

void write_html_report(const std::filesystem::path& path, const HtmlReport& report) {
  write_file_atomically(path, render_html_report(report));
}

}  // namespace parallax
