#!/usr/bin/env python3
"""bench/region/spread.sh's page: each fresh process's region phases beside
the staged floor of the same bytes measured after it.

usage: spread.py LOGDIR SAMPLE... > spread.md
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import read, region_block  # noqa: E402

PHASES = ("alloc", "h2d", "kernel", "d2h", "staging", "total")


def main():
    logs, samples = sys.argv[1], sys.argv[2:]
    print("# A region's phases, fresh process by fresh process\n")
    print("```\n" + read(os.path.join(logs, "host.txt")) + "\n```\n")
    print("Each run: one fresh process of the sample's `.cu` with RECIPE_REPORT=1 (ms, the region's own phases; "
          "`total` leaves CUDA's start-up out), then `staged_floor` of the region's bytes (in, out: the fastest "
          "raw-CUDA way found from and to pageable memory, and how).\n")
    for s in samples:
        d = os.path.join(logs, s)
        name = read(os.path.join(d, "region-name"))
        if not name:
            print(f"## {s}\n\nnot run (see {s}.advise.log)\n")
            continue
        print(f"## {s}: {name}\n")
        print("| run | " + " | ".join(PHASES) + " | floor in | floor out | floor how |")
        print("|---:|" + "---:|" * len(PHASES) + "---:|---:|---|")
        cols = {p: [] for p in PHASES}
        predicted = {}
        r = 0
        while os.path.exists(os.path.join(d, f"run.{r}")):
            block = region_block(read(os.path.join(d, f"run.{r}")), name)
            floor = read(os.path.join(d, f"floor.{r}")).split()
            if "startup" in block and "total" in block:  # CUDA's start-up is the program's, not the region's
                t, tp = block["total"]
                block["total"] = (t - block["startup"][0], tp)
            row = []
            for p in PHASES:
                m = block.get(p, (None, None))
                if m[0] is not None:
                    cols[p].append(m[0])
                    predicted[p] = m[1]
                row.append("–" if m[0] is None else f"{m[0]:.2f}")
            fl = floor[:2] if len(floor) >= 2 else ["–", "–"]
            how = " / ".join(floor[2:4]) if len(floor) >= 4 else "–"
            print(f"| {r} | " + " | ".join(row) + f" | {fl[0]} | {fl[1]} | {how} |")
            r += 1
        med = ["–" if not cols[p] else f"{statistics.median(cols[p]):.2f}" for p in PHASES]
        lo = ["–" if not cols[p] else f"{min(cols[p]):.2f}" for p in PHASES]
        hi = ["–" if not cols[p] else f"{max(cols[p]):.2f}" for p in PHASES]
        pr = ["–" if predicted.get(p) is None else f"{predicted[p]:.2f}" for p in PHASES]
        print("| median | " + " | ".join(med) + " | | | |")
        print("| min | " + " | ".join(lo) + " | | | |")
        print("| max | " + " | ".join(hi) + " | | | |")
        print("| predicted | " + " | ".join(pr) + " | | | |\n")


if __name__ == "__main__":
    main()
