// File: sim/experiment/version.h
// The version the binary was built from (set by sim/experiment/meson.build) and its commit
// (sim/experiment/build_commit.cpp.in, filled in at every build by meson.build's vcs_tag).
#pragma once

namespace parallax {
inline constexpr const char* kParallaxVersion = PARALLAX_VERSION;
extern const char* const kParallaxGitCommit;
}  // namespace parallax
