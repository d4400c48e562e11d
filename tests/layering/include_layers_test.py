#!/usr/bin/env python3
"""Dependencies point one way (../shared/DESIGN.md, docs/architecture.md "Layers"): checks every
#include "..." of the source tree against the layer rules below and names each back-edge as
FILE:LINE. Usage: include_layers_test.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# A folder's files may not include these (prefixes of the included path).
FORBIDDEN = {
    "sim/engine": ["tools/", "sim/experiment/", "sim/predict/", "sim/policies/", "sim/scenario/", "sim/workload/", "sim/report/"],
    "sim/platform": ["tools/", "sim/experiment/", "sim/predict/", "sim/policies/", "sim/scenario/", "sim/report/"],
    "sim/report": ["tools/", "sim/experiment/", "sim/predict/", "sim/policies/"],
    "sim/workload": ["tools/", "sim/experiment/", "sim/predict/", "sim/policies/"],
    "sim/scenario": ["tools/", "sim/experiment/", "sim/predict/", "sim/policies/"],
    "sim/policies": ["tools/", "sim/experiment/", "sim/predict/"],
    "sim/sweep": ["tools/", "sim/experiment/", "sim/predict/"],
    "sim/experiment": ["tools/"],
    "sim/predict": ["tools/", "sim/experiment/"],
    "models": ["tools/", "sim/experiment/", "sim/predict/"],
    "hw": ["tools/"],
    "tests": ["tools/"],
}

# sim/report by subject: the output primitives include neither the trace nor the pages, and those
# two do not include each other (sim/report/meson.build builds each as its own library).
REPORT_TRACE = {"chrome_trace", "link_activity", "trace_event_writer", "trace_tracks", "trace_annotations"}
REPORT_PAGES = {"html_report", "report_pages", "xml_check"} | {f"report_{k}" for k in
               ["colocate", "compare", "generic", "multiplex", "overlap", "overlap_e2e", "serverless", "sweep",
                "transfers", "validate"]}


def report_subject(stem):
    stem = stem.removesuffix("_test")
    if stem in REPORT_TRACE:
        return "trace"
    if stem in REPORT_PAGES or stem.startswith("svg_"):
        return "pages"
    return "output"


def main():
    root = Path(sys.argv[1])
    problems = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in {".h", ".cpp", ".cu"} or "build" in path.relative_to(root).parts[0]:
            continue
        rel = path.relative_to(root).as_posix()
        rules = [bad for folder, bad in FORBIDDEN.items() if rel.startswith(folder + "/")]
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            included = m.group(1)
            for bad in rules:
                for prefix in bad:
                    if included.startswith(prefix):
                        problems.append(f"{rel}:{number}: includes {included} ({prefix} is a layer above)")
            if rel.startswith("sim/report/") and included.startswith("sim/report/") and not path.stem.endswith("_test"):
                mine, theirs = report_subject(path.stem), report_subject(Path(included).stem)
                if theirs != mine and theirs != "output":
                    problems.append(f"{rel}:{number}: the report {mine} includes {included} (report {theirs})")
    for p in problems:
        print(p)
    print(f"{len(problems)} back-edges")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
