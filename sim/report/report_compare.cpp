// File: sim/report/report_compare.cpp
// report.html for `parallax compare DIR DIR...`: the runs' per-policy metrics as grouped bars (one
// bar per run, so every run sits on the same axes), the top-level metrics' relative differences,
// and the tables of every metric that differs, the text fields that differ and timing.json.
// docs/reports.md#compare.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"

namespace parallax {

namespace {

constexpr size_t kMaxCompareFigures = 30;
constexpr size_t kMaxCompareRows = 500;

std::string compare_value(const std::optional<double>& v, const char* format = "{:.6g}") {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("-");
}

std::string compare_percent(const std::optional<double>& v) {
  return v ? fmt::format("{:+.3g}%", *v * 100) : std::string("n/a");
}

// "policies.P.REST" -> (P, REST); false for any other key.
bool split_policy_key(const std::string& key, std::string& policy, std::string& rest) {
  static constexpr std::string_view kPrefix = "policies.";
  if (!key.starts_with(kPrefix)) return false;
  const size_t dot = key.find('.', kPrefix.size());
  if (dot == std::string::npos) return false;
  policy = key.substr(kPrefix.size(), dot - kPrefix.size());
  rest = key.substr(dot + 1);
  return true;
}

ReportTable metric_table(const RunComparison& c, const std::vector<const ComparedMetric*>& rows, std::string title) {
  ReportTable t{.title = std::move(title), .caption = "", .header = {"metric", "source"}, .rows = {}};
  for (size_t i = 0; i < c.runs.size(); ++i) {
    t.header.push_back(c.runs[i]);
    if (i > 0) {
      t.header.push_back(fmt::format("Δ {}", i));
      t.header.push_back(fmt::format("Δ% {}", i));
    }
  }
  for (size_t r = 0; r < rows.size() && r < kMaxCompareRows; ++r) {
    const ComparedMetric& m = *rows[r];
    std::vector<std::string> row{m.key, m.source};
    for (size_t i = 0; i < c.runs.size(); ++i) {
      row.push_back(compare_value(m.values[i]));
      if (i > 0) {
        row.push_back(compare_value(m.absolute(i), "{:+.6g}"));
        row.push_back(compare_percent(m.relative(i)));
      }
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

HtmlReport compare_report_page(const RunComparison& c) {
  HtmlReport r;
  r.command = "parallax compare";
  r.title = fmt::format("compare {}", fmt::join(c.runs, " | "));
  std::vector<const ComparedMetric*> differing;
  for (const ComparedMetric& m : c.metrics)
    if (m.differs()) differing.push_back(&m);
  r.summary.emplace_back("baseline", c.runs.front());
  for (size_t i = 1; i < c.runs.size(); ++i) r.summary.emplace_back(fmt::format("run {}", i), c.runs[i]);
  r.summary.emplace_back("metrics compared", fmt::format("{}", c.metrics.size()));
  r.summary.emplace_back("metrics that differ", fmt::format("{}", differing.size()));
  const ComparedMetric* largest = nullptr;
  double largest_rel = 0;
  for (const ComparedMetric* m : differing)
    for (size_t i = 1; i < c.runs.size(); ++i)
      if (const auto rel = m->relative(i); rel && std::fabs(*rel) > largest_rel) {
        largest_rel = std::fabs(*rel);
        largest = m;
      }
  if (largest != nullptr)
    r.summary.emplace_back("largest relative difference", fmt::format("{} ({:.3g}%)", largest->key, largest_rel * 100));

  // Per-policy metrics that differ: one chart per field, policies as categories, runs as bars.
  std::vector<std::string> fields;
  std::map<std::string, std::vector<std::string>> policies_of;
  std::map<std::pair<std::string, std::string>, const ComparedMetric*> by_field;
  std::map<std::string, bool> field_differs;
  for (const ComparedMetric& m : c.metrics) {
    std::string policy, rest;
    if (m.source != "summary.json" || !split_policy_key(m.key, policy, rest)) continue;
    if (!field_differs.contains(rest)) fields.push_back(rest);
    field_differs[rest] = field_differs[rest] || m.differs();
    auto& ps = policies_of[rest];
    if (std::find(ps.begin(), ps.end(), policy) == ps.end()) ps.push_back(policy);
    by_field[{rest, policy}] = &m;
  }
  for (const std::string& field : fields) {
    if (!field_differs[field] || r.figures.size() >= kMaxCompareFigures) continue;
    BarChart chart{.title = field, .x_label = "policy", .y_label = field};
    chart.categories = policies_of[field];
    for (size_t run = 0; run < c.runs.size(); ++run) {
      BarGroup g{.name = c.runs[run], .values = {}};
      for (const std::string& p : chart.categories) {
        const ComparedMetric* m = by_field[{field, p}];
        g.values.push_back(m != nullptr && m->values[run] ? *m->values[run] : NAN);
      }
      chart.groups.push_back(std::move(g));
    }
    r.figures.push_back({fmt::format("policies.*.{}", field),
                         "One cluster per policy, one bar per run (colours in the legend, baseline first), all on "
                         "one y axis.",
                         render_bar_chart(chart)});
  }
  // Top-level summary numbers that differ: relative to the baseline.
  BarChart top{.title = fmt::format("relative to {}", c.runs.front()), .x_label = "summary.json field",
               .y_label = "difference from baseline (%)"};
  for (const ComparedMetric* m : differing)
    if (m->source == "summary.json" && m->key.find('.') == std::string::npos) top.categories.push_back(m->key);
  if (!top.categories.empty()) {
    for (size_t run = 1; run < c.runs.size(); ++run) {
      BarGroup g{.name = c.runs[run], .values = {}};
      for (const std::string& key : top.categories) {
        const auto it = std::find_if(differing.begin(), differing.end(), [&](const ComparedMetric* m) { return m->key == key; });
        const auto rel = (*it)->relative(run);
        g.values.push_back(rel ? *rel * 100 : NAN);
      }
      top.groups.push_back(std::move(g));
    }
    top.reference_y = 0;
    top.reference_label = "baseline";
    r.figures.push_back({"Top-level summary fields that differ",
                         "(run - baseline) / |baseline| for each scalar of summary.json that differs; a missing bar "
                         "is a baseline of 0 or a field the run lacks (see the table).",
                         render_bar_chart(top)});
  }
  if (r.figures.empty())
    r.notes.push_back(differing.empty() ? "Every compared metric is identical in every run."
                                        : "No per-policy or top-level summary field differs; the table lists the "
                                          "CSV metrics that do.");

  ReportTable diff = metric_table(c, differing, "Metrics that differ");
  diff.caption = fmt::format(
      "{} of {} metrics differ ({} shown). Δ i = run i - baseline, Δ% i = Δ i / |baseline|; n/a where the baseline is "
      "0 or either value is missing (-). compare.csv has every metric, identical ones included.",
      differing.size(), c.metrics.size(), std::min(differing.size(), kMaxCompareRows));
  r.tables.push_back(std::move(diff));
  if (!c.texts.empty()) {
    ReportTable t{.title = "Text fields that differ", .caption = "summary.json strings whose value is not the same in every run.",
                  .header = {"field"}, .rows = {}};
    t.header.insert(t.header.end(), c.runs.begin(), c.runs.end());
    for (const ComparedText& x : c.texts) {
      std::vector<std::string> row{x.key};
      row.insert(row.end(), x.values.begin(), x.values.end());
      t.rows.push_back(std::move(row));
    }
    r.tables.push_back(std::move(t));
  }
  if (!c.timing.empty()) {
    std::vector<const ComparedMetric*> rows;
    for (const ComparedMetric& m : c.timing) rows.push_back(&m);
    ReportTable t = metric_table(c, rows, "Timing (timing.json)");
    t.caption = "Wall-clock figures: they change from one run to the next, so they are shown here and never counted "
                "as differences.";
    r.tables.push_back(std::move(t));
  }
  r.provenance.emplace_back("runs", fmt::format("{}", fmt::join(c.runs, ", ")));
  return r;
}

}  // namespace parallax
