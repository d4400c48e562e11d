// File: sim/experiment/run_progress.cpp
#include "sim/experiment/run_progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "sim/report/console_table.h"

namespace parallax {

namespace {
constexpr auto kFirstDraw = std::chrono::seconds(1);         // shorter runs print nothing
constexpr auto kRedraw = std::chrono::milliseconds(250);
}  // namespace

RunProgress::RunProgress(std::FILE* out, std::string label, bool enabled) : out_(out), label_(std::move(label)) {
  if (enabled) thread_ = std::thread([this] { draw_until_stopped(); });
}

RunProgress::~RunProgress() { finish(); }

void RunProgress::finish() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  erase_locked();  // the thread is gone: nothing else touches the line
}

void RunProgress::erase_locked() {
  if (!drawn_) return;
  std::fputs("\r\033[K", out_);  // erase the line: what follows starts on a clean one
  std::fflush(out_);
  drawn_ = false;
}

std::string RunProgress::line(const std::string& label, double fraction, double elapsed_s) {
  const double f = std::clamp(fraction, 0.0, 1.0);
  std::string text = fmt::format("run {}: {:3.0f}% {}", label, 100 * f, format_seconds(elapsed_s));
  if (f >= 0.01 && f < 1) text += fmt::format(", about {} left", format_seconds(elapsed_s * (1 - f) / f));
  return text;
}

void RunProgress::draw_until_stopped() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, kFirstDraw, [this] { return stop_; })) return;
  do {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fputs(("\r\033[K" + line(label_, fraction_.load(std::memory_order_relaxed), elapsed)).c_str(), out_);
    std::fflush(out_);
    drawn_ = true;
  } while (!wake_.wait_for(lock, kRedraw, [this] { return stop_; }));
}

void run_engine_reporting(Engine& engine, Time horizon, RunProgress* progress, double first, double share) {
  constexpr int kSteps = 100;
  if (progress != nullptr && horizon > Time::zero()) {
    for (int k = 1; k <= kSteps; ++k) {
      engine.run(Time::ps(horizon.ps() / kSteps * k));
      progress->report(first + share * k / kSteps);
    }
  }
  engine.run();
  if (progress != nullptr) progress->report(first + share);
}

}  // namespace parallax
