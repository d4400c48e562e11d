#!/usr/bin/env python3
"""Tutorials are tests: runs every fenced `parallax` command of one markdown file, as written, from
a fresh copy of the checkout, and checks the numbers the text quotes (docs/tutorials/README.md,
"Keeping the tutorials true").

Usage: tutorial_test.py BUILD_DIR SOURCE_DIR DOC.md   (DOC.md relative to SOURCE_DIR)

What runs: each line of a ```sh block (backslash continuations joined); of a `A && B && C` chain,
the parts that call build/tools/parallax. Setup lines (installing packages, meson, git clone) are
left to the reader: the suite already has a build. A line carrying `# needs a GPU` is skipped
(reported as such) unless the build was configured with the CUDA backend and a GPU answers.

What is checked, from HTML comments in the markdown (invisible when rendered), each against the
state at that point of the document (the commands above it have run):

  <!-- check FILE KEY = VALUE ±TOL -->   a number in a JSON result file (KEY: dotted path,
                                         list indices as numbers); TOL absolute, or N% relative;
                                         `±0` (or no ±) means exactly
  <!-- check stdout /REGEX/ = VALUE ±TOL -->  the first capture group of REGEX in the stdout of
                                         the last command that ran
  <!-- check count stdout /REGEX/ = N --> how many stdout lines of the last command match
  <!-- check count csv FILE COL=VALUE = N -->  how many rows of a CSV table have COL = VALUE
  <!-- check csv FILE COL=VALUE OTHER = X ±TOL -->  column OTHER of the one row with COL = VALUE
  <!-- check output ±TOL -->            the next fenced block is a console excerpt: each of its
                                         lines must appear in the last command's stdout, words
                                         equal and numbers within TOL

Every command must exit 0. A doc with a marker that matches nothing, or a check with no command
before it, fails: the markers cannot go stale silently.
"""
import csv
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARALLAX = "build/tools/parallax"
NEEDS_GPU = "# needs a GPU"
COMMAND_TIMEOUT_S = 900
FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!--\s*check\s+(.*?)\s*-->\s*$")
NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")
# A number with a unit or percent sign glued to it ("43.0", "100.0%", "1.92x") compares as a number.
NUMBER_WITH_UNIT = re.compile(r"^([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)(%|x|×)?$")


class DocError(Exception):
    """A marker or block the harness cannot read: the doc is wrong, not the program."""


def fresh_copy(source: Path, dest: Path):
    """The tracked files of the checkout (git ls-files), or without git the tree minus build
    folders and out/, copied to dest: what a user who just cloned has."""
    try:
        listed = subprocess.run(["git", "-C", str(source), "ls-files", "-z"], check=True,
                                capture_output=True).stdout.split(b"\0")
        files = [f.decode() for f in listed if f]
    except (OSError, subprocess.CalledProcessError):
        files = None
    if files:
        for f in files:
            src = source / f
            if src.is_file():
                (dest / f).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / f)
        return
    def ignored(_dir, names):
        return [n for n in names if n.startswith("build") or n in ("out", ".git")]
    shutil.copytree(source, dest, ignore=ignored, dirs_exist_ok=True)


def parse_tolerance(text: str):
    """'±0.001' -> (0.001, False); '±2%' -> (0.02, True); '' -> (0, False)."""
    text = text.strip()
    if not text:
        return 0.0, False
    if not text.startswith("±"):
        raise DocError(f"tolerance must start with ±: {text!r}")
    t = text[1:].strip()
    if t.endswith("%"):
        return float(t[:-1]) / 100.0, True
    return float(t), False


def within(actual: float, expected: float, tol: float, relative: bool) -> bool:
    bound = tol * abs(expected) if relative else tol
    return abs(actual - expected) <= bound + 1e-12 * max(1.0, abs(expected))


def json_value(path: Path, key: str):
    data = json.loads(path.read_text())
    for part in key.split("."):
        if isinstance(data, list):
            data = data[int(part)]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            raise KeyError(f"{key}: no '{part}' in {path.name}")
    return data


def split_value(rest: str):
    """'= 0.9896 ±0.0001' -> (0.9896, tol, relative)."""
    m = re.match(r"^=\s*(\S+)\s*(±.*)?$", rest.strip())
    if not m:
        raise DocError(f"expected '= VALUE [±TOL]', got {rest!r}")
    tol, relative = parse_tolerance(m.group(2) or "")
    return float(m.group(1)), tol, relative


def tokens(line: str):
    return line.split()


def as_number(tok: str):
    m = NUMBER_WITH_UNIT.match(tok)
    return float(m.group(1)) if m else None


