// File: tools/parallax_main.cpp
// The `parallax` command line: parses, calls the libraries, prints. Exit codes: 0 ok, 2 bad input
// (the message names file:line:col and the key) or an output that cannot be written (the message
// names the path and the reason), 1 internal failure.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "hw/hw_command.h"
#include "models/calibration_data/data_error.h"
#include "sim/engine/sim_time.h"
#include "sim/io/input_file.h"
#include "sim/platform/platform.h"
#include "sim/report/output_error.h"
#include "sim/io/input_error.h"
#include "tools/bench_command.h"
#include "tools/bench_fabric.h"
#include "tools/bench_training.h"
#include "tools/cli_checks.h"
#include "tools/cli_suggestions.h"
#include "tools/compare_command.h"
#include "tools/fit_command.h"
#include "tools/bench_scale.h"
#include "tools/bench_serverless.h"
#include "tools/predict_command.h"
#include "tools/reference_command.h"
#include "tools/report_command.h"
#include "tools/run_command.h"
#include "tools/shell_completion.h"
#include "tools/sweep_command.h"
#include "sim/experiment/version.h"

namespace {

int guarded(const std::function<int()>& body) {
  try {
    const int rc = body();
    parallax::flush_standard_output();  // results lost to a failing stdout must not exit 0
    return rc;
  } catch (const parallax::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::models::DataError& e) {  // measurement CSV, nccl-tests log
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::PlatformError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::TimeRangeError& e) {  // the input's figures, past what the loaders bound
    std::fprintf(stderr,
                 "error: %s: the scenario's times, rates or sizes take the run out of the clock's range "
                 "(docs/reliability.md, Ranges)\n", e.what());
    return 2;
  } catch (const parallax::InputFileError& e) {  // a FIFO, device or directory as input; over a limit
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::OutputError& e) {  // an output that cannot be written: the environment
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"parallax: a discrete-event simulator of GPU clusters", "parallax"};
  app.set_version_flag("--version", fmt::format("parallax {} ({})", parallax::kParallaxVersion,
                                                parallax::kParallaxGitCommit));
  app.require_subcommand(1);

  parallax::RunOptions run;
  CLI::App* run_cmd = app.add_subcommand(
      "run", "Simulate a scenario (the embedded quickstart when FILE is omitted) and print its tables");
  run_cmd->add_option("file", run.scenario_path, "scenario YAML");
  run_cmd->add_option("--out", run.out_dir, parallax::run_out_help());
  run_cmd->add_option("--seed", run.seed, "root random seed (overrides the scenario's)")->check(parallax::unsigned64_check());
  run_cmd->add_option("--set", run.overrides, "override a value: dotted.path=value (repeatable)")
      ->type_name("KEY=VALUE");
  run_cmd->add_flag("--quiet", run.quiet, "print nothing on success");
  run_cmd->add_option("--chakra-out", run.chakra_out, parallax::run_chakra_out_help())->type_name("DIR");

  CLI::App* bench_cmd = app.add_subcommand("bench", "Performance benchmarks");
  bench_cmd->require_subcommand(1);
  uint64_t hold_events = 20'000'000;
  CLI::App* bench_engine = bench_cmd->add_subcommand("engine", "Engine events/s on the hold model (N = 1e3, 1e5, 1e6)");
  bench_engine->add_option("--events", hold_events, "events fired per point")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000'000'000}))
      ->capture_default_str();
  parallax::ScaleBenchmarks scale_bench(*bench_cmd);  // bench flows, bench overlap
  parallax::ServerlessBench serverless_bench(*bench_cmd);
  parallax::FabricBench fabric_bench(*bench_cmd);
  parallax::TrainingBench training_bench(*bench_cmd);

  parallax::PredictCommands predict(app);

  parallax::SweepOptions sweep;
  CLI::App* sweep_cmd = parallax::add_sweep_subcommand(app, sweep);
  parallax::MergeOptions merge;
  CLI::App* merge_cmd = parallax::add_merge_subcommand(app, merge);
  parallax::FitOptions fit;
  CLI::App* fit_cmd = parallax::add_fit_subcommand(app, fit);
  parallax::ValidateOptions validate;
  CLI::App* validate_cmd = parallax::add_validate_subcommand(app, validate);
  parallax::ReportOptions report;
  CLI::App* report_cmd = parallax::add_report_subcommand(app, report);
  parallax::CompareOptions compare;
  CLI::App* compare_cmd = parallax::add_compare_subcommand(app, compare);
  parallax::ReferenceCommands reference;
  parallax::add_reference_subcommands(app, reference);

  std::vector<std::string> help_topic;
  CLI::App* help_cmd = parallax::add_help_subcommand(app, help_topic);
  parallax::CompletionCommand completion;
  parallax::add_completion_subcommand(app, completion);

  parallax::hw::HwOptions hw;
  CLI::App* hw_cmd = parallax::hw::add_hw_subcommand(app, hw);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (const std::optional<std::string> unmatched = parallax::unmatched_arguments_message(app)) {
      std::fputs(unmatched->c_str(), stderr);
      return 2;
    }
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (help_cmd->parsed()) return parallax::help_command(app, help_topic);
  if (completion.cmd->parsed()) return parallax::completion_command(app, completion);
  if (run_cmd->parsed()) return guarded([&] { return parallax::run_command(run); });
  if (sweep_cmd->parsed()) return guarded([&] { return parallax::sweep_command(sweep); });
  if (merge_cmd->parsed()) return guarded([&] { return parallax::merge_command(merge); });
  if (fit_cmd->parsed()) return guarded([&] { return parallax::fit_command(fit); });
  if (validate_cmd->parsed()) return guarded([&] { return parallax::validate_command(validate); });
  if (report_cmd->parsed()) return guarded([&] { return parallax::report_command(report); });
  if (compare_cmd->parsed()) return guarded([&] { return parallax::compare_command(compare); });
  if (const int rc = guarded([&] { return parallax::reference_command(app, reference); }); rc >= 0) return rc;
  if (hw_cmd->parsed()) return guarded([&] { return parallax::hw::hw_command(hw); });
  if (predict.parsed()) return guarded([&] { return predict.run(); });
  if (bench_engine->parsed()) return guarded([&] { return parallax::bench_engine(hold_events); });
  if (scale_bench.parsed()) return guarded([&] { return scale_bench.run(); });
  if (serverless_bench.parsed()) return guarded([&] { return serverless_bench.run(); });
  if (fabric_bench.parsed()) return guarded([&] { return fabric_bench.run(); });
  if (training_bench.parsed()) return guarded([&] { return training_bench.run(); });
  return 2;
}
