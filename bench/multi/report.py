#!/usr/bin/env python3
"""Renders the several-GPU results page from one device call's output.

usage: bench/multi/report.py OUTDIR > docs/results-multi-gpu-KIND.md

OUTDIR holds what bench/multi/device.sh and bench/multi/e2e.sh wrote:
device.txt, devices_test.log, scaling.txt, multi-gpu.json, e2e.tsv and the
plans (<program>-gN.plan.json)."""
import json
import os
import statistics
import sys
import time
from collections import defaultdict


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def median(values):
    return statistics.median(values) if values else float("nan")


def scaling_table(text, title):
    """The scaling runs of one build of scaling.cu, one row per call, size, host, steps and GPU count."""
    scaling = text.strip().splitlines()
    if not scaling:
        return
    rows = defaultdict(lambda: ([], [], set()))
    for l in scaling:
        f = l.split()
        if len(f) < 11:  # a 12th field, the first call's start-up wait, is left to the reader
            continue
        key = (f[0], f"{f[1]}x{f[2]}", f[4], int(f[5]), int(f[3]))
        rows[key][0].append(float(f[6]))
        rows[key][1].append(float(f[7]))
        rows[key][2].add(f[10])
    print(title + "\n")
    print("One call in a fresh process per run (medians of the runs): a 2-D 5-point stencil as one `recipe::run`")
    print("(scalable, 512-row tiles), or a `recipe::Region` time loop `B = f(A); A = f(B)`. `first`: the")
    print("process's first call (further GPUs' contexts and NCCL's communicators started by `recipe::EarlyStart`")
    print("while the arrays are filled); `second`: the same call again. `same`: the outputs' checksum equals the")
    print("one-GPU run's.\n")
    print("| call | size | host | steps | GPUs | first ms | second ms | second, speed-up over 1 GPU | same |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|")
    base = {}
    for key in sorted(rows, key=lambda k: (k[0], k[1], k[2], k[3], k[4])):
        first, second, checks = rows[key]
        group = key[:4]
        if key[4] == 1:
            base[group] = (median(second), checks)
        b = base.get(group)
        speed = f"{b[0] / median(second):.2f}×" if b else "–"
        same = "yes" if b and checks == b[1] and len(checks) == 1 else "no"
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {key[4]} | {median(first):.1f} | {median(second):.1f} | {speed} | {same} |")
    print()


