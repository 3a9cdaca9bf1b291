#!/usr/bin/env python3
"""Writes the markdown page of the end-to-end benchmark from what
bench/e2e/run.sh saved in OUTDIR: programs.tsv (from generate.sh: each
program's decision .cu and plan.json, and its forced ones, made with
--convert-all), raw.tsv (one line per process run), builds.tsv and env.tsv
(the machine; where it is missing, this machine is asked), and the
predictions in each forced plan.json (the model's comparison of every
convertible nest with the CPU):
  program: {calls, cuda_startup_ms, startup_paid_ms, teardown_ms, cpu_ms, gpu_ms, runs_on_gpu}
  nests[] that were converted: in_program: {calls, cpu_first_ms, cpu_ms,
    gpu_first_ms, gpu_warm_ms, cpu_total_ms, gpu_total_ms, runs_on, gather_ms}
  regions[] that were converted: in_program: {calls, cpu_first_ms, cpu_ms,
    gpu_first_ms, gpu_warm_ms} (their nests count once, as the region)
and the verdicts of the decision's plan.json. A field missing stops it with
an error naming the field and the file; `program` is missing when the
platform profile advise used has no host figures (no comparison with the CPU
was made), which it says. A programs.tsv of the older layout (no forced side)
stops it too. Every value in the tables is the median of the runs. run.sh
calls it at the end; it can be run by hand on saved data.
usage: bench/e2e/report.py OUTDIR [REPORT]    (REPORT: the page, also from
the environment; default OUTDIR/results-e2e.md)
"""
import csv
import datetime
import json
import os
import statistics
import subprocess
import sys

KINDS = (("sample", "Samples"), ("polybench", "PolyBench/C 4.2.1"))
PROGRAM_FIELDS = ("calls", "cuda_startup_ms", "startup_paid_ms", "teardown_ms", "cpu_ms", "gpu_ms", "runs_on_gpu")
NEST_FIELDS = ("calls", "cpu_first_ms", "cpu_ms", "gpu_first_ms", "gpu_warm_ms", "cpu_total_ms", "gpu_total_ms", "runs_on")


def die(message):
    sys.exit("report.py: " + message)


def need(obj, key, where, path):
    if not isinstance(obj, dict) or key not in obj:
        die(f"{path}: no field '{where}{key}'")
    return obj[key]


