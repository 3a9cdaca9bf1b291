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
       bench/e2e/cpu_nests.py --logs DIR...  (each DIR: a GPU machine's plans-*.tgz unpacked, bench/e2e/device.sh:
                                           its last run of each timed C program, e2e-build/NAME/c-timed.stderr,
                                           and that host's gcc report, e2e-build/NAME/vectorized.log; the counts
                                           at the end over all of them)
The last lines also re-price every nest of 0.5 ms and more (first calls, and
later calls where the nest ran more than once) by rules that overlap memory
and arithmetic when the step's working set stays in the caches (print_overlap)."""
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
    outs = sys.argv[2:] if logs else [sys.argv[1]]
    runs = 1 if logs else int(os.environ.get("RUNS", "3"))
    print(f"{'nest':24s} calls vec | first call ms: measured predicted error | later calls ms: measured predicted"
          " error | memory compute")
    ways = []  # (measured first call, in_program, cpu_estimate, the plan's scalar rate), nest by nest
    overlap = []  # (measured first call, later calls or None, in_program, cache share of the memory part)
    for out in outs:
        nests(out, logs, runs, ways, overlap)
    print_ways(ways)
    print_overlap(overlap)


def dram_share(plan, ce, root):
    """The nest's memory time over the same bytes at the main-memory rate (1: streamed from DRAM; less: its
    working set stays in the caches): the stream rate of --measure-host's figures, else of the stored profile
    the plan names. None when neither is at hand."""
    gbs = (plan.get("host_measured") or {}).get("stream_gbs")
    if not gbs:
        path = os.path.join(root, "advisor", "platforms", f"{plan.get('platform')}.json")
        gbs = json.load(open(path)).get("hostStreamGBs") if os.path.exists(path) else None
    if not gbs or ce["bytes"] <= 0:
        return None
    return ce["memory_ms"] / (ce["bytes"] / (gbs * 1e9) * 1e3)


def nests(out, logs, runs, ways, overlap):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
            share = dram_share(plan, ce, root)
            if share is not None and ip["cpu_ms"] >= 0.5:
                overlap.append((first, warm, ip, ce, share))


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


def print_overlap(overlap):
    """How many nests of 0.5 ms and more four rules put within 25%, first calls and later calls apart: memory and
    arithmetic added (the model), the slower of the two, the slower of the two when the step's working set stays
    in the caches (dram_share under 0.75) and added otherwise, and the slower plus the faster times dram_share."""
    rules = (("added", lambda m, c, r: m + c), ("slower of", lambda m, c, r: max(m, c)),
             ("slower of in the caches", lambda m, c, r: max(m, c) if r < 0.75 else m + c),
             ("blend by share", lambda m, c, r: max(m, c) + min(m, c) * r))
    first = defaultdict(int)
    later = defaultdict(int)
    n_later = 0
    for measured, warm, ip, ce, share in overlap:
        fresh = ip["cpu_first_ms"] - ip["cpu_ms"]
        for name, rule in rules:
            ms = rule(ce["memory_ms"], ce["compute_ms"], share)
            first[name] += abs(ms + fresh - measured) <= 0.25 * measured
            if warm is not None:
                later[name] += abs(ms - warm) <= 0.25 * warm
        n_later += warm is not None
    if overlap:
        print(f"nests of 0.5 ms and more within 25%, first calls of {len(overlap)} / later calls of {n_later}: " +
              ", ".join(f"{name}: {first[name]} / {later[name]}" for name, _ in rules))


if __name__ == "__main__":
    main()
