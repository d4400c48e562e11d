#!/usr/bin/env python3
"""The tutorial harness (tutorial_test.py) catches what it exists to catch: a quoted number that is
off, a console excerpt that is not printed, a command that fails, a marker with nothing to check;
and it skips `# needs a GPU` lines without a GPU. Each case is a small doc in a throwaway source
folder (not a git checkout: the harness copies the tree), run with the real binary.

Usage: tutorial_selftest.py BUILD_DIR
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "tutorial_test.py"


def run_doc(build: Path, text: str):
    with tempfile.TemporaryDirectory(prefix="parallax-selftest-") as tmp:
        src = Path(tmp)
        (src / "docs").mkdir()
        (src / "docs" / "t.md").write_text(text)
        env = dict(os.environ, PARALLAX_TUTORIAL_GPU="0")
        r = subprocess.run([sys.executable, str(HARNESS), str(build), str(src), "docs/t.md"],
                           capture_output=True, text=True, timeout=300, env=env)
        return r.returncode, r.stdout + r.stderr


def main():
    build = Path(sys.argv[1]).resolve()
    exe = build / "tools" / "parallax"
    # What the quickstart writes, read here so the docs below quote it right (or wrong on purpose).
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([str(exe), "run", "--out", tmp, "--quiet"], check=True, timeout=120)
        summary = json.loads((Path(tmp) / "summary.json").read_text())
        with (Path(tmp) / "activities.csv").open(newline="") as f:
            rows = list(csv.DictReader(f))
        copies = sum(1 for r in rows if r["kind"] == "copy")
        first_bytes = int(next(r for r in rows if r["id"] == "1")["bytes"])
    numbers = {k: v for k, v in summary.items() if isinstance(v, (int, float))
               and not isinstance(v, bool) and v != 0 and "wall" not in k}
    key, value = sorted(numbers.items())[0]
    run = "```sh\nbuild/tools/parallax run --out out/q\n```\n"
    version = "```sh\nbuild/tools/parallax --version\n```\n"
    first_line = subprocess.run([str(exe), "--version"], capture_output=True, text=True,
                                check=True).stdout.splitlines()[0]
    cases = [
        ("a right number", run + f"<!-- check out/q/summary.json {key} = {value!r} ±0.1% -->\n", 0),
        ("a wrong number", run + f"<!-- check out/q/summary.json {key} = {value * 1.5!r} ±1% -->\n", 1),
        ("a missing key", run + "<!-- check out/q/summary.json no_such_key = 1 -->\n", 1),
        ("a printed line", version + "<!-- check output -->\n```\n" + first_line + "\n```\n", 0),
        ("a line not printed", version + "<!-- check output -->\n```\nparallax 0.0 (nothing)\n```\n", 1),
        ("a stdout count", version + "<!-- check count stdout /^parallax / = 1 -->\n", 0),
        ("a stdout count off", version + "<!-- check count stdout /^parallax / = 2 -->\n", 1),
        ("a CSV row count", run + f"<!-- check count csv out/q/activities.csv kind=copy = {copies} -->\n", 0),
        ("a CSV row count off", run + f"<!-- check count csv out/q/activities.csv kind=copy = {copies + 1} -->\n", 1),
        ("a CSV value", run + f"<!-- check csv out/q/activities.csv id=1 bytes = {first_bytes} -->\n", 0),
        ("a CSV value off", run + f"<!-- check csv out/q/activities.csv id=1 bytes = {first_bytes + 1} -->\n", 1),
        ("a CSV row missing", run + "<!-- check csv out/q/activities.csv id=-1 bytes = 0 -->\n", 1),
        ("a CSV without the column", run + "<!-- check count csv out/q/activities.csv nocol=x = 0 -->\n", 1),
        ("a failing command", "```sh\nbuild/tools/parallax run no/such/file.yaml\n```\n", 1),
        ("a GPU line skipped", "```sh\nbuild/tools/parallax hw calibrate --out x   # needs a GPU\n"
                               "build/tools/parallax --version\n```\n", 0),
        ("a check before any command", "<!-- check count stdout /x/ = 1 -->\n" + version, 1),
        ("a doc with no command", "No commands here.\n", 1),
        ("an unreadable marker", version + "<!-- check something odd -->\n", 1),
    ]
    failures = 0
    for name, text, want in cases:
        rc, out = run_doc(build, text)
        if rc != want:
            failures += 1
            print(f"FAIL: {name}: harness exited {rc}, expected {want}\n{out}")
        else:
            print(f"ok: {name} (exit {rc})")
    print(f"{len(cases) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