def read_tsv(path, header):
    """Rows of a tab-separated file as dicts (header: the file's first line, or a tuple of names)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    if header is True:
        header, rows = rows[0], rows[1:]
    return [dict(zip(header, r)) for r in rows if r]


def load(path):
    with open(path) as f:
        plan = json.load(f)
    need(plan, "nests", "", path)
    return plan


def converted(plan):
    return sum(n.get("verdict") == "converted" for n in plan["nests"])


def predictions(path, plan):
    """The model's figures for the program with every convertible nest on the
    GPU, from the forced plan (one that converted a nest)."""
    if "program" not in plan:
        die(f"{path}: no field 'program': the platform profile advise used has no host figures, so it compared "
            "nothing with the CPU (no predictions to check); make the plans with a measured profile "
            "(bench/device/profile.sh) or one that has host figures")
    program = plan["program"]
    for k in PROGRAM_FIELDS:
        need(program, k, "program.", path)
    c_region = gpu_region = gathers = 0.0
    # Nests that run in a converted region (a time loop, consecutive nests, a
    # caller's loop) are priced there, once for the region: their own
    # in_program is what they would cost called one by one.
    in_region = set()
    for k, region in enumerate(plan.get("regions", [])):
        if not region.get("converted"):
            continue
        ip = need(region, "in_program", f"regions[{k}].", path)
        calls = ip["calls"]
        c_region += ip["cpu_first_ms"] + (calls - 1) * ip["cpu_ms"]
        gpu_region += ip["gpu_first_ms"] + (calls - 1) * ip["gpu_warm_ms"]
        in_region.update(region["nests"])
    for i, n in enumerate(plan["nests"]):
        if n.get("verdict") != "converted" or n.get("id") in in_region:
            continue
        ip = need(n, "in_program", f"nests[{i}].", path)
        for k in NEST_FIELDS:
            need(ip, k, f"nests[{i}].in_program.", path)
        c_region += ip["cpu_total_ms"]
        # The emitted code's gathering of row-pointer arrays around each call
        # (in_program.gather_ms, within gpu_total_ms; plans made before it had
        # none) is the program's time but not the library call's, which is
        # what the region's measurement times.
        gather = ip.get("gather_ms", 0.0) * ip["calls"]
        gpu_region += ip["gpu_total_ms"] - gather
        gathers += gather
    # CUDA's start-up (the part the program waits for) and teardown are the
    # program's, paid once, outside the region's own time; so is the gathering.
    return {"c_region": c_region, "gpu_region": gpu_region, "startup_paid": program["startup_paid_ms"],
            "overhead": program["startup_paid_ms"] + program["teardown_ms"] + gathers}


def num(text):
    try:
        return float(text)
    except ValueError:
        return None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def spread(values):
    """max / min of the positive values (the runs' spread), None with fewer than two."""
    v = [x for x in values if x is not None and x > 0]
    return max(v) / min(v) if len(v) >= 2 else None


def error(pred, meas):
    if pred is None or meas is None or meas == 0:
        return None
    return (pred - meas) / meas * 100


def f(value, digits=2, sign=False):
    if value is None:
        return "—"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def machine(outdir):
    path = os.path.join(outdir, "env.tsv")
    if os.path.exists(path):
        with open(path) as fh:
            return dict(line.rstrip("\n").split("\t", 1) for line in fh if "\t" in line)

    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""
    nvcc = sh("nvcc --version")
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC") + " (report; no env.tsv)",
        "gpu": sh("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1"),
        "nvcc": nvcc.rsplit("release ", 1)[-1].split(",")[0] if "release " in nvcc else "",
        "gcc": sh("gcc -dumpfullversion"),
        "cpu": sh("lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1"),
    }


PROGRAM_COLUMNS = ("name", "kind", "c", "timed", "cu", "plan", "fcu", "fplan", "flags", "extra")


def same_file(outdir, a, b):
    """Whether the .cu files A and B (relative to OUTDIR) exist and are the same
    program: the same bytes once their comment lines are left out (run.sh's
    same_cu; the comments quote host figures read anew for each side)."""
    if a == "-" or b == "-":
        return False

    def code(path):
        with open(os.path.join(outdir, path), "rb") as f:
            return [line for line in f if not line.lstrip().startswith(b"//")]
    try:
        return code(a) == code(b)
    except OSError:
        return False


