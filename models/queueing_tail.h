// File: models/queueing_tail.h
// The latency tail of a FIFO server that serves one request at a time in a fixed time D, under
// arrivals at rate λ: the M/D/1 queue, for SGDRC's queueing-aware allocation (sgdrc_colocation.h).
//
// Waiting time (Erlang 1909; Crommelin 1932; e.g. Iversen, ITU-D Teletraffic Engineering
// Handbook, §"M/D/1"), ρ = λ·D < 1:
//   P(W <= x) = (1 − ρ) · Σ_{k=0}^{⌊x/D⌋} [λ·(k·D − x)]^k / k! · e^{−λ·(k·D − x)}
// A request meets an SLO when W + D <= SLO. Arrivals burstier than Poisson are taken by the
// Allen–Cunneen / Kingman scaling of G/G/1 waits, W_G/D/1 ≈ c_a² · W_M/D/1 (c_a² the squared
// coefficient of variation of the interarrival times; 1 for Poisson), applied to the whole
// distribution: P(W_G/D/1 <= x) ≈ P(W_M/D/1 <= x / c_a²) [approximation: exact for c_a² = 1].
//
// A request that finds the queue empty may first wait V for the server to become free of other
// work (SGDRC: the BE kernel in flight on the TPCs LS takes). By PASTA, a Poisson arrival finds
// the queue empty with probability 1 − ρ, so the mean extra wait per request is (1 − ρ)·E[V];
// it is taken as a fixed delay before service that every request pays, i.e. the SLO the service
// must meet shrinks by it [approximation: the mean, not V's tail, and the delay's effect on the
// requests queued behind it is not counted].
#pragma once

#include <span>

namespace parallax {

// P(W <= x); 0 for ρ >= 1 (the queue grows without bound), 1 for λ = 0. The alternating sum's
// terms reach e^{λx}, so it is evaluated in long double up to λ·x = 25 (about 6 digits left);
// beyond that x is taken as 25/λ (a lower bound, since the CDF rises with x).
double md1_wait_cdf(double rate_per_s, double service_s, double x_s);

// P(W + D <= slo) with arrivals of rate λ and squared interarrival CV ca2 (see above); ca2 = 0
// (evenly spaced arrivals): 1 while ρ < 1.
double slo_attainment_gd1(double rate_per_s, double ca2, double service_s, double slo_s);

// The largest service time D <= slo whose slo_attainment_gd1 against the SLO less
// (1 − λ·D)·idle_wait_s (above; idle_wait_s = E[V]) is at least `target` (it falls as D grows,
// since the shrink grows only at rate λ·E[V] < 1 where ρ < 1): bisection to 1e-4 of the SLO, so a
// D it returns meets the target. 0 when none does.
double largest_service_meeting(double rate_per_s, double ca2, double slo_s, double target, double idle_wait_s = 0);

// The mean wait of an instant drawn uniformly over back-to-back jobs of durations d_i, where an
// instant in job i waits w_i: Σ d_i·w_i / Σ d_i (0 for no time). With w_i = d_i / 2 (the job's
// residual) it is the residual life E[d²] / (2·E[d]) of renewal theory (Kleinrock, Queueing
// Systems I, §5.2; the M/G/1-with-vacations term of Doshi 1986).
double time_weighted_wait_s(std::span<const double> durations_s, std::span<const double> waits_s);

// λ and c_a² of sorted arrival times (seconds): λ = (n − 1) / (last − first), c_a² = var/mean² of
// the gaps; {0, 1} for fewer than two arrivals.
struct ArrivalLoad {
  double rate_per_s = 0;
  double ca2 = 1;
};
ArrivalLoad arrival_load(std::span<const double> sorted_arrivals_s);

}  // namespace parallax
