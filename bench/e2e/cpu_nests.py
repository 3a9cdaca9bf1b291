#!/usr/bin/env python3
"""The C side of the end-to-end benchmark nest by nest, on this machine (no
GPU): each program's timed C copy (bench/e2e/generate.sh, built by
cpu_check.py as OUTDIR/<name>.cpu-check) run RUNS times, every nest's
measured first call and later calls (the `recipe: c-time` lines) against
the forced plan's prediction of them (`in_program.cpu_first_ms`, `cpu_ms`,
and the parts of the latter: `cpu_estimate.memory_ms`, `compute_ms`), next
to what gcc -O2 made of the nest's loops on this machine: the vector width
of a loop it vectorized inside the nest's lines (`-fopt-info-vec-optimized`;
0: none). The model prices every nest's arithmetic at one rate, measured on
a stencil on doubles that gcc vectorizes 2 wide; this shows where that holds.

usage: bench/e2e/cpu_nests.py OUTDIR      (RUNS, default 3; run cpu_check.py first)"""
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict


def vector_widths(out, source, flags):
    """{line: bytes per vector} of the loops gcc -O2 vectorizes in `source`."""
    r = subprocess.run(f"gcc -O2 {flags} -fopt-info-vec-optimized -c {source} -o /dev/null", shell=True,
                       cwd=out, capture_output=True, text=True)
    return {int(m.group(1)): int(m.group(2))
            for m in re.finditer(r":(\d+):\d+: optimized: loop vectorized using (\d+) byte vectors", r.stderr)}


def error(predicted, measured):
    return f"{(predicted - measured) / measured * 100:+5.0f}%" if measured else "    -"


def main():
    out = sys.argv[1]
    runs = int(os.environ.get("RUNS", "3"))
    print(f"{'nest':24s} calls vec | first call ms: measured predicted error | later calls ms: measured predicted"
          " error | memory compute")
    for line in open(os.path.join(out, "programs.tsv")):
        f = line.rstrip("\n").split("\t")
        name, original, timed, fplan, flags = f[0], f[2], f[3], f[7], f[8]
        exe = os.path.join(out, f"{name}.cpu-check")
        if timed == "-" or fplan == "-" or not os.path.exists(exe):
            continue
        widths = vector_widths(out, original, flags)
        times = defaultdict(list)  # "a-b" -> every call's ms, run after run
        for _ in range(runs):
            r = subprocess.run([exe, os.devnull], cwd=out, capture_output=True, text=True)
            for m in re.finditer(r"recipe: c-time (\S+) ([0-9.]+)", r.stderr):
                times[m.group(1)].append(float(m.group(2)))
        plan = json.load(open(os.path.join(out, fplan)))
        for n in plan["nests"]:
            ip = n.get("in_program")
            if not ip or "cpu_estimate" not in ip:
                continue
            a, b = n["lines"]
            v = times.get(f"{a}-{b}", [])
            calls = len(v) // runs  # as the program made them (a nest called from a loop the plan left alone too)
            if calls == 0:
                continue
            first = statistics.median(v[i * calls] for i in range(runs))
            later = [x for i, x in enumerate(v) if i % calls != 0]
            warm = statistics.median(later) if later else None
            width = max([w for ln, w in widths.items() if a <= ln <= b] or [0])
            ce = ip["cpu_estimate"]
            warm_text = (f"{warm:8.2f} {ip['cpu_ms']:9.2f} {error(ip['cpu_ms'], warm)}" if warm is not None
                         else f"{'-':>8s} {'-':>9s}     -")
            print(f"{name + ' ' + str(a) + '-' + str(b):24s} {calls:5d} {width:3d} | {first:8.2f} {ip['cpu_first_ms']:9.2f}"
                  f" {error(ip['cpu_first_ms'], first)} | {warm_text} | {ce['memory_ms']:6.1f} {ce['compute_ms']:7.1f}")


if __name__ == "__main__":
    main()
