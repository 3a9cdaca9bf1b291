#!/usr/bin/env python3
"""Runs the programs that bench/gap/device.sh built, one fresh process at a
time, ROUNDS rounds interleaved, and writes one line per process to
OUTDIR/gap.tsv: the wall time from spawn to reaping, split by the
`probe: main BEGIN END` line of probe_main.c into the process's start
(before main), main and exit (after main returned); its CPU time (user,
system) and page faults (minor, major) from wait4; and for the .cu variants
the sum of the library's `recipe: time NAME MS STARTUP PREDICTED` lines
(for the C program, of its timed nests' `recipe: c-time LINES MS` lines).
After the timed rounds, one more round of the .cu variants runs with
RECIPE_REPORT=1 (events timing each phase, so it is not timed itself): its
phase tables are kept in OUTDIR/phases-NAME-VARIANT.txt.

usage: bench/gap/run.py BUILDDIR OUTDIR ROUNDS
BUILDDIR/programs.tsv: name, variant, executable (one per line, tab-separated).
"""
import os
import subprocess
import sys
import time


def run_once(exe, env):
    devnull = os.open(os.devnull, os.O_RDWR)
    r, w = os.pipe()
    t0 = time.time_ns()
    pid = os.fork()
    if pid == 0:
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        os.dup2(w, 2)
        os.close(r)
        os.execve(exe, [exe], env)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        chunks.append(b)
    _, status, usage = os.wait4(pid, 0)
    t1 = time.time_ns()
    os.close(r)
    os.close(devnull)
    return t0, t1, os.waitstatus_to_exitcode(status), usage, b"".join(chunks).decode(errors="replace")


def fields(t0, t1, rc, usage, err):
    begin = end = None
    lib_ms = startup = predicted = 0.0
    calls = 0
    for line in err.splitlines():
        p = line.split()
        if p[:2] == ["probe:", "main"] and len(p) == 4:
            begin, end = int(p[2]), int(p[3])
        elif p[:2] == ["recipe:", "c-time"] and len(p) == 4:
            lib_ms += float(p[3])
        elif p[:2] == ["recipe:", "time"] and len(p) == 6:
            calls += 1
            lib_ms += float(p[3])
            startup += float(p[4])
            predicted += float(p[5])
    wall = (t1 - t0) / 1e6
    if begin is None:
        pre = main = post = float("nan")
    else:
        pre, main, post = (begin - t0) / 1e6, (end - begin) / 1e6, (t1 - end) / 1e6
    return [f"{wall:.3f}", f"{pre:.3f}", f"{main:.3f}", f"{post:.3f}", f"{usage.ru_utime * 1e3:.1f}",
            f"{usage.ru_stime * 1e3:.1f}", str(usage.ru_minflt), str(usage.ru_majflt), str(calls),
            f"{lib_ms:.3f}", f"{startup:.3f}", f"{predicted:.3f}", str(rc)]


def main():
    build, out, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    report_round = rounds
    programs = [line.rstrip("\n").split("\t") for line in open(os.path.join(build, "programs.tsv")) if line.strip()]
    with open(os.path.join(out, "gap.tsv"), "w") as tsv:
        tsv.write("name\tvariant\tround\twall_ms\tbefore_main_ms\tmain_ms\tafter_main_ms\tuser_ms\tsys_ms\t"
                  "minflt\tmajflt\tcalls\tlibrary_ms\tstartup_wait_ms\tpredicted_ms\trc\n")
        for rnd in range(rounds + 1):
            for name, variant, exe in programs:
                if rnd == report_round and variant == "c":
                    continue
                env = dict(os.environ)
                env.pop("RECIPE_REPORT", None)
                full = rnd == report_round and variant != "c"
                if variant != "c":
                    env["RECIPE_REPORT"] = "1" if full else "time"
                t0, t1, rc, usage, err = run_once(exe, env)
                tsv.write("\t".join([name, variant, str(rnd)] + fields(t0, t1, rc, usage, err)) + "\n")
                tsv.flush()
                if full or rc != 0:
                    with open(os.path.join(out, f"phases-{name}-{variant}.txt"), "a") as f:
                        f.write(f"# round {rnd} exit {rc}\n{err}\n")


if __name__ == "__main__":
    main()
