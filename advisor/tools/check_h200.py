#!/usr/bin/env python3
"""Compares the model with the H200 measurements in docs/results-h200.md.

Reads every measured configuration of the results document (the schemes
and host-strategy tables and the tile-size sweeps), predicts each with the
current model and profile (bench_plan --predict), and prints the error of
each against the measured time, with a summary per table.

  advisor/tools/check_h200.py BENCH_PLAN [PLATFORM.json] [RESULTS.md] [--all]

BENCH_PLAN is bench/gpu/bench_plan built against the current recipe_core
(bench/gpu/run_gpu_bench.sh prepare, or see advisor/tools/check_h200.sh).
The kernel-repeat sweep is left out: its kernel times came from the run.
"""
import re
import subprocess
import sys

EXPERIMENTS = {"Moving average": "moving_average", "Emboss": "emboss", "Jacobi sweep": "jacobi_sweep"}
PLAN = re.compile(r"^(\w+) ([0-9x]+), ([a-z-]+), (\d+) streams, (\w+)")


def parse(path):
    """Yields (experiment, memory, table, scheme, tile, copy, streams, host, measured ms)."""
    experiment = table = memory = None
    columns = []
    plans = {}  # (experiment, memory, scheme) -> (copy, streams, host) as measured at the chosen tile
    chosen = {}  # (experiment, memory) -> plan tuple
    rows = []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("## "):
            experiment = next((v for k, v in EXPERIMENTS.items() if line[3:].startswith(k)), None)
            table = None
            continue
        if experiment is None:
            continue
        if line.startswith("Tile-size sweep"):
            table, memory = "sweep", ("pinned" if "pinned" in line else "pageable")
            columns = []
            continue
        if line.startswith("Schemes and host strategies"):
            table, memory = "schemes", ("pinned" if "pinned" in line else "pageable")
            continue
        if line.startswith("| host memory"):
            table = "chosen"
            continue
        if line.startswith("Kernel-repeat"):
            table = None
            continue
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if table == "sweep" and cells[0] == "tile":
            columns = cells[1:]
            continue
        if table == "chosen" and cells[0] in ("pinned", "pageable"):
            m = PLAN.match(cells[1])
            if m:
                chosen[(experiment, cells[0])] = m.groups()
            continue
        if table == "schemes" and cells[0] != "plan":
            m = PLAN.match(cells[0])
            if not m or cells[2] in ("–", "-"):
                continue
            scheme, tile, copy, streams, host = m.groups()
            plans.setdefault((experiment, memory, scheme), (copy, streams, host))
            rows.append((experiment, memory, "schemes", scheme, tile, copy, int(streams), host, float(cells[2]),
                         "(chosen)" in cells[0]))
            continue
        if table == "sweep" and columns and re.match(r"^[0-9x]+$", cells[0]):
            for scheme, cell in zip(columns, cells[1:]):
                if "/" not in cell:
                    continue
                measured = float(cell.split("/")[1].strip().rstrip("*"))
                rows.append((experiment, memory, "sweep", scheme, cells[0], None, None, None, measured,
                             cell.endswith("*")))
    out = []
    for r in rows:
        experiment, memory, table, scheme, tile, copy, streams, host, measured, is_chosen = r
        if copy is None:
            c = chosen.get((experiment, memory))
            if c and c[0] == scheme:
                copy, streams, host = c[2], int(c[3]), c[4]
            elif (experiment, memory, scheme) in plans:
                copy, streams, host = plans[(experiment, memory, scheme)]
                streams = int(streams)
            else:
                continue
        out.append((experiment, memory, table, scheme, tile, copy, streams, host, measured, is_chosen))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show_all = "--all" in sys.argv
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    bench = args[0]
    platform = args[1] if len(args) > 1 else "advisor/platforms/h200.json"
    results = args[2] if len(args) > 2 else "docs/results-h200.md"
    rows = parse(results)
    feed = "".join(f"{r[0]}\t{r[1]}\t{r[3]}\t{r[4]}\t{r[5]}\t{r[6]}\t{r[7]}\n" for r in rows)
    done = subprocess.run([bench, platform, "--predict"], input=feed, capture_output=True, text=True, check=True)
    predicted = [float(l.split("\t")[-1]) for l in done.stdout.splitlines()]
    groups = {}
    for r, p in zip(rows, predicted):
        experiment, memory, table, scheme, tile, copy, streams, host, measured, is_chosen = r
        err = (p - measured) / measured * 100 if p >= 0 else float("nan")
        groups.setdefault((experiment, memory, table, scheme, host), []).append(abs(err))
        if show_all or table == "schemes" or is_chosen:
            print(f"{experiment:15} {memory:8} {table:7} {scheme:8} {tile:12} {copy:10} {streams:4} {host:8} "
                  f"pred {p:9.3f} meas {measured:9.3f} err {err:+7.1f}%{' *' if is_chosen else ''}")
    print("\nmean |error| per sweep (scheme, host):")
    for k, v in groups.items():
        if k[2] == "sweep":
            print(f"  {k[0]:15} {k[1]:8} {k[3]:9} {k[4]:8} {sum(v) / len(v):6.1f}%  (max {max(v):.1f}%, {len(v)} tiles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
