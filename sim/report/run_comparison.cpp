// File: sim/report/run_comparison.cpp
#include "sim/report/run_comparison.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/report/csv_row.h"

namespace parallax {

namespace {

// Metrics in first-seen order, one slot per run.
class MetricTable {
 public:
  MetricTable(size_t runs, std::string source) : runs_(runs), source_(std::move(source)) {}

  void put(size_t run, const std::string& key, double value) {
    auto [it, fresh] = index_.emplace(key, metrics_.size());
    if (fresh) metrics_.push_back({key, source_, std::vector<std::optional<double>>(runs_)});
    metrics_[it->second].values[run] = value;
  }
  void set_source(std::string source) { source_ = std::move(source); }
  std::vector<ComparedMetric> take() { return std::move(metrics_); }

 private:
  size_t runs_;
  std::string source_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<ComparedMetric> metrics_;
};

std::string last_part(const std::string& key) {
  const size_t dot = key.rfind('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

void flatten(const nlohmann::ordered_json& j, const std::string& prefix, size_t run, bool keep_timing,
             MetricTable& numbers, std::map<std::string, std::vector<std::string>>& texts, size_t runs) {
  const auto child = [&](const std::string& k) { return prefix.empty() ? k : prefix + "." + k; };
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, child(k), run, keep_timing, numbers, texts, runs);
  } else if (j.is_array()) {
    // Objects with distinct "name"s are keyed by them (links[gpu0→nvswitch].bytes), so that a
    // metric follows its link or collective; anything else by index (links.3.bytes).
    std::map<std::string, size_t> names;
    for (const auto& e : j)
      if (e.is_object() && e.contains("name") && e["name"].is_string()) ++names[e["name"].get<std::string>()];
    bool by_name = names.size() == j.size();
    for (const auto& [n, count] : names) by_name = by_name && count == 1;
    for (size_t i = 0; i < j.size(); ++i)
      flatten(j[i], by_name ? fmt::format("{}[{}]", prefix, j[i]["name"].get<std::string>()) : child(std::to_string(i)),
              run, keep_timing, numbers, texts, runs);
  } else if (!keep_timing && is_timing_key(last_part(prefix))) {
    return;
  } else if (j.is_number()) {
    numbers.put(run, prefix, j.get<double>());
  } else if (j.is_boolean()) {
    numbers.put(run, prefix, j.get<bool>() ? 1.0 : 0.0);
  } else if (j.is_string()) {
    auto& v = texts[prefix];
    v.resize(runs);
    v[run] = j.get<std::string>();
  }
}

// A CSV cell as a number: decimal, exponent, inf or nan; "" and "1MiB" are not.
std::optional<double> cell_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// docs/reports.md#compare: text columns key the rows; unique keys compare row by row, repeated
// keys (time series) by each numeric column's mean over the key's rows, plus the row count.
void add_table(const CsvTable& t, const std::string& file, size_t run, MetricTable& out) {
  std::vector<bool> text_column(t.header.size(), false);
  for (const auto& row : t.rows)
    for (size_t c = 0; c < row.size() && c < t.header.size(); ++c)
      if (!row[c].empty() && !cell_number(row[c])) text_column[c] = true;
  for (size_t c = 0; c < t.header.size(); ++c)
    if (is_timing_key(t.header[c])) text_column[c] = true;  // neither a key nor compared
  std::vector<std::string> keys;
  std::map<std::string, size_t> count;
  for (const auto& row : t.rows) {
    std::string key;
    for (size_t c = 0; c < t.header.size(); ++c)
      if (text_column[c] && !is_timing_key(t.header[c])) {
        if (!key.empty()) key.push_back('/');
        if (c < row.size()) key += row[c];
      }
    keys.push_back(key);
    ++count[key];
  }
  const auto name_of = [&](const std::string& key) { return key.empty() ? file : fmt::format("{}[{}]", file, key); };
  bool unique = true;
  for (const auto& [k, n] : count) unique = unique && n == 1;
  if (unique) {
    for (size_t r = 0; r < t.rows.size(); ++r)
      for (size_t c = 0; c < t.header.size(); ++c) {
        if (text_column[c] || c >= t.rows[r].size()) continue;
        if (const auto v = cell_number(t.rows[r][c])) out.put(run, name_of(keys[r]) + "." + t.header[c], *v);
      }
    return;
  }
  // Means per key in first-seen key order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<double, size_t>>> sums;  // per key: (sum, n) per column
  for (size_t r = 0; r < t.rows.size(); ++r) {
    auto [it, fresh] = sums.try_emplace(keys[r], t.header.size(), std::pair<double, size_t>{0, 0});
    if (fresh) order.push_back(keys[r]);
    for (size_t c = 0; c < t.header.size(); ++c) {
      if (text_column[c] || c >= t.rows[r].size()) continue;
      const auto v = cell_number(t.rows[r][c]);
      if (!v || !std::isfinite(*v)) continue;
      it->second[c].first += *v;
      ++it->second[c].second;
    }
  }
  for (const std::string& key : order) {
    out.put(run, name_of(key) + ".rows", static_cast<double>(count[key]));
    for (size_t c = 0; c < t.header.size(); ++c) {
      const auto& [sum, n] = sums[key][c];
      if (!text_column[c] && n > 0) out.put(run, fmt::format("{}.mean({})", name_of(key), t.header[c]), sum / n);
    }
  }
}

std::string number_text(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : std::string(); }

std::string comparison_row(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line.push_back(',');
    line += csv_field(fields[i]);
  }
  return line + "\n";
}

}  // namespace

