#!/usr/bin/env python3
"""Summarises OUTDIR/gap.tsv (bench/gap/run.py): per program and variant, the
medians over the timed rounds of the process's wall time and its parts
(before main, main, after main), CPU time, minor page faults, and the
library's own measured time (its calls, summed) beside its prediction; then,
per program, what the .cu pays against the C program in each part.

usage: bench/gap/report.py OUTDIR
"""
import csv
import os
import statistics
import sys

COLUMNS = ["wall_ms", "before_main_ms", "main_ms", "after_main_ms", "user_ms", "sys_ms", "minflt",
           "library_ms", "startup_wait_ms", "predicted_ms"]


def main():
    out = sys.argv[1]
    rows = list(csv.DictReader(open(os.path.join(out, "gap.tsv")), delimiter="\t"))
    device = os.path.join(out, "device.txt")
    info = [line.strip() for line in open(device)] if os.path.exists(device) else []
    print("# Where an emitted program's time goes, next to its C program\n")
    print(f"{'; '.join(info) or 'device and date not recorded (no device.txt)'}. "
          f"Medians of {len({r['round'] for r in rows}) - 1} timed rounds, one fresh process per run "
          "(bench/gap/device.sh). *before main*, *main*, *after main*: the process's wall time split at "
          "main's start and return; *library ms*: the library's calls (for the C program, its converted "
          "nests, timed); *region*: the .cu's calls less the C nests; *main less region*: what the rest of "
          "main costs more in the .cu.\n")
    last = max(int(r["round"]) for r in rows)
    timed = [r for r in rows if int(r["round"]) < last or all(x["variant"] == "c" for x in rows)]
    med = {}
    for r in timed:
        med.setdefault((r["name"], r["variant"]), []).append(r)
    print("| program | variant | wall ms | before main | main | after main | user ms | sys ms | minor faults | "
          "library ms | start-up wait | predicted |")
    print("|---|---|" + "---:|" * 10)
    summary = {}
    for (name, variant), rs in med.items():
        vals = {c: statistics.median(float(x[c]) for x in rs) for c in COLUMNS}
        summary[(name, variant)] = vals
        print(f"| {name} | {variant} | " + " | ".join(f"{vals[c]:.1f}" if c != "minflt" else f"{vals[c]:.0f}"
                                                       for c in COLUMNS) + " |")
    print()
    print("| program | .cu − C: wall | before main | main | after main | region (library − C nests) | "
          "main less region | no early start − .cu: wall | main |")
    print("|---|" + "---:|" * 8)
    for name in sorted({n for n, _ in summary}):
        c, cu, ne = (summary.get((name, v)) for v in ("c", "cu", "noearly"))
        if not (c and cu):
            continue
        d = {k: cu[k] - c[k] for k in ("wall_ms", "before_main_ms", "main_ms", "after_main_ms")}
        region = cu["library_ms"] - c["library_ms"]
        outside = (cu["main_ms"] - cu["library_ms"]) - (c["main_ms"] - c["library_ms"])
        extra = f"{ne['wall_ms'] - cu['wall_ms']:+.1f} | {ne['main_ms'] - cu['main_ms']:+.1f}" if ne else "- | -"
        print(f"| {name} | {d['wall_ms']:+.1f} | {d['before_main_ms']:+.1f} | {d['main_ms']:+.1f} | "
              f"{d['after_main_ms']:+.1f} | {region:+.1f} | {outside:+.1f} | {extra} |")


if __name__ == "__main__":
    main()
