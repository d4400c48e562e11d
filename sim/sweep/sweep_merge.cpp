// File: sim/sweep/sweep_merge.cpp
#include "sim/sweep/sweep_merge.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/io/input_error.h"
#include "sim/sweep/results_table.h"
#include "sim/sweep/sweep_directory.h"
#include "sim/sweep/sweep_manifest.h"

namespace parallax {

namespace {

std::filesystem::path normal(const std::filesystem::path& p) {
  std::error_code ec;
  const std::filesystem::path w = std::filesystem::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : w;
}

}  // namespace

MergeReport merge_sweep_outputs(const std::vector<std::filesystem::path>& inputs, const std::filesystem::path& out) {
  if (inputs.empty()) throw InputError(SourceLocation{"<command line>", 0, 0}, "", "merge needs at least one folder");
  MergeReport report;
  SweepIdentity merged_id;
  std::vector<ManifestEntry> entries;
  std::unordered_map<std::string, size_t> point_of;  // hash -> point index
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::filesystem::path& dir = inputs[i];
    if (normal(dir) == normal(out))
      throw InputError(SourceLocation{dir.string(), 0, 0}, "--out", "the merged folder must not be one of the inputs");
    const SweepIdentity id = read_sweep_json(dir / "sweep.json");
    if (i == 0) {
      merged_id = id;
      merged_id.shard.clear();
    } else if (id.sweep_id != merged_id.sweep_id) {
      throw InputError(SourceLocation{(dir / "sweep.json").string(), 0, 0}, "sweep_id",
                       fmt::format("holds another sweep (id {}, source {}) than {} (id {}, source {})", id.sweep_id,
                                   id.source, inputs.front().string(), merged_id.sweep_id, merged_id.source));
    }
    ManifestContents m = read_manifest(dir / "manifest.jsonl");
    report.unreadable_lines += m.dropped_lines;
    report.duplicates += m.duplicate_lines;
    for (ManifestEntry& e : m.entries) {
      const auto [it, fresh] = point_of.emplace(e.hash, e.point);
      if (!fresh) {
        if (it->second != e.point)
          throw InputError(SourceLocation{(dir / "manifest.jsonl").string(), 0, 0}, "point",
                           fmt::format("hash {} is point {} here but point {} in an earlier folder", e.hash, e.point,
                                       it->second));
        ++report.duplicates;
        continue;
      }
      entries.push_back(std::move(e));
    }
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const ManifestEntry& a, const ManifestEntry& b) { return a.point < b.point; });
  report.points_total = merged_id.points;
  report.merged = entries.size();
  size_t k = 0;
  for (size_t p = 0; p < merged_id.points; ++p) {
    while (k < entries.size() && entries[k].point < p) ++k;
    if (k == entries.size() || entries[k].point != p) report.missing.push_back(p);
  }
  std::filesystem::create_directories(out);
  write_manifest(out / "manifest.jsonl", entries);
  write_results_csv(out / "results.csv", merged_id.axis_keys, entries);
  write_sweep_timing_json(out / "timing.json", entries);
  write_sweep_json(out / "sweep.json", merged_id);
  return report;
}

}  // namespace parallax
