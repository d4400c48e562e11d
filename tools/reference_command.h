// File: tools/reference_command.h
// `parallax reference cli` prints docs/cli.md from the CLI11 definitions (tools/cli_reference.h);
// `parallax reference scenario FILE...` loads the scenarios with the loader's schema recorder on
// and prints docs/scenario-reference.md (sim/scenario/schema_recorder.h). The reference_docs test
// regenerates both and fails when the checked-in files differ.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace parallax {

struct ReferenceCommands {
  CLI::App* cli = nullptr;
  CLI::App* scenario = nullptr;
  std::vector<std::string> scenario_files;
};

// Registers `reference cli` and `reference scenario` on `app`.
void add_reference_subcommands(CLI::App& app, ReferenceCommands& commands);

// Runs whichever was parsed; `app` is the whole command line, for the CLI reference. Returns -1
// when neither was.
int reference_command(const CLI::App& app, const ReferenceCommands& commands);

}  // namespace parallax
