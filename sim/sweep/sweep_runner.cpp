// File: sim/sweep/sweep_runner.cpp
#include "sim/sweep/sweep_runner.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "sim/io/input_file.h"
#include "sim/io/input_error.h"

namespace parallax {

namespace {

// What the workers share with the thread that draws progress.
struct RunState {
  std::mutex next_mutex;  // serialises calls of NextPoint
  std::mutex mutex;
  std::condition_variable changed;
  size_t finished = 0;  // ran or failed; under `mutex`
  size_t working = 0;   // workers not yet out of points; under `mutex`
  size_t ran = 0;
  std::vector<PointFailure> failures;
};

std::optional<SweepPoint> take_next_point(const NextPoint& next, RunState& state) {
  const std::lock_guard<std::mutex> hold(state.next_mutex);
  return next();
}

void work(const NextPoint& next, const PointRunner& run, SweepDirectory& dir, RunState& state) {
  for (std::optional<SweepPoint> taken = take_next_point(next, state); taken; taken = take_next_point(next, state)) {
    const SweepPoint& p = *taken;
    std::optional<PointFailure> failure;
    try {
      dir.record(run(p, dir.point_dir(p)));
    } catch (const InputError& e) {
      failure = PointFailure{p.index, p.hash, e.what(), true};
    } catch (const InputFileError& e) {
      failure = PointFailure{p.index, p.hash, e.what(), true};
    } catch (const std::exception& e) {
      failure = PointFailure{p.index, p.hash, e.what(), false};
    }
    {
      const std::lock_guard<std::mutex> hold(state.mutex);
      ++state.finished;
      if (failure)
        state.failures.push_back(std::move(*failure));
      else
        ++state.ran;
    }
    state.changed.notify_one();
  }
  {
    const std::lock_guard<std::mutex> hold(state.mutex);
    --state.working;
  }
  state.changed.notify_one();
}

}  // namespace

SweepRunReport run_sweep_points(size_t todo, const NextPoint& next, size_t jobs, const PointRunner& run,
                                SweepDirectory& dir, SweepProgress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  RunState state;
  const size_t workers = std::max<size_t>(1, std::min(jobs, todo));
  {
    std::vector<std::jthread> pool;
    state.working = todo > 0 ? workers : 0;
    for (size_t w = 0; w < workers && todo > 0; ++w)
      pool.emplace_back([&] { work(next, run, dir, state); });
    std::unique_lock<std::mutex> lock(state.mutex);
    while (state.finished < todo && state.working > 0) {
      state.changed.wait_for(lock, progress.interval());
      const size_t finished = state.finished;
      lock.unlock();
      progress.update(finished, elapsed());
      lock.lock();
    }
  }  // the jthreads join here
  progress.finish(state.finished, elapsed());
  SweepRunReport report;
  report.ran = state.ran;
  report.failures = std::move(state.failures);
  std::sort(report.failures.begin(), report.failures.end(),
            [](const PointFailure& a, const PointFailure& b) { return a.point < b.point; });
  report.wall_s = elapsed();
  return report;
}

SweepRunReport run_sweep_points(const std::vector<const SweepPoint*>& todo, size_t jobs, const PointRunner& run,
                                SweepDirectory& dir, SweepProgress& progress) {
  size_t k = 0;
  const NextPoint next = [&]() -> std::optional<SweepPoint> {
    if (k == todo.size()) return std::nullopt;
    return *todo[k++];
  };
  return run_sweep_points(todo.size(), next, jobs, run, dir, progress);
}

}  // namespace parallax
