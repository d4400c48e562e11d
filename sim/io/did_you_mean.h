// File: sim/io/did_you_mean.h
// "Did you mean" suggestions for misspelt keys, preset names, units and node names: the closest
// candidate by edit distance (case-insensitive), if it is close enough to be a likely typo.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace parallax {

// Edit distance between the lower-cased forms of a and b: insertions, deletions, substitutions
// and swaps of two neighbouring characters, one edit each (optimal string alignment).
int edit_distance_ignoring_case(std::string_view a, std::string_view b);

// The candidate closest to `word`, or "" when none is within 1 edit (words of up to 4 characters)
// or 2 edits (longer words). Ties go to the candidate closest in length, then the earlier one.
std::string closest_match(std::string_view word, std::span<const std::string_view> candidates);
std::string closest_match(std::string_view word, std::span<const std::string> candidates);

// " (did you mean 'x'?)" or "" — ready to append to a message.
std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates);
std::string did_you_mean_suffix(std::string_view word, std::span<const std::string> candidates);

}  // namespace parallax