def spread_line(rows):
    """One sentence: how far each measurement's runs lie apart, median and largest over the programs."""
    parts = []
    for key, what in (("c", "the C program (whole)"), ("c_region", "its C region"),
                      ("gpu_region", "the all-on-GPU region")):
        got = sorted((r["spreads"][key], r["name"]) for r in rows if r["spreads"].get(key) is not None)
        if got:
            mid = got[len(got) // 2][0] if len(got) % 2 else (got[len(got) // 2 - 1][0] + got[len(got) // 2][0]) / 2
            parts.append(f"{what} {mid:.2f}× (median), up to {got[-1][0]:.2f}× ({got[-1][1]})")
    if not parts:
        return []
    return ["", "How far the runs of one program lie apart, slowest ÷ fastest: " + "; ".join(parts) + "."]


def main():
    if len(sys.argv) not in (2, 3):
        die("usage: report.py OUTDIR [REPORT]")
    outdir = sys.argv[1]
    page = sys.argv[2] if len(sys.argv) == 3 else os.environ.get("REPORT") or os.path.join(outdir, "results-e2e.md")
    for name in ("programs.tsv", "raw.tsv"):
        if not os.path.exists(os.path.join(outdir, name)):
            die(f"no {name} in {outdir}")
    programs_path = os.path.join(outdir, "programs.tsv")
    with open(programs_path, newline="") as fh:
        widths = {len(r) for r in csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE) if r}
    if widths != {len(PROGRAM_COLUMNS)}:
        die(f"{programs_path}: lines of {'/'.join(map(str, sorted(widths)))} columns, not {len(PROGRAM_COLUMNS)}: "
            "made by an older bench/e2e/generate.sh, without the forced side (the programs advised with "
            "--convert-all), so the all-on-GPU program was neither made nor measured and a decision to keep "
            "nests on the CPU cannot be checked; make OUTDIR again with generate.sh and run.sh")
    programs = read_tsv(programs_path, PROGRAM_COLUMNS)
    raw = read_tsv(os.path.join(outdir, "raw.tsv"), True)
    builds_path = os.path.join(outdir, "builds.tsv")
    builds = read_tsv(builds_path, True) if os.path.exists(builds_path) else []
    env = machine(outdir)
    runs_seen = max((int(r["run"]) for r in raw), default=0)
    runs = env.get("runs") or str(runs_seen)

    by = {}
    for r in raw:
        by.setdefault((r["name"], r["variant"]), []).append(r)
    ran = {r["name"] for r in raw} | {b["name"] for b in builds}

    rows = {kind: [] for kind, _ in KINDS}
    calls_rows = []
    for p in programs:
        if p["name"] not in ran:
            continue
        name, has_cu, has_fcu = p["name"], p["cu"] != "-", p["fcu"] != "-"
        plan_path, fplan_path = os.path.join(outdir, p["plan"]), os.path.join(outdir, p["fplan"])
        plan, fplan = load(plan_path), load(fplan_path)
        n_dec, n_all = converted(plan), converted(fplan)
        candidate = n_all > 0
        pred = predictions(fplan_path, fplan) if candidate else None
        # The forced .cu when it is the decision's program (same_file): run.sh ran it once, as "gpu".
        shared = has_cu and has_fcu and not by.get((name, "gpu-forced")) and same_file(outdir, p["cu"], p["fcu"])
        forced = "gpu" if shared else "gpu-forced"
        failed = set()
        notes = []
        for b in builds:
            if b["name"] == name and b["status"] != "0":
                notes.append(f"{b['target']} build failed ({b['log']})")
                failed.add(b["target"])
        for variant in ("c", "c-timed", "gpu", "gpu-forced"):
            bad = [(r["run"], r["status"]) for r in by.get((name, variant), []) if r["status"] != "0"]
            if bad:
                statuses = "/".join(sorted({s for _, s in bad}))
                notes.append(f"{variant} exited {statuses} in run(s) {','.join(run for run, _ in bad)}")
                failed.add(variant)
        if shared:
            notes.append("forced .cu = the decision's (run once)")
        if not candidate:
            notes.append("no nest the generator can convert: C program only")

        def each_run(variant, field):
            return [num(r[field]) for r in by.get((name, variant), []) if r["status"] == "0"]

        def med(variant, field):
            return median(each_run(variant, field))

        c_whole = med("c", "wall_s")
        dec_whole = med("gpu", "wall_s") if has_cu else c_whole
        all_whole = med(forced, "wall_s") if has_fcu else None
        c_region, startup = med("c-timed", "region_ms"), med(forced, "startup_ms")
        # The region's own time: its library calls less their wait for CUDA's start-up.
        gpu_region_runs = [num(r["region_ms"]) - num(r["startup_ms"]) for r in by.get((name, forced), [])
                           if r["status"] == "0" and num(r["region_ms"]) is not None
                           and num(r["startup_ms"]) is not None] if has_fcu else []
        gpu_region = median(gpu_region_runs) if has_fcu else None
        # The all-on-GPU program as the model sees it: the rest of the C
        # program, measured, with the predicted GPU region, start-up wait and
        # teardown. The rest is each timed run's wall time less its own region
        # (the median of those): the C program's median less the timed copy's
        # region median mixed runs of a noisy host (stencil7: a region median
        # longer than the whole program's).
        rest_runs = [num(r["wall_s"]) - num(r["region_ms"]) / 1e3 for r in by.get((name, "c-timed"), [])
                     if r["status"] == "0" and num(r["wall_s"]) is not None and num(r["region_ms"]) is not None]
        rest = median(rest_runs)
        all_whole_pred = (rest + (pred["gpu_region"] + pred["overhead"]) / 1e3
                          if candidate and rest is not None else None)
        # How far the runs of one measurement lie apart (max / min): a
        # prediction cannot be held closer than the host repeats itself.
        spreads = {"c": spread(each_run("c", "wall_s")), "c_region": spread(each_run("c-timed", "region_ms")),
                   "gpu_region": spread(gpu_region_runs)}
        c_err = error(pred["c_region"], c_region) if candidate else None
        gpu_err = error(pred["gpu_region"], gpu_region) if candidate else None
        if not candidate:
            decision, right = "—", "n/a"
        else:
            if not has_cu:
                decision = "cpu"
            elif n_dec >= n_all:
                decision = "gpu"
            else:
                decision = f"mixed ({n_all - n_dec} of {n_all} kept)"
            used = {"c", forced} | ({"gpu"} if has_cu else set())
            if used & failed or not has_fcu or None in (c_whole, dec_whole, all_whole):
                right = "—"
            else:
                right = "yes" if dec_whole <= 1.03 * min(c_whole, all_whole) else "no"
        rows[p["kind"]].append({
            "name": name, "candidate": candidate, "has_cu": has_cu, "right": right,
            "c_whole": c_whole, "dec_whole": dec_whole if has_cu else None, "c_err": c_err, "gpu_err": gpu_err,
            "whole_err": error(all_whole_pred, all_whole) if candidate and None not in (all_whole_pred, all_whole) else None,
            "spreads": spreads,
            "cells": [name, f(c_whole, 3), f(dec_whole, 3) if has_cu else "= C", f(all_whole, 3), f(all_whole_pred, 3),
                      f(c_region), f(pred["c_region"] if pred else None), f(c_err, 1, True),
                      f(gpu_region), f(pred["gpu_region"] if pred else None), f(gpu_err, 1, True),
                      f(startup), f(pred["startup_paid"] if pred else None),
                      decision, right, "; ".join(notes)],
        })
        calls = med(forced, "calls") if has_fcu else None
        if calls is not None and calls > 1:
            first, second = med(forced, "first_ms"), med(forced, "second_ms")
            calls_rows.append([name, f"{calls:g}", f(first), f(second),
                               f(second / first, 3) if first and second is not None else "—"])

    out = ["# End to end: the C programs against the programs `recipe advise` emitted", ""]
    out.append(f"{env.get('date', '')}; GPU {env.get('gpu', '?') or '?'}; nvcc {env.get('nvcc', '?') or '?'}, "
               f"gcc {env.get('gcc', '?') or '?'}; host CPU {env.get('cpu', '?') or '?'}.")
    out.append(f"Each program is a fresh process, one at a time, {runs} run(s) of each (per round: the C program, "
               "its timed copy, the decision's .cu, the all-on-GPU .cu); every value is the median of the runs. "
               "C: gcc -O2; .cu: the nvcc line the recipe printed"
               f"{' (' + env['arch'] + ')' if env.get('arch') else ''}."
               + (f" Each .cu run began once the GPU had sat unused {env['idle_s']} s, as a user's program meets it."
                  if env.get("idle_s") else ""))
    out.append("")
    out.append("Each program was advised twice with the same flags: as it is (*the decision*: it keeps on the CPU "
               "the nests it predicts would not pay, and writes no .cu when none pays) and with `--convert-all` "
               "(*all on the GPU*: every nest the generator can convert, the nests the model compared with the CPU). "
               "Both sides are measured, so a decision to keep nests on the CPU is checked too."
               + (f" The samples were advised with `{env['advise_extra']}` as well." if env.get("advise_extra") else ""))
    out.append("")
    out.append("- *whole*: wall time of the process. *C*: the original program. *decision's program*: its .cu "
               "(run with RECIPE_REPORT=time), or \"= C\" when it kept every nest on the CPU (the program is the C "
               "program). *all on GPU*: the `--convert-all` .cu (run with RECIPE_REPORT=time; when it is the "
               "decision's .cu, comment lines aside, the same runs).")
    out.append("- *all on GPU whole predicted*: the timed C program's measured time with its measured C region "
               "replaced by the model's (the median over its runs of wall time less region): the GPU region, the start-up wait, CUDA's teardown at exit (`program.startup_paid_ms`, "
               "`program.teardown_ms` of the `--convert-all` plan) and the emitted code's gathering of arrays "
               "reached through row pointers around its calls (`in_program.gather_ms`).")
    out.append("- *C region*: every nest the `--convert-all` plan converted, timed in a copy of the C program (its "
               "own runs), whatever the decision; predicted: the sum of their `in_program.cpu_total_ms` (a converted "
               "region's nests: the region's `in_program`, once).")
    out.append("- *all-on-GPU region*: the sum of the all-on-GPU program's `recipe: time` measurements less their "
               "wait for CUDA's start-up (shown on its own: it depends on the program's work before the first call, "
               "not on the region); predicted: the sum of `in_program.gpu_total_ms` of the `--convert-all` plan's "
               "nests, less their `gather_ms` (outside the library calls) (a converted region's nests: the region's `in_program`, once). *start-up wait predicted*: its `program.startup_paid_ms`, the model's upper bound.")
    out.append("- *error*: (predicted − measured) / measured. *decision*: gpu (every convertible nest converted), "
               "cpu (all kept on the CPU: no .cu), mixed (some nests kept; how many of the convertible ones). "
               "*right*: yes when the decision's program is within 3% of the faster of the C program and the "
               "all-on-GPU program (whole, medians), no otherwise; — when a build or a run it needs failed; n/a when "
               "the generator can convert no nest (only the C program runs).")
    header = ["program", "C whole s", "decision's program whole s", "all on GPU whole s", "predicted",
              "C region ms", "predicted", "error %", "all-on-GPU region ms", "predicted", "error %",
              "start-up wait ms", "predicted", "decision", "right", "notes"]
    for kind, title in KINDS:
        if not rows[kind]:
            continue
        out += ["", f"## {title}", "", "| " + " | ".join(header) + " |",
                "|---|" + "---:|" * 12 + "---|---|---|"]
        for r in rows[kind]:
            out.append("| " + " | ".join(c.replace("|", "/") for c in r["cells"]) + " |")
        cands = [r for r in rows[kind] if r["candidate"]]
        with_cu = [r for r in cands if r["has_cu"]]
        timed = [r for r in with_cu if r["dec_whole"] is not None and r["c_whole"] is not None]
        faster = sum(r["dec_whole"] < r["c_whole"] for r in timed)
        slower = sum(r["dec_whole"] > r["c_whole"] for r in timed)
        decided = [r for r in cands if r["right"] in ("yes", "no")]
        gpu_err = [r["gpu_err"] for r in cands if r["gpu_err"] is not None]
        c_err = [r["c_err"] for r in cands if r["c_err"] is not None]
        whole_err = [r["whole_err"] for r in cands if r["whole_err"] is not None]
        out += ["", f"{len(rows[kind])} programs, {len(cands)} with a nest the generator can convert; the decision "
                    f"wrote a .cu for {len(with_cu)} and kept {len(cands) - len(with_cu)} wholly on the CPU; its .cu "
                    f"made {faster} faster and {slower} slower than the C program (whole); decision right for "
                    f"{sum(r['right'] == 'yes' for r in decided)} of {len(decided)}; all-on-GPU region predicted "
                    f"within 10% for {sum(abs(e) <= 10 for e in gpu_err)} of {len(gpu_err)}; C region predicted "
                    f"within 25% for {sum(abs(e) <= 25 for e in c_err)} of {len(c_err)}; all-on-GPU program (whole) "
                    f"predicted within 10% for {sum(abs(e) <= 10 for e in whole_err)} of {len(whole_err)}."]
        out += spread_line(cands)
    if calls_rows:
        out += ["", "## Second call against first call", "",
                "Programs whose all-on-GPU .cu makes more than one library call: the measured time of the first "
                "call (it waits for CUDA to start) and of the second.", "",
                "| program | calls | first call ms | second call ms | second / first |", "|---|---:|---:|---:|---:|"]
        out += ["| " + " | ".join(r) + " |" for r in calls_rows]
    with open(page, "w") as fh:
        fh.write("\n".join(out) + "\n")
    print(f"report.py: wrote {page}")


if __name__ == "__main__":
    main()
