// File: sim/scenario/config_edit.cpp
#include "sim/scenario/config_edit.h"

#include <charconv>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"

namespace parallax {

namespace {

SourceLocation command_line() { return SourceLocation{std::string(kCommandLine), 0, 0}; }

[[noreturn]] void override_error(std::string_view assignment, const std::string& key, const std::string& what) {
  throw InputError(command_line(), key, fmt::format("--set '{}': {}", assignment, what));
}

std::vector<std::string> split_path(std::string_view assignment, std::string_view path) {
  std::vector<std::string> segments;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string_view segment = path.substr(start, dot == std::string_view::npos ? path.npos : dot - start);
    if (segment.empty()) override_error(assignment, std::string(path), "empty key in the dotted path");
    segments.emplace_back(segment);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return segments;
}

bool parse_index(const std::string& s, size_t& index) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
  return ec == std::errc() && end == s.data() + s.size();
}

ConfigNode parse_value(std::string_view assignment, const std::string& key, std::string_view text) {
  ConfigNode value;
  if (text.empty()) {
    value.kind = ConfigNode::Kind::scalar;
  } else {
    try {
      value = parse_config_tree(text, std::string(kCommandLine));
    } catch (const InputError& e) {
      override_error(assignment, key, fmt::format("invalid value: {}", e.message()));
    }
  }
  relocate(value, command_line());
  return value;
}

}  // namespace

void apply_override(ConfigNode& root, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) override_error(assignment, "", "expected dotted.path=value");
  const std::string_view path = assignment.substr(0, eq);
  const std::vector<std::string> segments = split_path(assignment, path);
  ConfigNode value = parse_value(assignment, std::string(path), assignment.substr(eq + 1));

  ConfigNode* node = &root;
  std::string walked;
  for (size_t s = 0; s < segments.size(); ++s) {
    const std::string& segment = segments[s];
    const bool last = s + 1 == segments.size();
    const std::string here = join_path(walked, segment);
    if (node->kind == ConfigNode::Kind::null) {
      node->kind = ConfigNode::Kind::map;
      node->where = command_line();
    }
    if (node->kind == ConfigNode::Kind::map) {
      ConfigEntry* entry = find_entry(*node, segment);
      if (entry == nullptr) {
        node->entries.push_back(ConfigEntry{segment, command_line(), ConfigNode{}});
        entry = &node->entries.back();
        entry->value.where = command_line();
      }
      node = &entry->value;
    } else if (node->kind == ConfigNode::Kind::sequence) {
      size_t index = 0;
      if (!parse_index(segment, index))
        override_error(assignment, here, fmt::format("'{}' is a list; '{}' is not an index", walked, segment));
      if (index > node->items.size())
        override_error(assignment, here,
                       fmt::format("index {} is out of range for '{}' ({} items)", index, walked, node->items.size()));
      if (index == node->items.size()) {
        node->items.emplace_back();
        node->items.back().where = command_line();
      }
      node = &node->items[index];
    } else {
      override_error(assignment, here, fmt::format("'{}' is a scalar and has no key '{}'", walked, segment));
    }
    if (last) *node = std::move(value);
    walked = here;
  }
}

void deep_merge(ConfigNode& base, const ConfigNode& overlay) {
  if (base.kind != ConfigNode::Kind::map || overlay.kind != ConfigNode::Kind::map) {
    base = overlay;
    return;
  }
  for (const ConfigEntry& e : overlay.entries) {
    if (ConfigEntry* existing = find_entry(base, e.key)) {
      existing->key_where = e.key_where;
      deep_merge(existing->value, e.value);
    } else {
      base.entries.push_back(e);
    }
  }
}

}  // namespace parallax
