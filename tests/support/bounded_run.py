"""One child process under a deadline, with its own peak RSS: the loop the CLI tests share.

bounded_run(argv, timeout) runs argv with stdin from /dev/null, kills it at the deadline, and
returns a Bounded(returncode, stdout, stderr, peak_rss_mib, wall_s); returncode is None when the
deadline passed. The RSS is the child's own (os.wait4), not the test's nor earlier children's.
Under AddressSanitizer (ASAN_OPTIONS set) the quarantine of freed blocks is cut to 16 MiB: by
default it holds 256 MiB of freed buffers, so a long parse would look like a leak of the
program's own memory.
"""
import os
import subprocess
import tempfile
import time
from typing import NamedTuple, Optional


class Bounded(NamedTuple):
    returncode: Optional[int]
    stdout: bytes
    stderr: bytes
    peak_rss_mib: float
    wall_s: float


def bounded_run(argv, timeout, stdout=None):
    env = dict(os.environ)
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":quarantine_size_mb=16"
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen([str(a) for a in argv], stdout=stdout or out, stderr=err,
                             stdin=subprocess.DEVNULL, env=env)
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return Bounded(None, b"", f"timed out after {timeout} s".encode(), 0.0, timeout)
            time.sleep(0.01)
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return Bounded(os.waitstatus_to_exitcode(status), out.read(), err.read(),
                       usage.ru_maxrss / 1024, wall)
