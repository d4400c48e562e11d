// File: sim/sweep/sweep_progress.cpp
#include "sim/sweep/sweep_progress.h"

#include <cmath>

#include <fmt/format.h>

namespace parallax {

namespace {

constexpr int kBarWidth = 24;
constexpr std::chrono::milliseconds kBarInterval{200};
constexpr std::chrono::milliseconds kLineInterval{10'000};

}  // namespace

std::string format_eta(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "-";
  if (seconds > 99.0 * 3600) return ">99h";
  const auto s = static_cast<long>(std::lround(seconds));
  return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}

std::string format_progress(size_t finished, size_t todo, size_t done_before, double elapsed_s, bool bar) {
  const double rate = elapsed_s > 0 ? static_cast<double>(finished) / elapsed_s : 0.0;
  const std::string eta = finished == 0 || rate <= 0 ? "-" : format_eta(static_cast<double>(todo - finished) / rate);
  const std::string before = done_before > 0 ? fmt::format(" (+{} done before)", done_before) : "";
  if (!bar) return fmt::format("sweep: {}/{} points{}, {:.2f} points/s, ETA {}", finished, todo, before, rate, eta);
  const int filled = todo == 0 ? kBarWidth : static_cast<int>(kBarWidth * finished / todo);
  return fmt::format("[{}{}] {}/{}{}  {:.2f} points/s  ETA {}", std::string(static_cast<size_t>(filled), '#'),
                     std::string(static_cast<size_t>(kBarWidth - filled), '.'), finished, todo, before, rate, eta);
}

SweepProgress::SweepProgress(std::FILE* out, Style style, size_t todo, size_t done_before)
    : out_(out), style_(style), todo_(todo), done_before_(done_before) {}

std::chrono::milliseconds SweepProgress::interval() const {
  return style_ == Style::bar ? kBarInterval : kLineInterval;
}

void SweepProgress::update(size_t finished, double elapsed_s) {
  if (style_ == Style::silent) return;
  const double every_s = std::chrono::duration<double>(interval()).count();
  if (elapsed_s - last_print_s_ < every_s) return;
  print(finished, elapsed_s);
}

void SweepProgress::finish(size_t finished, double elapsed_s) {
  if (style_ == Style::silent) return;
  print(finished, elapsed_s);
  if (style_ == Style::bar) std::fputc('\n', out_);
  std::fflush(out_);
}

void SweepProgress::print(size_t finished, double elapsed_s) {
  last_print_s_ = elapsed_s;
  const bool bar = style_ == Style::bar;
  const std::string line = format_progress(finished, todo_, done_before_, elapsed_s, bar);
  if (bar)
    std::fprintf(out_, "\r%s\x1b[K", line.c_str());
  else
    std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
}

}  // namespace parallax
