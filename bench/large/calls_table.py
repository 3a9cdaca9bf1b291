#!/usr/bin/env python3
"""Rows of bench/large/calls.sh's table from one process's RECIPE_REPORT=1 output:
each library run, in order, with its measured total (CUDA's start-up left out),
staging, pages and copies beside the model's.
usage: calls_table.py ELEMENTS PROCESS REPORT"""
import re
import sys


def runs_of(path):
    runs, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"recipe: (\S.*?): (scalable|basic|naive|buffered|streams|hybrid)", line)
        if m:
            cur = {"name": m.group(1)}
            runs.setdefault(cur["name"], []).append(cur)
            continue
        m = re.match(r"recipe:\s+(startup|h2d|d2h|staging|pages|total)\s+([\d.]+)\s+(\S+)", line)
        if m and cur is not None:
            cur[m.group(1)] = (float(m.group(2)), None if m.group(3) == "-" else float(m.group(3)))
    return runs


def main():
    n, proc, path = sys.argv[1:4]
    for name, rs in runs_of(path).items():
        for i, r in enumerate(rs):
            measured, predicted = r["total"]
            measured -= r.get("startup", (0, None))[0]
            err = f"{(predicted - measured) / measured * 100:+.0f}%" if predicted else "-"
            st_m, st_p = r.get("staging", (0, None))
            print(f"| {n} | {proc} | {name} | {'first' if i == 0 else i + 1} | {measured:.1f} | "
                  f"{'-' if predicted is None else f'{predicted:.1f}'} | {err} | "
                  f"{st_m:.1f} / {'-' if st_p is None else f'{st_p:.1f}'} | {r.get('pages', (0, None))[0]:.1f} | "
                  f"{r['h2d'][0]:.1f} / {r['d2h'][0]:.1f} |")


if __name__ == "__main__":
    main()
