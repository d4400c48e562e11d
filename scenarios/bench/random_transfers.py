#!/usr/bin/env python3
"""Writes the `random` workload of the SimGrid anchor benchmark as a parallax transfer CSV.

The generator is the one ../shared/anchors/simgrid/README.md specifies, so both simulators replay
the same transfers: SplitMix64 with state = SEED, u = (next() >> 11) * 2^-53, and for each
transfer four draws in this order:
    src = floor(64 u);  dst = floor(63 u), plus 1 if dst >= src
    bytes = llround(exp(ln 65536 + u (ln 268435456 - ln 65536)))
    release = u seconds
Output columns: src,dst,bytes,start_s (src/dst as GPU indices; start_s printed with repr(), which
reads back to the same double).

Usage: random_transfers.py N SEED [OUT.csv]   (stdout when OUT is omitted)
"""
import math
import sys

MASK = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def llround(x):
    # C's llround: halves away from zero (Python's round() is to even).
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def transfers(n, seed):
    state = seed & MASK
    lo, hi = math.log(65536.0), math.log(268435456.0)

    def u():
        nonlocal state
        state, z = splitmix64(state)
        return (z >> 11) * 2.0 ** -53

    for _ in range(n):
        src = math.floor(64 * u())
        dst = math.floor(63 * u())
        if dst >= src:
            dst += 1
        size = llround(math.exp(lo + u() * (hi - lo)))
        release = u()
        yield src, dst, size, release


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    out = open(sys.argv[3], "w", newline="\n") if len(sys.argv) == 4 else sys.stdout
    out.write("src,dst,bytes,start_s\n")
    for src, dst, size, release in transfers(n, seed):
        out.write(f"{src},{dst},{size},{release!r}\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
