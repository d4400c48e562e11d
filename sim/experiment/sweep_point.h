// File: sim/experiment/sweep_point.h
// What `parallax sweep` asks of the experiment layer: every axis value checked as a scenario before
// anything runs, and one point run through the registry in memory, written to its folder as
// `parallax run --out DIR` writes it, its manifest entry taken from the Result (docs/sweeps.md).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>

#include "sim/sweep/sweep_expansion.h"
#include "sim/sweep/sweep_manifest.h"
#include "sim/sweep/sweep_spec.h"

namespace parallax {

// Before anything runs, loads as a scenario the first point `next_index` gives and, after it, each
// point that brings a value (a position of a wheel) no earlier loaded point had: every value of
// every axis is checked once, in index order, so a value the scenario rejects stops the sweep at
// once (exit 2, InputError at the axis in the sweep file) instead of hours later, without loading
// millions of points. A combination that only fails together is found when its point runs.
void validate_sweep_points(const SweepSpec& spec, const SweepSpace& space,
                           const std::function<std::optional<size_t>()>& next_index);

// One point: the base scenario with its overrides through the registry into `dir`; its manifest
// entry, the rates from its timing figures where the run reports them (docs/sweeps.md, "Manifest").
// A machine that cannot be built or a run past the clock is bad input (InputError).
ManifestEntry run_sweep_point(const SweepSpec& spec, const SweepSpace& plan, const SweepPoint& p,
                              const std::filesystem::path& dir);

}  // namespace parallax
