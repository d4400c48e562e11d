#!/usr/bin/env python3
"""A sweep gives the same results however it is run (docs/reliability.md, "Determinism").

  sweep_parallel_test.py PARALLAX SOURCE_DIR threads
      -j 1 and -j 2: results.csv byte-identical, and every file of every point
      (points/<hash>/...) byte-identical, summary.json included. Then a
      resume after a crash: the -j 2 folder loses its last 4 manifest lines (those points run
      again) and gets temporaries as a killed run leaves them (NAME.tmp.PID, in finished and
      unfinished point folders and in the sweep folder) and one file of the user's that looks
      alike; the rerun must remove exactly the temporaries and end equal to -j 1.
  sweep_parallel_test.py PARALLAX SOURCE_DIR mpi
      `mpirun -np 2 parallax sweep --mpi` against -j 1, compared the same way; then a worker rank
      is killed with SIGKILL mid-sweep, the same command is run again, and the table must equal
      the uninterrupted one with no point twice (and no temporary left). A copy of the binary
      without parallax-mpi.so beside it must refuse --mpi with exit 2 naming the module's path.
      Without MPI in the binary, checks that --mpi is refused with exit 2 and the way to get it,
      then exits 77 (skipped); without mpirun, 77.

The wall-clock figures (wall_s, sim_to_wall_ratio, events_per_s) are in timing.json (the sweep's and
each point's), the only files left out of the comparisons; results.csv must have none of them.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WALL = {"wall_s", "sim_to_wall_ratio", "events_per_s"}
TIMING = "timing.json"


def sweep_file(tmp, source, sizes, trace):
    p = Path(tmp) / "ring-sweep.yaml"
    p.write_text(
        f"base: {Path(source) / 'scenarios/bench/ring.yaml'}\n"
        f"set: {{output.activities_csv: true, output.trace: {str(trace).lower()}}}\n"
        "axes:\n"
        f"  - cartesian: {{hardware.gpus: {sizes}}}\n"
        "  - zip: {workload.collectives.0.bytes: [1MiB, 16MiB], workload.collectives.0.name: [a, b]}\n"
        "seeds: [1, 2]\n")
    return str(p)


def table(out):
    """results.csv as it is: header first, then rows in file order."""
    return (Path(out) / "results.csv").read_text().splitlines()


def point_files(out):
    """{relative path: content} of every point's files but timing.json."""
    files = {}
    for f in sorted((Path(out) / "points").rglob("*")):
        if not f.is_file():
            continue
        # A temporary (NAME.tmp.PID) a killed rank left is removed on resume (docs/reliability.md),
        # so it is compared like any file: one still there is a difference.
        if f.name != TIMING:
            files[str(f.relative_to(out))] = f.read_bytes()
    return files


def same(label, a, b):
    ta, tb = table(a), table(b)
    ok = True
    if (Path(a) / "results.csv").read_bytes() != (Path(b) / "results.csv").read_bytes():
        print(f"FAIL {label}: results.csv is not byte-identical\n  {ta[:3]}\n  {tb[:3]}")
        ok = False
    if WALL & set(ta[0].split(",")):
        print(f"FAIL {label}: results.csv has wall-clock columns {sorted(WALL & set(ta[0].split(',')))}")
        ok = False
    if not (Path(b) / TIMING).exists():
        print(f"FAIL {label}: no {TIMING} in the sweep folder")
        ok = False
    if len(set(tb)) != len(tb):
        print(f"FAIL {label}: a row appears twice")
        ok = False
    fa, fb = point_files(a), point_files(b)
    if fa.keys() != fb.keys():
        print(f"FAIL {label}: point files differ: {sorted(set(fa) ^ set(fb))[:5]}")
        ok = False
    differing = [k for k in fa.keys() & fb.keys() if fa[k] != fb[k]]
    if differing:
        print(f"FAIL {label}: {len(differing)} point files differ, e.g. {sorted(differing)[:3]}")
        ok = False
    if ok:
        print(f"ok   {label}: {len(ta) - 1} rows, {len(fa)} point files identical")
    return ok