def line_matches(expected: str, actual: str, tol: float, relative: bool) -> bool:
    e, a = tokens(expected), tokens(actual)
    if len(e) != len(a):
        return False
    for et, at in zip(e, a):
        en, an = as_number(et), as_number(at)
        if en is not None and an is not None:
            if not within(an, en, tol, relative) or NUMBER_WITH_UNIT.match(et).group(2) != \
                    NUMBER_WITH_UNIT.match(at).group(2):
                return False
        elif et != at:
            return False
    return True


def commands_of(block_lines):
    """Joined lines of a sh block -> [(command or None, line text, needs_gpu)]."""
    joined, current = [], ""
    for line in block_lines:
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        joined.append(current + line)
        current = ""
    if current:
        joined.append(current)
    out = []
    for line in joined:
        text = line.strip()
        if not text:
            continue
        needs_gpu = NEEDS_GPU in text
        code = text.split(" #", 1)[0].strip() if not text.startswith("#") else ""
        parts = [p.strip() for p in code.split("&&")]
        calls = [p for p in parts if p.startswith(PARALLAX)]
        out.append((" && ".join(calls) if calls else None, text, needs_gpu))
    return out


class Runner:
    def __init__(self, build: Path, copy: Path, gpu: bool):
        self.copy, self.gpu = copy, gpu
        self.last_stdout = None
        self.failures = self.ran = self.skipped = self.checks = 0
        (copy / "build").mkdir(exist_ok=True)
        # build/tools/parallax in the copy is the suite's binary (its build folder may be named
        # otherwise, e.g. build-check in CI).
        (copy / "build" / "tools").symlink_to(build.resolve() / "tools", target_is_directory=True)

    def fail(self, what: str):
        self.failures += 1
        print(f"FAIL: {what}")

    def run(self, command: str, line_no: int, needs_gpu: bool):
        if needs_gpu and not self.gpu:
            self.skipped += 1
            self.last_stdout = None
            print(f"skip (needs a GPU): line {line_no}: {command}")
            return
        start = time.monotonic()
        try:
            r = subprocess.run(["bash", "-c", command], cwd=self.copy, capture_output=True,
                               text=True, timeout=COMMAND_TIMEOUT_S, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            self.fail(f"line {line_no}: {command}: still running after {COMMAND_TIMEOUT_S} s")
            self.last_stdout = None
            return
        self.ran += 1
        self.last_stdout = r.stdout
        if r.returncode != 0:
            self.fail(f"line {line_no}: {command}: exit {r.returncode}\n{r.stderr[-2000:]}")
        else:
            print(f"ok: line {line_no}: {command} ({time.monotonic() - start:.1f} s)")

    def csv_rows(self, where: str, name: str):
        """The rows of a CSV table the commands wrote, or None (a failure) when it is missing."""
        path = self.copy / name
        if not path.exists():
            self.fail(f"{where}: {name} was not written")
            return None
        with path.open(newline="") as f:
            return list(csv.DictReader(f))

    def check(self, spec: str, line_no: int, next_block):
        self.checks += 1
        where = f"line {line_no}: check {spec}"
        if spec.startswith("output"):
            tol, relative = parse_tolerance(spec[len("output"):])
            if next_block is None:
                raise DocError(f"{where}: no fenced block follows")
            if self.last_stdout is None:
                print(f"skip: {where} (its command did not run)")
                return
            actual = self.last_stdout.splitlines()
            for exp in next_block:
                if exp.strip() and not any(line_matches(exp, a, tol, relative) for a in actual):
                    self.fail(f"{where}: no printed line matches\n  {exp}\nprinted:\n"
                              + "\n".join("  " + a for a in actual[:60]))
            return
        m = re.match(r"^(count\s+)?stdout\s+/(.*)/\s*(=.*)$", spec)
        if m:
            if self.last_stdout is None:
                print(f"skip: {where} (its command did not run)")
                return
            regex = re.compile(m.group(2))
            expected, tol, relative = split_value(m.group(3))
            if m.group(1):
                actual = sum(1 for l in self.last_stdout.splitlines() if regex.search(l))
            else:
                found = regex.search(self.last_stdout)
                if not found or not found.groups():
                    self.fail(f"{where}: /{m.group(2)}/ (with a group) not in the output")
                    return
                actual = float(found.group(1))
            if not within(actual, expected, tol, relative):
                self.fail(f"{where}: printed {actual}")
            return
        m = re.match(r"^count\s+csv\s+(\S+)\s+([\w.]+)=(\S+)\s*(=.*)$", spec)
        if m:
            expected, tol, relative = split_value(m.group(4))
            rows = self.csv_rows(where, m.group(1))
            if rows is None:
                return
            if rows and m.group(2) not in rows[0]:
                self.fail(f"{where}: {m.group(1)} has no column {m.group(2)}")
                return
            actual = sum(1 for r in rows if r[m.group(2)] == m.group(3))
            if not within(actual, expected, tol, relative):
                self.fail(f"{where}: {actual} rows")
            return
        m = re.match(r"^csv\s+(\S+)\s+([\w.]+)=(\S+)\s+(\S+)\s*(=.*)$", spec)
        if m:
            expected, tol, relative = split_value(m.group(5))
            rows = self.csv_rows(where, m.group(1))
            if rows is None:
                return
            rows = [r for r in rows if r.get(m.group(2)) == m.group(3)]
            if len(rows) != 1 or m.group(4) not in rows[0]:
                self.fail(f"{where}: {len(rows)} rows with {m.group(2)}={m.group(3)}"
                          + ("" if not rows else f", column {m.group(4)} present: {m.group(4) in rows[0]}"))
                return
            try:
                actual = float(rows[0][m.group(4)])
            except ValueError:
                self.fail(f"{where}: not a number: {rows[0][m.group(4)]!r}")
                return
            if not within(actual, expected, tol, relative):
                self.fail(f"{where}: the table has {actual}")
            return
        m = re.match(r"^(\S+)\s+(\S+)\s*(=.*)$", spec)
        if not m:
            raise DocError(f"{where}: cannot read the marker")
        path = self.copy / m.group(1)
        expected, tol, relative = split_value(m.group(3))
        if not path.exists():
            if self.skipped and self.last_stdout is None:
                print(f"skip: {where} (its command did not run)")
                return
            self.fail(f"{where}: {m.group(1)} was not written")
            return
        try:
            actual = float(json_value(path, m.group(2)))
        except (KeyError, IndexError, ValueError, TypeError) as e:
            self.fail(f"{where}: {e}")
            return
        if not within(actual, expected, tol, relative):
            self.fail(f"{where}: the file has {actual}")


def walk(doc: Path, runner: Runner):
    lines = doc.read_text().splitlines()
    i = 0
    pending_output_check = None
    commands_seen = 0
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line.strip())
        if m:
            spec = m.group(1)
            if spec.startswith("output"):
                pending_output_check = (spec, i + 1)
            else:
                if commands_seen == 0:
                    raise DocError(f"{doc}:{i + 1}: a check before any command")
                runner.check(spec, i + 1, None)
            i += 1
            continue
        f = FENCE.match(line)
        if not f:
            i += 1
            continue
        lang, start = f.group(1), i + 1
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        block = lines[start:j]
        if pending_output_check is not None:
            spec, at = pending_output_check
            pending_output_check = None
            if commands_seen == 0:
                raise DocError(f"{doc}:{at}: an output check before any command")
            runner.check(spec, at, block)
        elif lang in ("sh", "bash", "console"):
            for command, text, needs_gpu in commands_of(block):
                if command is None:
                    print(f"setup (not run): {text}")
                    continue
                commands_seen += 1
                runner.run(command, start + 1, needs_gpu)
        i = j + 1
    if pending_output_check is not None:
        raise DocError(f"{doc}:{pending_output_check[1]}: an output check with no block after it")
    return commands_seen


def gpu_available(build: Path) -> bool:
    """A CUDA build whose `hw info` finds a GPU."""
    exe = build / "tools" / "parallax"
    try:
        r = subprocess.run([str(exe), "hw", "info"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    build, source, doc = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    gpu = os.environ.get("PARALLAX_TUTORIAL_GPU", "auto")
    has_gpu = gpu_available(build) if gpu == "auto" else gpu == "1"
    with tempfile.TemporaryDirectory(prefix="parallax-tutorial-") as tmp:
        copy = Path(tmp)
        fresh_copy(source, copy)
        runner = Runner(build, copy, has_gpu)
        try:
            seen = walk(copy / doc, runner)
        except DocError as e:
            print(f"FAIL: {e}")
            sys.exit(1)
    print(f"{doc.name}: {runner.ran} commands ran, {runner.skipped} skipped (no GPU), "
          f"{runner.checks} checks, {runner.failures} failures")
    if seen == 0 and doc.name != "README.md":
        print(f"FAIL: {doc}: no parallax command found")
        sys.exit(1)
    sys.exit(1 if runner.failures else 0)


if __name__ == "__main__":
    main()
