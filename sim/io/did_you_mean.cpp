// File: sim/io/did_you_mean.cpp
#include "sim/io/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace parallax {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

template <class Strings>
std::string closest(std::string_view word, const Strings& candidates) {
  const int limit = word.size() <= 4 ? 1 : 2;
  // Rank by edit distance, then by length difference ("gpuz" -> "gpus" before "gpu").
  std::pair<int, size_t> best{limit + 1, 0};
  std::string found;
  for (const auto& c : candidates) {
    const std::string_view candidate(c);
    const size_t length_gap = candidate.size() > word.size() ? candidate.size() - word.size() : word.size() - candidate.size();
    const std::pair<int, size_t> rank{edit_distance_ignoring_case(word, candidate), length_gap};
    if (rank < best) {
      best = rank;
      found = std::string(candidate);
    }
  }
  return found;
}

std::string suffix_for(const std::string& match) {
  return match.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", match);
}

}  // namespace

int edit_distance_ignoring_case(std::string_view a, std::string_view b) {
  // Rows i-2, i-1 and i of the distance table; a swap of neighbours ("rnu" -> "run") is one edit.
  std::vector<int> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

std::string closest_match(std::string_view word, std::span<const std::string_view> candidates) {
  return closest(word, candidates);
}
std::string closest_match(std::string_view word, std::span<const std::string> candidates) {
  return closest(word, candidates);
}
std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates) {
  return suffix_for(closest(word, candidates));
}
std::string did_you_mean_suffix(std::string_view word, std::span<const std::string> candidates) {
  return suffix_for(closest(word, candidates));
}

}  // namespace parallax
