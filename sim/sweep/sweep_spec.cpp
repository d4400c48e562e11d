// File: sim/sweep/sweep_spec.cpp
#include "sim/sweep/sweep_spec.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "sim/io/input_file.h"
#include "sim/scenario/config_fields.h"

namespace parallax {

namespace {

// The most points one `repeat` may ask for; far beyond any sensible use, it stops a typo early.
constexpr int64_t kMaxRepeat = 1'000'000;

std::string read_text(const std::string& path, const SourceLocation& cited_at, const std::string& key,
                      std::string_view what) {
  try {
    return read_input_file(path);
  } catch (const InputFileError& e) {
    throw InputError(cited_at, key, fmt::format("cannot open {} '{}': {}", what, path, e.reason()));
  }
}

void check_dotted_key(const ConfigEntry& e, const std::string& path) {
  bool empty_segment = e.key.empty() || e.key.front() == '.' || e.key.back() == '.' ||
                       e.key.find("..") != std::string::npos;
  if (empty_segment || e.key.find('=') != std::string::npos)
    throw InputError(e.key_where, path, fmt::format("'{}' is not a dotted key (a.b.0.c)", e.key));
}

SweepAxis read_axis(const ConfigEntry& e, const std::string& group_path) {
  const std::string path = join_path(group_path, e.key);
  check_dotted_key(e, path);
  if (e.value.kind != ConfigNode::Kind::sequence)
    fail_at(e.value, path, fmt::format("'{}' must be a list of values, got {}", path, kind_name(e.value.kind)));
  if (e.value.items.empty()) fail_at(e.value, path, fmt::format("'{}' has no values", path));
  return SweepAxis{e.key, e.key_where, e.value.items};
}

SweepAxisGroup read_group(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"cartesian", "zip"});
  if (node.entries.size() != 1)
    fail_at(node, path, fmt::format("'{}' must hold exactly one of 'cartesian' or 'zip'", path));
  const ConfigEntry& kind = node.entries.front();
  SweepAxisGroup group;
  group.kind = kind.key == "zip" ? SweepAxisGroup::Kind::zip : SweepAxisGroup::Kind::cartesian;
  group.where = kind.key_where;
  const std::string group_path = f.path_of(kind.key);
  expect_map(kind.value, group_path);
  if (kind.value.entries.empty()) fail_at(kind.value, group_path, fmt::format("'{}' names no keys", group_path));
  for (const ConfigEntry& e : kind.value.entries) group.axes.push_back(read_axis(e, group_path));
  if (group.kind == SweepAxisGroup::Kind::zip) {
    const SweepAxis& first = group.axes.front();
    for (const SweepAxis& a : group.axes)
      if (a.values.size() != first.values.size())
        throw InputError(a.where, join_path(group_path, a.key),
                         fmt::format("zipped lists must have one length: '{}' has {} values, '{}' has {}",
                                     first.key, first.values.size(), a.key, a.values.size()));
  }
  return group;
}

SweepAxisGroup seed_group(const MapFields& f) {
  const ConfigNode* seeds = f.optional("seeds");
  const ConfigNode* repeat = f.optional("repeat");
  if (seeds != nullptr && repeat != nullptr)
    fail_at(*repeat, "repeat", "'repeat' and 'seeds' both choose the seeds; give one");
  SweepAxisGroup group;
  group.kind = SweepAxisGroup::Kind::cartesian;
  SweepAxis axis;
  axis.key = "seed";
  if (seeds != nullptr) {
    if (seeds->kind != ConfigNode::Kind::sequence || seeds->items.empty())
      fail_at(*seeds, "seeds", "'seeds' must be a non-empty list of seeds");
    for (size_t i = 0; i < seeds->items.size(); ++i) read_unsigned(seeds->items[i], join_path("seeds", i));
    axis.where = seeds->where;
    axis.values = seeds->items;
  } else {
    const int64_t n = read_integer_in(*repeat, "repeat", 1, kMaxRepeat);
    axis.where = repeat->where;
    for (int64_t s = 1; s <= n; ++s) {
      ConfigNode v;
      v.kind = ConfigNode::Kind::scalar;
      v.scalar = std::to_string(s);
      v.where = repeat->where;
      axis.values.push_back(std::move(v));
    }
  }
  group.where = axis.where;
  group.axes.push_back(std::move(axis));
  return group;
}

