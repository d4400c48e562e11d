// File: sim/experiment/version.h
// The version and commit the binary was built from (set by sim/experiment/meson.build).
#pragma once

namespace parallax {
inline constexpr const char* kParallaxVersion = PARALLAX_VERSION;
inline constexpr const char* kParallaxGitCommit = PARALLAX_GIT_COMMIT;
}  // namespace parallax
