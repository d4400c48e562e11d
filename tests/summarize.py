#!/usr/bin/env python3
"""Counts test cases from Meson's JUnit log and prints 'N passed, N failed, N skipped'.

GoogleTest suites report each case (meson's gtest protocol merges their XML into
meson-logs/testlog.junit.xml). A test binary that crashed before writing its XML still shows in
testlog.json as failed; it is counted as one failure so that a crash never reads as green.
"""
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

build = Path(sys.argv[1] if len(sys.argv) > 1 else "build")
logs = build / "meson-logs"
passed = failed = skipped = 0
suites_with_failures = set()
cases_with_failures = set()  # non-gtest tests appear as one case named like testlog.json's test
try:
    root = ET.parse(logs / "testlog.junit.xml").getroot()
    for suite in root.iter("testsuite"):
        for case in suite.iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                failed += 1
                suites_with_failures.add(suite.get("name", ""))
                cases_with_failures.add(case.get("name", ""))
            elif case.find("skipped") is not None or case.get("status") == "notrun":
                skipped += 1
            else:
                passed += 1
except (OSError, ET.ParseError) as e:
    print(f"summarize: cannot read {logs / 'testlog.junit.xml'}: {e}", file=sys.stderr)

try:
    for line in (logs / "testlog.json").read_text().splitlines():
        t = json.loads(line)
        if t.get("result") in ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS"):
            name = t.get("name", "")
            if name not in cases_with_failures and not any(
                    s.split(".")[1:2] == [name] or s.endswith("." + name) or s == name
                    for s in suites_with_failures):
                failed += 1
                print(f"summarize: test binary '{name}' ended {t.get('result')} "
                      "without reporting a failed case", file=sys.stderr)
except OSError:
    failed += 1
    print("summarize: no testlog.json: the test run did not happen", file=sys.stderr)

print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