// "hardware" covers "hardware.gpus": overriding both would make the result depend on their order.
bool covers(std::string_view outer, std::string_view inner) {
  return inner.size() > outer.size() && inner.substr(0, outer.size()) == outer && inner[outer.size()] == '.';
}

void check_keys_distinct(const SweepSpec& spec) {
  std::vector<const SweepAxis*> all;
  for (const SweepAxis& a : spec.fixed) all.push_back(&a);
  for (const SweepAxisGroup& g : spec.groups)
    for (const SweepAxis& a : g.axes) all.push_back(&a);
  for (size_t j = 0; j < all.size(); ++j)
    for (size_t i = 0; i < j; ++i) {
      const SweepAxis& a = *all[i];
      const SweepAxis& b = *all[j];
      if (a.key == b.key)
        throw InputError(b.where, b.key,
                         fmt::format("'{}' is varied twice (first at line {})", b.key, a.where.line));
      if (covers(a.key, b.key) || covers(b.key, a.key))
        throw InputError(b.where, b.key,
                         fmt::format("'{}' and '{}' (line {}) overlap: one lies inside the other", b.key, a.key,
                                     a.where.line));
    }
}

std::filesystem::path folder_of(const std::string& source_name) {
  if (source_name.empty() || source_name.front() == '<') return ".";
  const std::filesystem::path parent = std::filesystem::path(source_name).parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

}  // namespace

SweepSpec parse_sweep_text(std::string_view text, const std::string& source_name) {
  const ConfigNode root = parse_config_tree(text, source_name);
  if (root.kind == ConfigNode::Kind::null)
    throw InputError(SourceLocation{source_name, 0, 0}, "", "the sweep file is empty");
  const MapFields f(root, "", {"base", "set", "axes", "seeds", "repeat"});
  SweepSpec spec;
  spec.source = source_name;

  const ConfigNode& base = f.required("base");
  const std::string base_rel = read_string(base, "base");
  if (base_rel.empty()) fail_at(base, "base", "'base' must name a scenario file");
  const std::filesystem::path base_path(base_rel);
  const std::filesystem::path resolved = base_path.is_absolute() ? base_path : folder_of(source_name) / base_path;
  spec.base_path = resolved.lexically_normal().string();
  spec.base_text = read_text(spec.base_path, base.where, "base", "base scenario");

  if (const ConfigNode* set = f.optional("set")) {
    expect_map(*set, "set");
    for (const ConfigEntry& e : set->entries) {
      const std::string path = join_path("set", e.key);
      check_dotted_key(e, path);
      spec.fixed.push_back(SweepAxis{e.key, e.key_where, {e.value}});
    }
  }
  const ConfigNode& axes = f.required("axes");
  if (axes.kind != ConfigNode::Kind::sequence)
    fail_at(axes, "axes", fmt::format("'axes' must be a list of {{cartesian: ...}} or {{zip: ...}}, got {}",
                                      kind_name(axes.kind)));
  for (size_t i = 0; i < axes.items.size(); ++i) spec.groups.push_back(read_group(axes.items[i], join_path("axes", i)));
  if (f.optional("seeds") != nullptr || f.optional("repeat") != nullptr) spec.groups.push_back(seed_group(f));
  check_keys_distinct(spec);
  return spec;
}

SweepSpec parse_sweep_file(const std::string& path) {
  const std::string text = read_text(path, SourceLocation{path, 0, 0}, "", "sweep file");
  return parse_sweep_text(text, path);
}

}  // namespace parallax
