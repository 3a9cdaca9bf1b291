#!/usr/bin/env python3
"""Each emitted program's library calls as bench/device/first_call.sh ran
them (RECIPE_REPORT=1, several fresh processes), against the recipe's
prediction of each: the median of every call's total less its wait for
CUDA's start-up, beside the plan's gpu_first_ms (and gpu_warm_ms) of the
converted nest or region the call runs: the first (regions before nests) of
the call's function that begins at or after the line the call names (a
region's call names its first line; a time loop's, its loop's line).
RECIPE_REPORT=1 times every phase with events, which costs a small call
some tenths of a millisecond: the end-to-end runs (RECIPE_REPORT=time) are
the ones to quote; this says which call misses.

usage: bench/device/calls_summary.py PHASES_DIR PLANS_DIR
  PHASES_DIR: first_call.sh's OUTDIR (<program>.runN.log)
  PLANS_DIR: <program>/<program>.plan.json (model_session.sh PHASES=1: OUTDIR/phases-cu)"""
import collections
import glob
import json
import os
import re
import statistics
import sys


def calls(phases):
    """{program: {call index: [ms less start-up, one per run]}}, and each call's name."""
    out = collections.defaultdict(lambda: collections.defaultdict(list))
    names = {}
    for f in sorted(glob.glob(os.path.join(phases, "*.run*.log"))):
        prog = os.path.basename(f).split(".run")[0]
        seen, current = {}, 0
        for line in open(f):
            m = re.match(r"recipe: (\S+ \(\S+\)): ", line)
            if m:
                current += 1
                seen[current] = {}
                names[(prog, current)] = m.group(1)
                continue
            m = re.match(r"recipe:\s+(\w+)\s+([\d.]+)\s", line)
            if m and current:
                seen[current][m.group(1)] = float(m.group(2))
        for i, c in seen.items():
            if "total" in c:
                out[prog][i].append(c["total"] - c.get("startup", 0.0))
    return out, names


def predictions(plan):
    """[(function, first line, label, in_program)], regions before nests."""
    p = json.load(open(plan))
    rows = []
    for r in p.get("regions") or []:
        if r.get("converted") and r.get("in_program"):
            rows.append((r.get("function", ""), r["lines"][0], f"region {r['lines'][0]}-{r['lines'][1]}", r["in_program"]))
    for n in p["nests"]:
        if n.get("verdict") == "converted" and n.get("in_program"):
            rows.append((n["function"], n["lines"][0], f"nest {n['lines'][0]}-{n['lines'][1]}", n["in_program"]))
    return rows


def entry_of(call, preds):
    m = re.match(r"(\S+) \(\S+:(\d+)\)", call)
    if not m:
        return None
    function, line = m.group(1), int(m.group(2))
    after = [e for e in preds if e[0] == function and e[1] >= line]
    return min(after, key=lambda e: e[1]) if after else None  # min keeps the first of equals: regions first


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    measured, names = calls(argv[1])
    print("| program | call | runs | measured ms | plan's | predicted first ms | error |")
    print("|---|---|---:|---:|---|---:|---:|")
    for prog in sorted(measured):
        plan = os.path.join(argv[2], prog, prog + ".plan.json")
        preds = predictions(plan) if os.path.exists(plan) else []
        for i in sorted(measured[prog]):
            m = statistics.median(measured[prog][i])
            e = entry_of(names[(prog, i)], preds)
            right = f" {e[2]} | {e[3]['gpu_first_ms']:.2f} | {(e[3]['gpu_first_ms'] - m) / m * 100:+.0f}% |" if e else " – | – | – |"
            print(f"| {prog} | {names[(prog, i)]} | {len(measured[prog][i])} | {m:.2f} |" + right)


if __name__ == "__main__":
    main(sys.argv)
