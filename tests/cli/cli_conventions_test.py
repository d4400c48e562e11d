#!/usr/bin/env python3
"""The command line behaves as users expect from one (docs/usage.md, "The command line"):
mistyped subcommands, options and nested --set keys get the closest real one; `parallax help [CMD]`
prints a command's help; the bash and zsh completion scripts are generated from the definitions
and complete real words; the progress line of `run` appears on a terminal only (a pty here) and
never in a pipe or file.

Usage: cli_conventions_test.py PARALLAX_BINARY SOURCE_DIR
"""
import os
import pty
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

failures = 0


def check(ok, label, detail=""):
    global failures
    print(f"{'ok  ' if ok else 'FAIL'} {label}" + ("" if ok else f"\n     {detail}"))
    failures += 0 if ok else 1


def run(parallax, *args):
    return subprocess.run([parallax, *args], capture_output=True, text=True, timeout=300)


def suggestions(parallax, source):
    cases = [
        (["rnu"], "error: unknown command 'rnu' (did you mean 'run'?)"),
        (["run", "--otu", "x"], "error: 'parallax run' has no option '--otu' (did you mean '--out'?)"),
        (["sweep", "f.yaml", "--job", "2"], "error: 'parallax sweep' has no option '--job' (did you mean '--jobs'?)"),
        (["predict", "colective"], "error: unknown command 'parallax predict colective' (did you mean 'collective'?)"),
        (["run", str(source / "scenarios/colocate/sgdrc-h200.yaml"), "--set", "workload.ls.rate_per_s=3000"],
         "unknown key 'workload.ls.rate_per_s' (did you mean 'workload.ls.arrivals.rate_per_s'?)"),
    ]
    for args, expected in cases:
        r = run(parallax, *args)
        check(r.returncode == 2 and expected in r.stderr, f"{' '.join(args[:2])}: exit 2, suggests",
              f"exit {r.returncode}, stderr: {r.stderr!r}")


def help_command(parallax):
    r = run(parallax, "help")
    check(r.returncode == 0 and "sweep" in r.stdout and "completion" in r.stdout, "help lists the commands", r.stdout)
    r = run(parallax, "help", "sweep")
    check(r.returncode == 0 and "--jobs" in r.stdout and "--shard" in r.stdout, "help sweep: its options", r.stdout)
    r = run(parallax, "help", "predict", "collective")
    check(r.returncode == 0 and "--hardware" in r.stdout and "--algo" in r.stdout, "help predict collective", r.stdout)
    r = run(parallax, "help", "swep")
    check(r.returncode == 2 and "did you mean 'sweep'?" in r.stderr, "help swep: exit 2, suggests", r.stderr)


def completion(parallax, tmp):
    bash = run(parallax, "completion", "bash")
    script = Path(tmp) / "parallax.bash"
    script.write_text(bash.stdout)
    check(bash.returncode == 0 and subprocess.run(["bash", "-n", str(script)]).returncode == 0,
          "bash script generated and parses")

    def complete(*words):
        line = " ".join(f"'{w}'" for w in words)
        probe = (f"source '{script}'; COMP_WORDS=(parallax {line}); COMP_CWORD={len(words)}; _parallax; "
                 'printf "%s\\n" "${COMPREPLY[@]}"')
        return subprocess.run(["bash", "-c", probe], capture_output=True, text=True).stdout.split()

    for words, expected in ((("ru",), ["run"]), (("run", "--o"), ["--out"]), (("predict", "col"), ["collective"]),
                            (("sweep", "-"), ["--jobs"]), (("hw", ""), ["info"])):
        got = complete(*words)
        check(all(e in got for e in expected), f"bash completes {' '.join(words)!r} to {expected}", f"got {got}")
    zsh = run(parallax, "completion", "zsh")
    check(zsh.returncode == 0 and zsh.stdout.startswith("#compdef parallax\n") and "'collective:" in zsh.stdout
          and "'--out:" in zsh.stdout, "zsh script generated with the commands and options", zsh.stdout[:200])


def slow_run_args(source):
    # About 3 s of CPU (sgdrc-h200 on the tile-level kernel model simulates ~3 s per CPU second on
    # the development machine): well past the one second before the line appears, even on a fast
    # idle machine. A sanitized build runs about ten times slower, so a fifth of the duration keeps
    # it as far past the second (CI's phase 2 spent 85 s here with 6 s); the first check below
    # measures that it still is.
    duration = 2 if "ASAN_OPTIONS" in os.environ else 10
    return ["run", str(source / "scenarios/colocate/sgdrc-h200.yaml"), "--set", f"workload.duration_s={duration}"]


def read_pty(master):
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return seen.decode(errors="replace")


def on_screen(text):
    """The lines a terminal shows for `text`: a carriage return starts the line over, ESC[K erases."""
    lines, current = [], ""
    text = text.replace("\r\n", "\n").replace("\x1b[K", "")
    for ch in text:
        if ch == "\r":
            current = ""
        elif ch == "\n":
            lines.append(current)
            current = ""
        else:
            current += ch
    return lines, current


def progress(parallax, source):
    # Not a terminal: stderr is a pipe, nothing may be written to it.
    t0 = time.monotonic()
    r = run(parallax, *slow_run_args(source))
    took = time.monotonic() - t0
    check(took > 1.5, f"the slow run takes over a second ({took:.1f} s)")
    check(r.returncode == 0 and r.stderr == "", "no progress line when stderr is a pipe", repr(r.stderr[:200]))
    # A terminal: stderr is a pty (stdout stays a pipe, so the tables are not mixed in).
    master, slave = pty.openpty()
    p = subprocess.Popen([parallax, *slow_run_args(source)], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    text = read_pty(master)
    p.communicate(timeout=60)
    check(p.returncode == 0 and "run " in text and "% " in text and "left" in text,
          "progress line with an ETA on a terminal", repr(text[:300]))
    check(text.endswith("\r\x1b[K"), "the line is erased when the run ends", repr(text[-40:]))
    # One terminal for both, as a user has it: the table rows printed during the run stay whole.
    master, slave = pty.openpty()
    p = subprocess.Popen([parallax, *slow_run_args(source)], stdout=slave, stderr=slave)
    os.close(slave)
    text = read_pty(master)
    p.wait(timeout=60)
    lines, last = on_screen(text)
    check(p.returncode == 0 and text.count("run ") > 0 and any(l.startswith("sgdrc ") for l in lines)
          and not any("run " in l for l in lines) and last == "",
          "stdout and stderr on one terminal: no progress text left among the table rows", repr(lines[:12]))


def main():
    parallax, source = sys.argv[1], Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        suggestions(parallax, source)
        help_command(parallax)
        completion(parallax, tmp)
        progress(parallax, source)
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
