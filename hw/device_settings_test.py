#!/usr/bin/env python3
# File: hw/device_settings_test.py
# The hardware backend must never change a device setting (issue 10 part 6, docs/hardware.md
# "Errors and device settings"): no reset, no clock, power, ECC, persistence, compute-mode or MIG
# change, through the CUDA runtime, the driver API, NVML or nvidia-smi. This scans the code (not the
# comments) of every hw/ source and of the device scripts for the calls that would, so that adding
# one fails the suite with the file and line.
# Usage: device_settings_test.py SOURCE_ROOT
import pathlib
import re
import sys

# Calls that change a device setting or reset the device.
FORBIDDEN = re.compile(
    r"\b(cudaDeviceReset|cuDevicePrimaryCtxReset\w*|cuDeviceSetMemPool"
    r"|nvml\w*(?:Set|Reset|Create|Clear|Destroy)\w*"
    r"|cudaDeviceSetMemPool)\s*\(")
# nvidia-smi options that change settings: -pm, -e, -c, -r, -lgc, -lmc, -rgc, -rmc, -ac, -rac,
# -pl, -mig, -acp, and the long forms --persistence-mode=..., --lock-gpu-clocks=... etc.
SMI_SETTING = re.compile(
    r"nvidia-smi\b[^\n|;&]*\s(-pm|-e|-c|-r|-lgc|-lmc|-rgc|-rmc|-ac|-rac|-pl|-mig|-acp|mig|"
    r"--(?:persistence-mode|ecc-config|compute-mode|gpu-reset|lock-gpu-clocks|lock-memory-clocks|"
    r"reset-gpu-clocks|reset-memory-clocks|applications-clocks|reset-applications-clocks|power-limit|"
    r"multi-instance-gpu))\b")


def code_lines(text, suffix):
    """Yields (line number, code) with comments removed (// and /* */ for C++, # for shell)."""
    if suffix == ".sh":
        for n, line in enumerate(text.splitlines(), 1):
            yield n, re.sub(r"(^|\s)#.*$", "", line)
        return
    in_block = False
    for n, line in enumerate(text.splitlines(), 1):
        out = ""
        i = 0
        while i < len(line):
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    i = len(line)
                else:
                    in_block, i = False, end + 2
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                in_block, i = True, i + 2
            else:
                out += line[i]
                i += 1
        yield n, out


def main():
    root = pathlib.Path(sys.argv[1])
    files = [p for p in sorted((root / "hw").iterdir())
             if p.suffix in (".cpp", ".h", ".cu") and not p.stem.endswith("_test")]
    files += [root / "tools" / "device-check.sh", root / "tools" / "build-device-binary.sh"]
    found = []
    for path in files:
        for n, code in code_lines(path.read_text(), path.suffix):
            rule = FORBIDDEN if path.suffix != ".sh" else SMI_SETTING
            m = rule.search(code)
            if m:
                found.append(f"{path.relative_to(root)}:{n}: {m.group(0).strip()}")
    if len(files) < 20:
        print(f"only {len(files)} files scanned: is {root} the source root?")
        return 1
    # The scanner must see what it looks for (a line that would be refused, and one in a comment).
    probe = list(code_lines("x(); // cudaDeviceReset();\nnvmlDeviceSetApplicationsClocks(d, 1, 2);\n", ".cpp"))
    assert not FORBIDDEN.search(probe[0][1]) and FORBIDDEN.search(probe[1][1])
    assert SMI_SETTING.search("nvidia-smi -lgc 1980") and not SMI_SETTING.search("nvidia-smi --query-gpu=name")
    for line in found:
        print(line)
    print(f"{len(files)} files scanned, {len(found)} device-setting calls")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
