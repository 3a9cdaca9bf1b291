#!/usr/bin/env python3
"""Medians of every library call's measured phases in the logs of
bench/device/ab_first_call.sh (RECIPE_REPORT=1 phase tables), old library
against new, one row per program, call and phase that either measured;
"call" is the total less the start-up wait, where the call had one.
Then, each call's time (that, or its total) counted: how many calls' medians
were faster old, new, or within 1%, and how many processes of each variant
had a call more than 15 ms over that call's median (a stall).
usage: ab_summary.py OUTDIR"""
import glob
import os
import re
import statistics
import sys

HEADER = re.compile(r"^recipe: (\S.*) \((\S+:\d+)\): ")
PHASE = re.compile(r"^recipe:\s+(startup|alloc|h2d|kernel|d2h|staging|total)\s+([-\d.]+)\s+(\S+)")


def calls(path):
    """[(call label, {phase: (measured, predicted)})] of one run's log."""
    out = []
    with open(path) as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                out.append((f"{m.group(1)} ({m.group(2)})", {}))
                continue
            m = PHASE.match(line)
            if m and out:
                out[-1][1][m.group(1)] = (float(m.group(2)), m.group(3))
    # The call less its wait for CUDA's start-up (which depends on the
    # program's work before the call, not on the library).
    for _, phases in out:
        if "total" in phases and "startup" in phases:
            phases["call"] = (phases["total"][0] - phases["startup"][0], "-")
    return out


def main(outdir):
    runs = {}  # (program, variant) -> [calls per run]
    for path in sorted(glob.glob(os.path.join(outdir, "*.run*.log"))):
        m = re.match(r"(.+)\.(old|new)\.run\d+\.log$", os.path.basename(path))
        if m:
            runs.setdefault((m.group(1), m.group(2)), []).append(calls(path))
    print("| program | call | phase | old ms | new ms | new / old | predicted ms | runs |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for program in sorted({p for p, _ in runs}):
        old, new = runs.get((program, "old"), []), runs.get((program, "new"), [])
        ncalls = max([len(r) for r in old + new] or [0])
        for c in range(ncalls):
            label = next((r[c][0] for r in old + new if len(r) > c), "")
            for phase in ("startup", "alloc", "h2d", "kernel", "d2h", "staging", "total", "call"):
                def med(rs):
                    v = [r[c][1][phase][0] for r in rs if len(r) > c and phase in r[c][1]]
                    return statistics.median(v) if v else None
                a, b = med(old), med(new)
                if a is None and b is None:
                    continue
                pred = next((r[c][1][phase][1] for r in new + old if len(r) > c and phase in r[c][1]), "-")
                ratio = f"{b / a:.2f}" if a and b is not None and a > 0 else "–"
                fmt = lambda v: "–" if v is None else f"{v:.3f}"
                print(f"| {program} | {c + 1}: {label} | {phase} | {fmt(a)} | {fmt(b)} | {ratio} | {pred} | {len(old)}/{len(new)} |")
    counts(runs)


def counts(runs):
    def time(call):
        phases = call[1]
        return (phases.get("call") or phases.get("total") or (None,))[0]
    faster = {"old": 0, "new": 0, "within 1%": 0}
    stalled = {"old": set(), "new": set()}
    processes = {"old": 0, "new": 0}
    for program in sorted({p for p, _ in runs}):
        medians = {}
        for variant in ("old", "new"):
            rs = runs.get((program, variant), [])
            processes[variant] += len(rs)
            for c in range(max([len(r) for r in rs] or [0])):
                v = [time(r[c]) for r in rs if len(r) > c and time(r[c]) is not None]
                if not v:
                    continue
                medians[(variant, c)] = statistics.median(v)
                for i, r in enumerate(rs):
                    if len(r) > c and time(r[c]) is not None and time(r[c]) - medians[(variant, c)] > 15:
                        stalled[variant].add((program, i))
        for (variant, c), a in medians.items():
            b = medians.get(("new", c)) if variant == "old" else None
            if b is None:
                continue
            faster["within 1%" if abs(b - a) <= 0.01 * a else "old" if a < b else "new"] += 1
    print()
    print(f"calls faster: old {faster['old']}, new {faster['new']}, within 1% {faster['within 1%']}; "
          f"processes with a call over 15 ms above its median: old {len(stalled['old'])} of {processes['old']}, "
          f"new {len(stalled['new'])} of {processes['new']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
