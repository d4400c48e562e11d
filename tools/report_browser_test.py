#!/usr/bin/env python3
# File: tools/report_browser_test.py
# Opens report.html pages in headless Chromium through chromedriver (WebDriver over HTTP, standard
# library only) and checks what a person would see: the page loads from disk with no console
# errors, every plot (<svg>) is laid out with a non-zero width and height, the plots each page
# must have are there (by figure title, each with its own laid-out plot), and a screenshot comes
# out as a PNG. Pages: the quickstart (transfers), overlap end to end, serverless, colocate,
# multiplex, a small sweep and a parallax compare of two colocate runs. Exit 77 (meson: skipped)
# when chromium or chromedriver is not installed
# (tools/install-debian-packages.sh installs both).
# Usage: report_browser_test.py PARALLAX_BIN SOURCE_DIR [SCREENSHOT_DIR]
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1200,2000"]


def request(port, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read().decode() or "{}").get("value")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Figure titles (the <figcaption>'s bold start) a page must show, each over a plot of non-zero size.
EXPECTED_FIGURES = {
    "serverless": ["Per-function latency CDF", "Swaps over time: PCIe", "Swaps over time: NVLink",
                   "GPU memory occupancy over time"],
    "colocate": ["LS latency CDF per policy", "SM and bandwidth shares over time: sgdrc",
                 "SM and bandwidth shares over time: mig"],
    "multiplex": ["SM utilisation over time: elastic", "HBM bandwidth utilisation over time: mig",
                  "Batch fill per service and policy"],
    "compare": ["policies.*.ls_p99_latency_s", "Top-level summary fields that differ"],
}


def make_outputs(bin_path, source, work):
    """Runs parallax for each page; returns {name: report.html path}."""
    pages = {}
    for name, scenario in [("quickstart", None), ("overlap-e2e", "scenarios/overlap/end-to-end.yaml"),
                           ("serverless", "scenarios/serverless/small.yaml"),
                           ("colocate", "scenarios/colocate/sgdrc-h200.yaml"),
                           ("multiplex", "scenarios/multiplex/bursty-h200.yaml")]:
        out = os.path.join(work, name)
        cmd = [bin_path, "run"] + ([os.path.join(source, scenario)] if scenario else []) + ["--out", out, "--quiet"]
        if name == "multiplex":  # the page's plots, not the capacity search (9 probes per policy)
            cmd += ["--set", "workload.max_load_search.enabled=false"]
        subprocess.run(cmd, check=True)
        pages[name] = os.path.join(out, "report.html")
    sweep = os.path.join(work, "ring-sweep.yaml")
    with open(sweep, "w") as f:
        f.write(f"base: {os.path.join(os.path.abspath(source), 'scenarios/bench/ring.yaml')}\n"
                "set: {output.activities_csv: false, output.trace: false}\n"
                "axes:\n  - cartesian: {hardware.gpus: [4, 8, 16]}\n"
                "  - cartesian: {workload.collectives.0.bytes: [1MiB, 64MiB]}\n")
    subprocess.run([bin_path, "sweep", sweep, "--out", os.path.join(work, "sweep"), "--quiet", "-j", "1"], check=True)
    pages["sweep"] = os.path.join(work, "sweep", "report.html")
    # parallax compare: the colocate run against one at a higher LS rate.
    colocate_b = os.path.join(work, "colocate-b")
    subprocess.run([bin_path, "run", os.path.join(source, "scenarios/colocate/sgdrc-h200.yaml"), "--out", colocate_b,
                    "--quiet", "--set", "workload.ls.arrivals.rate_per_s=1500", "--set", "output.trace=false"],
                   check=True)
    subprocess.run([bin_path, "compare", os.path.join(work, "colocate"), colocate_b, "--out",
                    os.path.join(work, "compare")], check=True, stdout=subprocess.DEVNULL)
    pages["compare"] = os.path.join(work, "compare", "report.html")
    return pages


def main():
    bin_path, source = os.path.abspath(sys.argv[1]), sys.argv[2]
    shots = sys.argv[3] if len(sys.argv) > 3 else None
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        print("chromium or chromedriver not installed: skipping (apt-get install chromium chromium-driver)")
        return 77
    work = tempfile.mkdtemp(prefix="parallax_browser_")
    port = free_port()
    proc = subprocess.Popen([driver, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = []
    try:
        pages = make_outputs(bin_path, source, work)
        for _ in range(100):  # wait for the driver to listen
            try:
                request(port, "GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": browser,
                                   "args": FLAGS + [f"--user-data-dir={os.path.join(work, 'profile')}"]},
            "goog:loggingPrefs": {"browser": "ALL"}}}}
        session = request(port, "POST", "/session", caps)["sessionId"]
        try:
            for name, page in pages.items():
                request(port, "POST", f"/session/{session}/url", {"url": "file://" + page})
                sizes = request(port, "POST", f"/session/{session}/execute/sync", {
                    "script": "return Array.from(document.querySelectorAll('svg')).map("
                              "s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; });",
                    "args": []})
                figures = request(port, "POST", f"/session/{session}/execute/sync", {
                    "script": "return Array.from(document.querySelectorAll('figure')).map(f => {"
                              " const b = f.querySelector('figcaption b'); const s = f.querySelector('svg');"
                              " const r = s ? s.getBoundingClientRect() : {width: 0, height: 0};"
                              " return [b ? b.textContent.replace(/\\.$/, '') : '', r.width, r.height]; });",
                    "args": []})
                logs = request(port, "POST", f"/session/{session}/se/log", {"type": "browser"}) or []
                errors = [e["message"] for e in logs if e.get("level") == "SEVERE"]
                png = base64.b64decode(request(port, "GET", f"/session/{session}/screenshot"))
                if shots:
                    os.makedirs(shots, exist_ok=True)
                    with open(os.path.join(shots, name + ".png"), "wb") as f:
                        f.write(png)
                problems = []
                if not sizes:
                    problems.append("no plots")
                problems += [f"plot {i} is {w}x{h}" for i, (w, h) in enumerate(sizes) if not (w > 0 and h > 0)]
                problems += [f"console: {m}" for m in errors]
                laid_out = {title for title, w, h in figures if w > 0 and h > 0}
                problems += [f"missing or empty plot '{t}'" for t in EXPECTED_FIGURES.get(name, [])
                             if t not in laid_out]
                if not png.startswith(b"\x89PNG\r\n\x1a\n") or len(png) < 1000:
                    problems.append("no PNG screenshot")
                print(f"{name}: {len(sizes)} plots, sizes {[(round(w), round(h)) for w, h in sizes]}, "
                      f"{len(png)} byte screenshot, {len(errors)} console errors")
                failures += [f"{name}: {p}" for p in problems]
        finally:
            request(port, "DELETE", f"/session/{session}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