def main():
    out = sys.argv[1]
    device = read(os.path.join(out, "device.txt")).strip().splitlines()
    gpus = [l for l in device if l[:1].isdigit() and "," in l]
    print("# Several GPUs of one host: measured\n")
    print("Made by `bench/multi/device.sh OUT` (library tests, the host's figures, the library's scaling) and")
    print("`bench/multi/e2e.sh PLATFORM OUT` (whole programs through `recipe advise --gpus N`), rendered by")
    print("`bench/multi/report.py OUT`.", end=" ")
    if os.path.isfile(os.path.join(out, "one-gpu.json")):
        print("The programs were advised with a profile measured in the same run: the one-GPU figures on GPU 0", end=" ")
        print("(`bench/device/profile.sh`), the `multiGpu` figures below (`bench/multi/session.sh`, ONE_GPU_PROFILE=1).", end=" ")
    elif os.path.isdir(os.path.join(out, "platforms")):
        print("The programs were advised with the stored profile whose `multiGpu` figures are the ones measured in", end=" ")
        print("the same run (below; `bench/multi/session.sh`).", end=" ")
    # When: device.sh's "measured" line, else when e2e.sh finished.
    when = [l.split(" ", 1)[1] for l in device if l.startswith("measured ")]
    if not when and os.path.exists(os.path.join(out, "e2e.tsv")):
        when = [time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(os.path.getmtime(os.path.join(out, "e2e.tsv"))))]
    if when:
        print(f"Measured {when[0]}.", end=" ")
    print("Device:\n")
    for l in gpus:
        print(f"- GPU {l}")
    print()
    tests = read(os.path.join(out, "devices_test.log")).strip().splitlines()
    if tests:
        print(f"Library tests over 1..{len(gpus)} GPUs (tests/gpu/devices_test.cu): `{tests[-1]}`\n")
    multi = read(os.path.join(out, "multi-gpu.json"))
    if multi:
        m = json.loads(multi)["multiGpu"]
        print("## The host's figures (`recipe-profile --multi-gpu-only`)\n")
        fresh = m.get("freshGBs") or []
        exits, nccl_exits = m.get("exitMs") or [], m.get("ncclExitMs") or []
        print("| GPUs at once | copies in, GB/s | copies out, GB/s | staging, GB/s | into fresh pages, GB/s | contexts started, ms | "
              "NCCL communicators, ms | exit with the contexts, ms | exit with NCCL's too, ms |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for i in range(m["gpus"]):
            f = f"{fresh[i]:.1f}" if i < len(fresh) else "–"
            e = f"{exits[i]:.0f}" if i < len(exits) else "–"
            ne = f"{nccl_exits[i]:.0f}" if 0 < i < len(nccl_exits) else "–"
            print(f"| {i + 1} | {m['h2dGBs'][i]:.1f} | {m['d2hGBs'][i]:.1f} | {m['stagingGBs'][i]:.1f} | {f} | "
                  f"{m['contextStartMs'][i]:.0f} | {m['ncclInitMs'][i]:.0f} | {e} | {ne} |")
        print(f"\nOne halo exchange (every neighbour pair, both ways at once): {m['exchangeUs']:.1f} µs + bytes at "
              f"{m['exchangeGBs']:.0f} GB/s.\n")
    scaling_table(read(os.path.join(out, "scaling.txt")), "## The library alone (`bench/multi/scaling.cu`)")
    scaling_table(read(os.path.join(out, "scaling-baseline.txt")),
                  "### The same regions with the library before the change (`BASELINE_INCLUDE`)")
    e2e = read(os.path.join(out, "e2e.tsv")).strip().splitlines()
    if e2e:
        rows = defaultdict(list)
        for l in e2e[1:]:
            f = l.split("\t")
            rows[(f[0], f[1])].append(f)
        order = {"0": 0, "1": 1, "2a": 2, "4a": 3, "4": 4, "2": 5}
        label = {"0": "C program", "1": "`--gpus 1`", "2a": "`--gpus 2 --all-gpus`", "4a": "`--gpus 4 --all-gpus`",
                 "4": "`--gpus 4` (the advisor's choice)", "2": "`--gpus 2` (the advisor's choice)"}
        print("## Whole programs (`recipe advise --gpus N`)\n")
        print("Each program advised with `--gpus N` (the most GPUs the plan may use; the advisor chooses how many) and")
        print("with `--gpus N --all-gpus` (all N, to check the model's price of each count), built with the recipe's")
        print("compile command (`--fmad=false`), run cold, one process per run, medians; the C program (gcc -O2")
        print("-ffp-contract=off) run once. `converted`: the library's own time for the converted calls and regions")
        print("(RECIPE_REPORT=time) less their wait for the start-up thread (CUDA's contexts, NCCL's communicators:")
        print("`wait`), `predicted`: the recipe's prediction of each")
        print("for the process's first call, summed; `speed-up`: the converted time against the same program")
        print("on one GPU, measured and predicted. `runs`: the converted time's fastest and slowest run. `outputs`: the")
        print("output file against the C program's.\n")
        print("| program | advised with | GPUs | whole program s | wait ms | converted ms | runs | predicted ms | error | speed-up measured | speed-up predicted | outputs |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        one = {}
        for key in sorted(rows, key=lambda k: (k[0], order.get(k[1], 9))):
            fs = rows[key]
            name, v = key
            if v == "0":
                print(f"| {name} | C program | – | {median([float(f[4]) for f in fs]):.3f} | – | – | – | – | – | – | – | reference |")
                continue
            if fs[0][4] == "-":
                print(f"| {name} | {label.get(v, v)} | 1 | – | – | – | – | – | – | – | – | the `--gpus 1` program: the advisor chose one GPU |")
                continue
            wall = median([float(f[4]) for f in fs])
            conv = median([float(f[5]) for f in fs])
            runs = f"{min(float(f[5]) for f in fs):.1f}–{max(float(f[5]) for f in fs):.1f}"
            pred = median([float(f[6]) for f in fs])
            chosen = fs[0][2]
            wait = median([float(f[8]) for f in fs if len(f) > 8])
            same = "identical" if all(f[7] == "yes" for f in fs) else ",".join(sorted({f[7] for f in fs}))
            if v == "1":
                one[name] = (conv, pred)
            o = one.get(name)
            err = f"{(pred - conv) / conv * 100:+.0f}%" if conv > 0 else "–"
            sm = f"{o[0] / conv:.2f}×" if o and conv > 0 else "–"
            sp = f"{o[1] / pred:.2f}×" if o and pred > 0 else "–"
            print(f"| {name} | {label.get(v, v)} | {chosen} | {wall:.3f} | {wait:.1f} | {conv:.1f} | {runs} | {pred:.1f} | {err} | {sm} | {sp} | {same} |")
        print()
        calls_section(out)


def calls_section(out):
    """Call by call: the median over the runs of each call's time (every run's RECIPE_REPORT=time
    lines, kept by e2e.sh in <program>-g<variant>.calls.log), or each variant's first run where
    only that was kept (<program>-g<variant>.run1.log)."""
    per_call = defaultdict(lambda: ([], [], [], set()))  # (program, variant, call) -> measured, wait, predicted, runs
    order = []
    medians = [f for f in sorted(os.listdir(out)) if f.endswith(".calls.log")]
    sources = medians or sorted(f for f in os.listdir(out) if f.endswith(".run1.log"))
    if not sources:
        return
    for log in sources:
        stem = log[: -len(".calls.log")] if medians else log[: -len(".run1.log")]
        program, variant = stem.rsplit("-g", 1)
        for line in read(os.path.join(out, log)).splitlines():
            f = line.split()
            if medians:
                run, f = f[0], f[1:]
            else:
                run = "1"
            if len(f) != 6 or f[:2] != ["recipe:", "time"]:
                continue
            key = (program, variant, f[2].replace("_", " "))
            if key not in per_call:
                order.append(key)
            m, w, p, runs = per_call[key]
            m.append(float(f[3]) - float(f[4]))
            w.append(float(f[4]))
            p.append(float(f[5]))
            runs.add(run)
    if medians:
        print("### Call by call (medians of the runs)\n")
    else:
        print("### Call by call (each variant's first run)\n")
    print("`measured`: the call's or region's own time less its wait for the start-up thread; `wait`: that wait;")
    print("`runs`: how many runs the medians are of.\n")
    print("| program | variant | call | runs | wait ms | measured ms | predicted ms | error |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for key in order:
        m, w, p, runs = per_call[key]
        measured, wait, predicted = median(m), median(w), median(p)
        err = f"{(predicted - measured) / measured * 100:+.0f}%" if measured > 0 else "–"
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(runs)} | {wait:.1f} | {measured:.1f} | {predicted:.1f} | {err} |")
    print()


if __name__ == "__main__":
    main()
