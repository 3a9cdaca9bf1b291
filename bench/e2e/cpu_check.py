#!/usr/bin/env python3
"""The C side of the end-to-end benchmark alone, on this machine (no GPU):
each program's timed C copy (bench/e2e/generate.sh) built with gcc -O2 and
run RUNS times, its converted nests' time (the `recipe: c-time` lines,
summed) against the forced plan's prediction of them (report.py's
c_region). Plan with `ADVISE_EXTRA=--measure-host` so that the predictions
are this machine's.

usage: bench/e2e/cpu_check.py OUTDIR      (RUNS, default 5)
prints: name, measured median ms (fastest-slowest), predicted ms, error"""
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402


def main():
    out = sys.argv[1]
    runs = int(os.environ.get("RUNS", "5"))
    within = total = 0
    for line in open(os.path.join(out, "programs.tsv")):
        f = line.rstrip("\n").split("\t")
        name, timed, fplan, flags = f[0], f[3], f[7], f[8]
        extra = f[9] if len(f) > 9 else ""
        if timed == "-" or fplan == "-":
            continue
        exe = os.path.join(out, f"{name}.cpu-check")
        if subprocess.call(f"gcc -O2 {flags} {timed} {extra} -o {exe} -lm", shell=True, cwd=out) != 0:
            print(f"{name}: build failed")
            continue
        predicted = report.predictions(fplan, json.load(open(os.path.join(out, fplan))))["c_region"]
        ms = []
        for _ in range(runs):
            r = subprocess.run([exe, os.devnull], cwd=out, capture_output=True, text=True)
            ms.append(sum(float(m.group(1)) for m in re.finditer(r"recipe: c-time \S+ ([0-9.]+)", r.stderr)))
        m = statistics.median(ms)
        error = (predicted - m) / m * 100
        total += 1
        within += abs(error) <= 25
        print(f"{name:16s} measured {m:9.1f} ms ({min(ms):.1f}-{max(ms):.1f})  predicted {predicted:9.1f}  {error:+.0f}%")
    print(f"within 25%: {within} of {total}")


if __name__ == "__main__":
    main()