bool is_timing_key(const std::string& key) {
  return key.ends_with("wall_s") || key.ends_with("sim_to_wall_ratio") || key.ends_with("events_per_s");
}

std::optional<double> ComparedMetric::absolute(size_t i) const {
  if (i >= values.size() || !values[0] || !values[i]) return std::nullopt;
  return *values[i] - *values[0];
}

std::optional<double> ComparedMetric::relative(size_t i) const {
  const auto a = absolute(i);
  if (!a) return std::nullopt;
  if (*values[0] == 0) return *a == 0 ? std::optional<double>(0.0) : std::nullopt;
  return *a / std::fabs(*values[0]);
}

bool ComparedMetric::differs() const {
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i].has_value() != values[0].has_value()) return true;
    if (values[0] && !(*values[i] == *values[0]) && !(std::isnan(*values[i]) && std::isnan(*values[0]))) return true;
  }
  return false;
}

RunComparison compare_runs(const std::vector<RunFolder>& folders) {
  if (folders.size() < 2) throw std::invalid_argument("compare_runs: needs at least two run folders");
  const size_t n = folders.size();
  RunComparison c;
  MetricTable numbers(n, "summary.json"), timing(n, "timing.json");
  std::map<std::string, std::vector<std::string>> texts;
  for (size_t run = 0; run < n; ++run) {
    c.runs.push_back(folders[run].label);
    flatten(folders[run].summary, "", run, false, numbers, texts, n);
    if (folders[run].timing) {
      std::map<std::string, std::vector<std::string>> ignored;
      flatten(*folders[run].timing, "", run, true, timing, ignored, n);
    }
  }
  std::map<std::string, bool> files;  // every CSV name any run has, sorted
  for (const RunFolder& f : folders)
    for (const auto& [name, _] : f.tables) files[name] = true;
  for (const auto& [file, _] : files) {
    numbers.set_source(file);
    for (size_t run = 0; run < n; ++run) {
      const auto it = folders[run].tables.find(file);
      if (it != folders[run].tables.end()) add_table(it->second, file, run, numbers);
    }
  }
  c.metrics = numbers.take();
  c.timing = timing.take();
  for (auto& [key, values] : texts) {
    values.resize(n);
    bool same = true;
    for (const std::string& v : values) same = same && v == values[0];
    if (!same) c.texts.push_back({key, values});
  }
  return c;
}

std::string comparison_csv(const RunComparison& c) {
  std::vector<std::string> header{"metric", "source"};
  for (size_t i = 0; i < c.runs.size(); ++i) {
    header.push_back(fmt::format("value_{}", i));
    if (i > 0) {
      header.push_back(fmt::format("abs_{}", i));
      header.push_back(fmt::format("rel_{}", i));
    }
  }
  std::string out = comparison_row(header);
  for (const auto* list : {&c.metrics, &c.timing})
    for (const ComparedMetric& m : *list) {
      std::vector<std::string> row{m.key, m.source};
      for (size_t i = 0; i < c.runs.size(); ++i) {
        row.push_back(number_text(m.values[i]));
        if (i > 0) {
          row.push_back(number_text(m.absolute(i)));
          row.push_back(number_text(m.relative(i)));
        }
      }
      out += comparison_row(row);
    }
  return out;
}

}  // namespace parallax
