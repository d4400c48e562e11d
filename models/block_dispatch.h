// File: models/block_dispatch.h
// How long a kernel launched onto SMs another kernel's blocks occupy waits for them (REFERENCE.md
// §6.8, shared SMs). A GPU does not preempt thread blocks: the newcomer's blocks are dispatched
// only as the resident blocks retire (stream priority changes the order in which waiting blocks
// are dispatched, not this wait). Pure functions, no engine.
//
// A fraction f of the SMs the newcomer can use is held by the co-runner, whose blocks each take
// b (one wave of its grid on its SMs, kernel_block_s) and have run for e since its blocks began.
//  * First wave (e < b): its blocks started together and all retire at r = b − e; the newcomer
//    runs on the free (1 − f) of its SMs until then, on all of them after.
//  * Later waves (e >= b): block ends have drifted apart (block times vary on hardware), so the
//    held SMs free up evenly over one block time [assumption: a uniform residual, mean b/2].
// The newcomer needs `own_s` at full speed on its SMs. Its finish is delayed by
//   first wave:  f·r,  or own_s·f/(1 − f) when it finishes on the free SMs before r;
//   later waves: f·b/2, when own_s >= b·(1 − f/2) (it outlasts the ramp); otherwise t − own_s with
//                (1 − f)·t + f·t²/(2b) = own_s (it finishes during the ramp).
// The simulation delays the kernel's start by that much and then runs it at full width: the
// same finish for a kernel alone, simpler than a rate that ramps.
#pragma once

#include "models/kernel_time.h"

namespace parallax {

// The time one wave of the kernel's blocks takes on `sms` SMs at solo speed with all the
// bandwidth: its isolated time there (no launch) over its waves (a block's lifetime).
double kernel_block_s(const KernelShape& k, const DeviceRates& d, int sms);

// The delay above; 0 when f <= 0 or b <= 0. f is clamped to 1.
double dispatch_wait_s(double held_fraction, double block_s, double elapsed_s, double own_s);

}  // namespace parallax