def resume_removes_temporaries(parallax, sweep, reference, out):
    """Plants a crash's leftovers in `out` (a finished sweep), resumes it, checks what is left."""
    manifest = Path(out) / "manifest.jsonl"
    lines = manifest.read_text().splitlines(keepends=True)
    finished = [json.loads(l)["hash"] for l in lines[:-4]]
    redone = [json.loads(l)["hash"] for l in lines[-4:]]
    manifest.write_text("".join(lines[:-4]))
    points = Path(out) / "points"
    planted = [points / finished[0] / "summary.json.tmp.99999", points / redone[0] / "activities.csv.tmp.99998",
               Path(out) / "results.csv.tmp.99997"]
    for f in planted:
        f.write_text("half a file")
    user_file = points / finished[1] / "notes.tmp.txt"
    user_file.write_text("the user's")
    r = run([parallax, "sweep", sweep, "--out", out, "-j", "2"])
    if r.returncode != 0 or f"{len(lines) - 4} done before, 4 to run" not in r.stderr:
        print(f"FAIL resume with leftovers: exit {r.returncode}\n{r.stderr}")
        return False
    ok = True
    if any(f.exists() for f in planted) or not user_file.exists():
        print(f"FAIL resume with leftovers: left {[str(f) for f in planted if f.exists()]}, "
              f"user's file kept: {user_file.exists()}")
        ok = False
    else:
        print(f"ok   resume removed {len(planted)} planted temporaries and kept the user's file")
    user_file.unlink()
    leftovers = [str(f) for f in Path(out).rglob("*.tmp.*") if f.name[f.name.rfind(".") + 1:].isdigit()]
    if leftovers:
        print(f"FAIL resume with leftovers: temporaries remain: {leftovers[:3]}")
        ok = False
    return same("resumed -j 2 (4 points redone) vs -j 1", reference, out) and ok


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def mpirun_command():
    mpirun = shutil.which("mpirun")
    if not mpirun:
        return None
    cmd = [mpirun, "-np", "2", "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def mpi_env():
    # Shared memory and loopback only: works in a container without a network.
    env = dict(os.environ, OMPI_MCA_btl="self,vader", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo", OMPI_MCA_plm_rsh_agent="")
    env.pop("OMPI_MCA_rmaps_base_oversubscribe", None)
    if "ASAN_OPTIONS" in env:
        # In a sanitized build LeakSanitizer reports OpenMPI's own allocations at exit, made by
        # plugins it has already unloaded (frames "<unknown module>"), so no suppression can name
        # them. Leaks in the sweep's code are checked by the threads mode, which runs it unchanged.
        env["ASAN_OPTIONS"] += ":detect_leaks=0"
    return env


def missing_module_refused(parallax, sweep, tmp):
    """A copy of the binary in a folder of its own finds no parallax-mpi.so beside it."""
    alone = Path(tmp) / "alone"
    alone.mkdir()
    shutil.copy2(parallax, alone / "parallax")
    r = run([str(alone / "parallax"), "sweep", sweep, "--out", f"{tmp}/alone-out", "--mpi", "--quiet"])
    expected = str(alone / "parallax-mpi.so")
    if r.returncode != 2 or "cannot load the MPI module" not in r.stderr or expected not in r.stderr:
        print(f"FAIL --mpi without the module: exit {r.returncode}, expected 2 naming {expected}: {r.stderr}")
        return False
    print("ok   --mpi without parallax-mpi.so beside the binary: exit 2 naming the file")
    return True


def kill_worker_rank(out, deadline):
    """SIGKILLs the rank-1 process of the running sweep once a point is in its manifest."""
    manifest = Path(out) / "manifest.jsonl"
    while time.monotonic() < deadline:
        if manifest.exists() and manifest.read_text().count("\n") >= 1:
            for proc in Path("/proc").iterdir():
                if not proc.name.isdigit():
                    continue
                try:
                    env = (proc / "environ").read_bytes().split(b"\0")
                    cmdline = (proc / "cmdline").read_bytes()
                except OSError:
                    continue
                if b"OMPI_COMM_WORLD_RANK=1" in env and str(out).encode() in cmdline:
                    os.kill(int(proc.name), signal.SIGKILL)
                    return True
        time.sleep(0.005)
    return False


def main():
    parallax, source, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    failures = 0
    with tempfile.TemporaryDirectory(prefix="parallax-sweep-par-") as tmp:
        if mode == "threads":
            sweep = sweep_file(tmp, source, "[4, 8, 16, 32]", True)  # 16 points, every output
            one, two = f"{tmp}/j1", f"{tmp}/j2"
            for out, j in ((one, "1"), (two, "2")):
                r = run([parallax, "sweep", sweep, "--out", out, "-j", j, "--quiet"])
                if r.returncode != 0:
                    print(f"FAIL sweep -j {j}: exit {r.returncode}\n{r.stderr}")
                    sys.exit(1)
            failures += not same("-j 1 vs -j 2", one, two)
            failures += not resume_removes_temporaries(parallax, sweep, one, two)
        else:
            sweep = sweep_file(tmp, source, "[32, 48, 64, 80, 96, 112]", False)  # 24 points, no trace.json
            probe = run([parallax, "sweep", sweep, "--out", f"{tmp}/probe", "--mpi", "--quiet"])
            if "built without MPI" in probe.stderr:
                if probe.returncode != 2 or "-Dmpi=enabled" not in probe.stderr:
                    print(f"FAIL --mpi without MPI: exit {probe.returncode}: {probe.stderr}")
                    sys.exit(1)
                print("ok   --mpi without MPI: exit 2 naming -Dmpi=enabled; skipping the MPI runs")
                sys.exit(77)
            failures += not missing_module_refused(parallax, sweep, tmp)
            mpirun = mpirun_command()
            if not mpirun:
                print("skip: mpirun not found")
                sys.exit(77)
            one, mpi, killed = f"{tmp}/j1", f"{tmp}/mpi", f"{tmp}/killed"
            r = run([parallax, "sweep", sweep, "--out", one, "-j", "1", "--quiet"])
            if r.returncode != 0:
                print(f"FAIL sweep -j 1: exit {r.returncode}\n{r.stderr}")
                sys.exit(1)
            t0 = time.monotonic()
            r = run(mpirun + [parallax, "sweep", sweep, "--out", mpi, "--mpi"], env=mpi_env(), timeout=600)
            if r.returncode != 0:
                print(f"FAIL mpirun sweep --mpi: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
                sys.exit(1)
            print(f"     mpirun -np 2 sweep --mpi: {time.monotonic() - t0:.1f} s")
            failures += not same("mpirun -np 2 --mpi vs -j 1", one, mpi)

            # A worker rank dies mid-sweep: the job ends; the rerun redoes only unfinished points.
            p = subprocess.Popen(mpirun + [parallax, "sweep", sweep, "--out", killed, "--mpi", "--quiet"],
                                 env=mpi_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            hit = kill_worker_rank(killed, time.monotonic() + 120)
            p.communicate(timeout=120)
            done_at_kill = (Path(killed) / "manifest.jsonl").read_text().count("\n")
            if not hit or p.returncode == 0 or done_at_kill >= 24:
                print(f"FAIL kill: worker killed {hit}, mpirun exit {p.returncode}, {done_at_kill} points done")
                failures += 1
            r = run(mpirun + [parallax, "sweep", sweep, "--out", killed, "--mpi"], env=mpi_env(), timeout=600)
            if r.returncode != 0 or f"{done_at_kill} done before" not in r.stderr:
                print(f"FAIL resume after kill: exit {r.returncode}\n{r.stderr}")
                failures += 1
            else:
                print(f"ok   worker rank killed after {done_at_kill} of 24 points; rerun ran the rest")
                failures += not same("killed + resumed --mpi vs -j 1", one, killed)
    print(f"{failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
