#!/usr/bin/env python3
"""The region benchmark's page from bench/region/run.sh's raw data.

usage: report.py PROGRAMS_TSV RAW_DIR RUNS > region.md
"""
import os
import statistics
import subprocess
import sys


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def region_block(report, name):
    """The RECIPE_REPORT=1 table of the run called `name`: {phase: (measured, predicted)}."""
    rows, on = {}, False
    for line in report.splitlines():
        if line.startswith("recipe: " + name + ":"):
            on = True
            continue
        if on:
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "recipe:" and parts[1] in ("startup", "alloc", "h2d", "kernel", "d2h", "staging", "total"):
                rows[parts[1]] = (float(parts[2]), None if parts[3] == "-" else float(parts[3]))
            elif "copies:" in line:
                break
    return rows


def region_bytes(report, name):
    """(bytes in, bytes out) of the run called `name`, from its `copies:` line."""
    on = False
    for line in report.splitlines():
        if line.startswith("recipe: " + name + ":"):
            on = True
        elif on and "copies:" in line:
            f = line.replace("(", "").replace(")", "").split()
            try:
                return int(f[4]), int(f[8])
            except (IndexError, ValueError):
                return None
    return None


def main():
    tsv, raw, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    # The GPU: as the run recorded it beside RAW_DIR (regions_session.sh), else nvidia-smi's.
    gpu = ", ".join(read(os.path.join(raw, "..", "gpu.txt")).split(", ")[:2])
    if not gpu:
        try:
            gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                                 capture_output=True, text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            gpu = "?"
    print("# Regions: loop nests with their arrays resident on the GPU\n")
    print(f"{gpu}; C: gcc -O2; .cu: nvcc -O2 --fmad=false. One process per run, {runs} runs each, medians.")
    print("`region` is the library's own time for the whole time loop in the program (RECIPE_REPORT=time: "
          "its first and only call, set-up and staging included, CUDA's start-up left out where the region is the "
          "program's first GPU work: the program pays that once, whatever it runs); `floor` is what the same work costs at the "
          "hardware's pace: one page-locked cudaMemcpy of the region's bytes each way (measured in the same run) "
          "plus the kernels' time (events, RECIPE_REPORT=1, of the same .cu with its launches run whole and back to back); "
          "`whole-array floor`, the same with every array the region copies in or out copied whole, one page-locked "
          "copy each way (what keeping the arrays on the GPU for the whole region could cost at best); "
          "`staged floor`, where the program's arrays are pageable, "
          "the fastest raw-CUDA way found to move the same bytes from and to pageable memory (bench/region/staged_floor.cu: "
          "threads staging through page-locked buffers, chunk, threads and buffers searched, or registering the pages) "
          "plus the same kernels. `MB in / out`: what the region copied each way.\n")
    print("| program | decision | dump | C program s | .cu program s | C kernel s | .cu kernel s | region ms | predicted ms | "
          "error | MB in / out | copies in + out ms | kernels ms | floor ms | region / floor | whole-array floor ms | "
          "region / whole-array floor | staged floor ms | region / staged floor |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for line in open(tsv):
        name, c, cu, flags, decision = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
        w = os.path.join(raw, name)
        if not os.path.isdir(w):
            continue  # left out (ONLY)
        errors = read(os.path.join(w, "errors"))
        if errors:
            print(f"| {name} | {decision} | {errors.splitlines()[0]} |" + " |" * 16)
            continue
        dump = read(os.path.join(w, "dump"), "?") + f" ({read(os.path.join(w, 'dump-bytes'), '?')} bytes)"
        c_wall, g_wall, c_kernel, g_kernel, region, predicted = [], [], [], [], [], None
        region_name = read(os.path.join(w, "region-name"))
        key = region_name.replace(" ", "_")
        for r in range(runs):
            t = read(os.path.join(w, f"wall.{r}")).split()
            if len(t) == 3:
                c_wall.append(float(t[1]) - float(t[0]))
                g_wall.append(float(t[2]) - float(t[1]))
            for path, into in ((f"c-time.{r}.out", c_kernel), (f"gpu-time.{r}.out", g_kernel)):
                for l in read(os.path.join(w, path)).splitlines():
                    try:
                        into.append(float(l))
                        break
                    except ValueError:
                        pass
            for l in read(os.path.join(w, f"gpu-time.{r}.out")).splitlines():
                p = l.split()
                if len(p) == 6 and p[:2] == ["recipe:", "time"] and p[2] == key:
                    # CUDA's start-up, when the region is the program's first GPU work, is the program's.
                    region.append(float(p[3]) - float(p[4]))
                    predicted = float(p[5])
        block = region_block(read(os.path.join(w, "gpu-report.out")), region_name)
        moved = region_bytes(read(os.path.join(w, "gpu-report.out")), region_name)
        mb = f"{moved[0] / 1e6:.1f} / {moved[1] / 1e6:.1f}" if moved else "–"
        floor = read(os.path.join(w, "floor")).split()
        med = lambda v, f="{:.3f}": f.format(statistics.median(v)) if v else "–"
        copies = sum(float(x) for x in floor) if floor else None
        # The kernels back to back: the .cu with its launches not pipelined
        # (pieces overlapping the copies have no kernel phase of their own).
        whole_report = read(os.path.join(w, "whole-report.out"))
        kernels = region_block(whole_report or read(os.path.join(w, "gpu-report.out")), region_name).get("kernel", (None,))[0]
        floor_whole = read(os.path.join(w, "floor-whole")).split()
        wfl = sum(float(x) for x in floor_whole) + kernels if floor_whole and kernels is not None else None
        wratio = f"{statistics.median(region) / wfl:.2f}" if wfl and region else "–"
        fl = copies + kernels if copies is not None and kernels is not None else None
        ratio = f"{statistics.median(region) / fl:.2f}" if fl and region else "–"
        staged = read(os.path.join(w, "staged-floor")).split()
        sfl = float(staged[0]) + float(staged[1]) + kernels if len(staged) >= 2 and kernels is not None else None
        sratio = f"{statistics.median(region) / sfl:.2f}" if sfl and region else "–"
        # The prediction against the measured region: (predicted - measured) / measured.
        err = f"{(predicted / statistics.median(region) - 1) * 100:+.0f}%" if predicted and region else "–"
        print(f"| {name} | {decision} | {dump} | {med(c_wall)} | {med(g_wall)} | {med(c_kernel)} | {med(g_kernel)} | "
              f"{med(region, '{:.2f}')} | {'–' if predicted is None else f'{predicted:.2f}'} | {err} | {mb} | "
              f"{'–' if copies is None else f'{copies:.2f}'} | {'–' if kernels is None else f'{kernels:.2f}'} | "
              f"{'–' if fl is None else f'{fl:.2f}'} | {ratio} | {'–' if wfl is None else f'{wfl:.2f}'} | {wratio} | "
              f"{'–' if sfl is None else f'{sfl:.2f}'} | {sratio} |")


if __name__ == "__main__":
    main()
