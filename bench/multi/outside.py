#!/usr/bin/env python3
"""Where a whole program's time goes outside its converted calls, on 1 and
on N GPUs: each program is run as a fresh process, the variants in
alternation, and every line it prints is stamped as it arrives (stdout
line-buffered with stdbuf), so that one run splits into

  to_call_end  from exec to the end of its last converted call (the last
               `recipe: time` line; the C program: none),
  to_print     from exec to its checksum line (after the loops, before the
               output file is written),
  after_print  from that line until the process is reaped: the output file
               written, the arrays freed, and the exit (CUDA's teardown of
               every context, NCCL's communicators),

with the process's user and system CPU seconds and minor page faults
(wait4). The medians per variant are printed and written to OUT/outside.tsv.

usage: bench/multi/outside.py OUTDIR NAME:BINARY... (each BINARY run with
       one argument, OUTDIR/NAME.bin, RECIPE_REPORT=time; RUNS, default 5)
"""
import os
import statistics
import subprocess
import sys
import threading
import time


def run_once(binary, out_file):
    env = dict(os.environ, RECIPE_REPORT="time")
    t0 = time.monotonic()
    p = subprocess.Popen(["stdbuf", "-oL", binary, out_file], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, text=True)
    lines = []

    def read(stream, tag):
        for line in stream:
            lines.append((time.monotonic() - t0, tag, line.rstrip("\n")))

    readers = [threading.Thread(target=read, args=(p.stdout, "out")),
               threading.Thread(target=read, args=(p.stderr, "err"))]
    for r in readers:
        r.start()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    for r in readers:
        r.join()
    calls = [t for t, tag, line in lines if tag == "err" and line.startswith("recipe: time ")]
    prints = [t for t, tag, _ in lines if tag == "out"]
    if p.returncode != 0 or not prints:
        sys.exit(f"{binary}: exit {p.returncode}, {len(prints)} stdout lines")
    return {
        "wall": wall,
        "to_call_end": max(calls) if calls else float("nan"),
        "to_print": prints[0],
        "after_print": wall - prints[0],
        "user": usage.ru_utime,
        "sys": usage.ru_stime,
        "minflt": usage.ru_minflt,
    }


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    variants = [a.split(":", 1) for a in sys.argv[2:]]
    runs = int(os.environ.get("RUNS", "5"))
    keys = ["wall", "to_call_end", "to_print", "after_print", "user", "sys", "minflt"]
    results = {name: [] for name, _ in variants}
    with open(os.path.join(out, "outside-runs.tsv"), "w") as log:
        log.write("variant\trun\t" + "\t".join(keys) + "\n")
        for r in range(1, runs + 1):
            for name, binary in variants:
                out_file = os.path.join(out, name + ".bin")
                one = run_once(binary, out_file)
                os.remove(out_file)
                results[name].append(one)
                log.write(f"{name}\t{r}\t" + "\t".join(f"{one[k]:.4f}" for k in keys) + "\n")
                log.flush()
    with open(os.path.join(out, "outside.tsv"), "w") as f:
        header = "variant\truns\t" + "\t".join(keys)
        f.write(header + "\n")
        print(header)
        for name, _ in variants:
            row = f"{name}\t{len(results[name])}\t" + "\t".join(
                f"{statistics.median(one[k] for one in results[name]):.4f}" for k in keys)
            f.write(row + "\n")
            print(row)


if __name__ == "__main__":
    main()
