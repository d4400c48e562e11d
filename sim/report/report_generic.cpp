// File: sim/report/report_generic.cpp
// The summary table every page starts from, and the page for kinds without plots.
#include <string_view>

#include <fmt/format.h>

#include "sim/report/report_pages.h"

namespace parallax {

namespace {
bool is_wall_clock(std::string_view key) { return key.ends_with("wall_s") || key == "sim_to_wall_ratio"; }
}  // namespace

std::string format_report_value(const nlohmann::ordered_json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) return fmt::format("{:.6g}", v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

std::vector<std::pair<std::string, std::string>> summary_rows(const nlohmann::ordered_json& summary) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& [key, value] : summary.items()) {
    if (value.is_structured() || is_wall_clock(key)) continue;
    rows.emplace_back(key, format_report_value(value));
  }
  return rows;
}

std::vector<std::string> report_policy_names(const nlohmann::ordered_json& summary) {
  std::vector<std::string> names;
  if (summary.contains("policies") && summary["policies"].is_object())
    for (const auto& [name, _] : summary["policies"].items()) names.push_back(name);
  return names;
}

HtmlReport generic_report_page(const nlohmann::ordered_json& summary, const std::string& kind) {
  HtmlReport r;
  r.kind = kind;
  r.title = fmt::format("{}: {}", summary.value("scenario", std::string("run")), kind);
  r.summary = summary_rows(summary);
  return r;
}

}  // namespace parallax
