#!/usr/bin/env python3
"""The C side of the end-to-end benchmark nest by nest, on this machine (no
GPU): each program's timed C copy (bench/e2e/generate.sh, built by
cpu_check.py as OUTDIR/<name>.cpu-check) run RUNS times, every nest's
measured first call and later calls (the `recipe: c-time` lines) against
the forced plan's prediction of them (`in_program.cpu_first_ms`, `cpu_ms`,
and the parts of the latter: `cpu_estimate.memory_ms`, `compute_ms`), next
to what gcc -O2 made of the nest's loops on this machine: the vector width
of a loop it vectorized inside the nest's lines (`-fopt-info-vec-optimized`;
0: none). The model prices a nest's arithmetic at the rate of the width its
compiler vectorises it (cpu_estimate.gflops); the last line counts the first
calls within 25% four ways (print_ways).

usage: bench/e2e/cpu_nests.py OUTDIR      (RUNS, default 3; run cpu_check.py first)
       bench/e2e/cpu_nests.py --logs DIR  (DIR: a GPU machine's plans-*.tgz unpacked, bench/e2e/device.sh:
                                           its last run of each timed C program, e2e-build/NAME/c-timed.stderr,
                                           and that host's gcc report, e2e-build/NAME/vectorized.log)"""
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict


def parse_widths(report):
    return {int(m.group(1)): int(m.group(2))
            for m in re.finditer(r":(\d+):\d+: optimized: loop vectorized using (\d+) byte vectors", report)}


def vector_widths(out, source, flags):
    """{line: bytes per vector} of the loops gcc -O2 vectorizes in `source`."""
    r = subprocess.run(f"gcc -O2 {flags} -fopt-info-vec-optimized -c {source} -o /dev/null", shell=True,
                       cwd=out, capture_output=True, text=True)
    return parse_widths(r.stderr)


def read(path):
    try:
        return open(path).read()
    except OSError:
        return None


def error(predicted, measured):
    return f"{(predicted - measured) / measured * 100:+5.0f}%" if measured else "    -"


def main():
    logs = sys.argv[1] == "--logs"
    out = sys.argv[2] if logs else sys.argv[1]
    runs = 1 if logs else int(os.environ.get("RUNS", "3"))
    print(f"{'nest':24s} calls vec | first call ms: measured predicted error | later calls ms: measured predicted"
          " error | memory compute")
    ways = []  # (measured first call, in_program, cpu_estimate, the plan's scalar rate), nest by nest
    for line in open(os.path.join(out, "programs.tsv")):
        f = line.rstrip("\n").split("\t")
        name, original, timed, fplan, flags = f[0], f[2], f[3], f[7], f[8]
        exe = os.path.join(out, f"{name}.cpu-check")
        stderrs = []  # each run's `recipe: c-time` lines
        if timed == "-" or fplan == "-":
            continue
        if logs:
            stderrs = [read(os.path.join(out, "e2e-build", name, "c-timed.stderr"))]
            report = read(os.path.join(out, "e2e-build", name, "vectorized.log"))
            widths = parse_widths(report) if report is not None else vector_widths(out, original, flags)
            if stderrs[0] is None:
                continue
        else:
            if not os.path.exists(exe):
                continue
            widths = vector_widths(out, original, flags)
            stderrs = [subprocess.run([exe, os.devnull], cwd=out, capture_output=True, text=True).stderr
                       for _ in range(runs)]
        times = defaultdict(list)  # "a-b" -> every call's ms, run after run
        for text in stderrs:
            for m in re.finditer(r"recipe: c-time (\S+) ([0-9.]+)", text):
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
            ways.append((first, ip, ce, plan.get("host_measured", {}).get("gflops")))
    print_ways(ways)


def print_ways(ways):
    """How many first calls four ways of pricing would put within 25%, each re-priced from the plan's memory and
    arithmetic parts: arithmetic at one rate (hostGflops, the stencil left scalar) or at the nest's vector width's
    (cpu_estimate.gflops), memory and arithmetic as the slower of the two or added. The arithmetic part is scaled
    whole, math calls and conversions included: exact for nests without them."""
    counts = defaultdict(int)
    for first, ip, ce, scalar in ways:
        fresh = ip["cpu_first_ms"] - ip["cpu_ms"]  # the first call's fresh pages, whatever the rule
        width = ce["compute_ms"]
        one = width * ce["gflops"] / scalar if scalar and ce.get("gflops") else None
        for rate, compute in (("one rate", one), ("by width", width)):
            if compute is None:
                continue
            for rule, ms in (("slower of", max(ce["memory_ms"], compute)), ("added", ce["memory_ms"] + compute)):
                counts[(rate, rule)] += abs(ms + fresh - first) <= 0.25 * first
    if counts:
        print(f"first calls within 25% of {len(ways)}: " +
              ", ".join(f"{rate}, {rule}: {n}" for (rate, rule), n in counts.items()))


if __name__ == "__main__":
    main()
