#!/usr/bin/env python3
"""Turns a GPU benchmark run (bench/gpu/run_gpu_bench.sh run OUTDIR) into the
results document: the model's prediction beside every measurement, the
sweeps of thesis §7, and the targets of the benchmark, met or not.

    report.py OUTDIR            markdown on stdout (docs/results-h200.md)
    report.py OUTDIR --summary  a short plain-text summary
"""
import csv
import json
import os
import sys


def read_tsv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [{k.strip(): (v.strip() if isinstance(v, str) else v) for k, v in r.items() if k} for r in rows]


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def tile(r):
    dims = {"moving_average": 1, "emboss": 2, "jacobi_sweep": 3, "stencil9": 2, "zip3": 1}[r["experiment"]]
    return "x".join(r[k] for k in ("tx", "ty", "tz")[:dims])


def ms(v):
    return "–" if v is None or v < 0 else f"{v:.3f}"


def err(pred, meas):
    if pred is None or meas is None or pred < 0 or meas <= 0:
        return None
    return (pred - meas) / meas


def pct(e):
    return "–" if e is None else f"{100 * e:+.1f}%"


NAMES = {"moving_average": "Moving average, 64 Mi floats, radius 4",
         "emboss": "Emboss, 8000 × 8000 floats",
         "jacobi_sweep": "Jacobi sweep, 400³ floats",
         "stencil9": "3×3 stencil, 8192 × 8192 doubles (interior points)",
         "zip3": "Zip of three inputs, o = a + b·c, 64 Mi floats"}


def config_text(r):
    return f"{r['scheme']} {tile(r)}, {r['copy']}, {r['streams']} streams, {r['host']}"


def read_link(path):
    """link_bench's output: the duplex figures and its tables by section."""
    link = {}
    if not os.path.exists(path):
        return link
    section = None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# ") and ":" in line and not line.startswith("# tile") and \
                not line.startswith("# direction") and not line.startswith("# MiB") and not line.startswith("# host"):
            section = line[2:].split(":")[0]
            continue
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        if section == "duplex" and len(cells) == 2:
            link[cells[0]] = num(cells[1])
        elif section:
            link.setdefault(section, []).append(cells)
    return link


def main():
    out = sys.argv[1]
    summary = "--summary" in sys.argv
    rows = read_tsv(os.path.join(out, "measured.tsv"))
    bounds = read_tsv(os.path.join(out, "bounds.tsv"))
    profile = json.load(open(os.path.join(out, "profile.json")))
    device = open(os.path.join(out, "device.txt")).read().strip().splitlines()
    for r in rows:
        r["pred"] = num(r["predicted_ms"])
        r["meas"] = num(r["measured_ms"])
        r["groups_set"] = set(r["groups"].split(","))
    bound = {}
    for b in bounds:
        k = num(b["kernel_ms"])
        bound[(b["experiment"], int(b["repeat"]))] = (num(b["h2d_ms"]), num(b["d2h_ms"]), k)

    def pick(exp, mem, group, repeat=1):
        return [r for r in rows if r["experiment"] == exp and r["memory"] == mem and group in r["groups_set"]
                and int(r["repeat"]) == repeat]

    def chosen(exp, mem, repeat=1):
        c = [r for r in rows if r["experiment"] == exp and r["memory"] == mem and r["chosen"] == "1"
             and int(r["repeat"]) == repeat]
        if not c:
            return None
        # The chosen plan is in several groups, so it is measured several
        # times: report the median of those medians.
        r = dict(c[0])
        m = sorted(x["meas"] for x in c if x["meas"] and x["meas"] > 0)
        if m:
            r["meas"] = m[len(m) // 2]
        return r

    link = read_link(os.path.join(out, "link.txt"))

    targets = []
    lines = []
    w = lines.append
    src = profile.get("source", {}).get("copyEngines", "")
    date = src.split(", ")[-1].split(";")[0] if src else "?"
    w("# Results on an NVIDIA H200")
    w("")
    w(f"Measured {date} on {profile['description']}; `nvidia-smi`: {device[-1] if device else '?'}.")
    w("Reproduce: `bench/gpu/run_gpu_bench.sh prepare` (here), then on a machine with the GPU "
      "`bench/gpu/run_gpu_bench.sh run OUTDIR`, then `bench/gpu/run_gpu_bench.sh report OUTDIR`.")
    w("")
    w("Every time is the median of three runs (seven for the chosen plans) of the whole `recipe::run` call "
      "(host clock: allocation, registration, copies, kernels, frees), after one warm-up run (five more before "
      "each experiment's first configuration); a chosen plan measured in several groups is reported as the "
      "median of those medians. Outputs are compared element for element "
      "with the sequential C loop (all exact). Predictions come from the advisor (`advisor/`) with the profile "
      "`recipe-profile` measured at the start of the same run (stored as `advisor/platforms/h200.json`). "
      "The plan marked *chosen* is the advisor's best for the problem, as `recipe` would emit it. "
      "The bound is max(H2D, D2H, kernel): one whole-array copy each way (pinned) and one kernel over the "
      "whole space, each timed alone with events.")
    w("")
    bad = [r for r in rows if r.get("verified") != "yes"]
    w(f"Output check: {len(rows) - len(bad)} of {len(rows)} configurations matched the C reference exactly" +
      ("." if not bad else f"; mismatches or errors: {', '.join(r['experiment'] + ' ' + config_text(r) for r in bad)}."))
    w("")

    for exp in NAMES:
        if not any(r["experiment"] == exp for r in rows):
            continue
        h2d, d2h, k = bound.get((exp, 1), (None, None, None))
        b = max(x for x in (h2d, d2h, k) if x is not None) if h2d is not None else None
        w(f"## {NAMES[exp]}")
        w("")
        w(f"Whole-array H2D {ms(h2d)} ms, D2H {ms(d2h)} ms, kernel {ms(k)} ms: bound {ms(b)} ms.")
        if link.get("both"):
            w(f"Both copies at once (256 MiB each way, `bench/gpu/link_bench.cu`): {ms(link['both'])} ms, "
              f"{link['both'] / max(link['h2d_alone'], link['d2h_alone']):.2f}× one alone: no pipeline that "
              "copies both ways at once can run below it.")
        w("")
        w("| host memory | plan | predicted ms | measured ms | error | vs bound | naive ms | speed-up |")
        w("|---|---|---:|---:|---:|---:|---:|---:|")
        for mem in ("pinned", "pageable"):
            c = chosen(exp, mem)
            if not c:
                continue
            naive_rows = pick(exp, mem, "naive-pageable" if mem == "pageable" else "naive") + \
                pick(exp, mem, "naive-pageable-strided" if mem == "pageable" else "naive-strided")
            naive_rows = [r for r in naive_rows if r["meas"] and r["meas"] > 0]
            naive = min((r["meas"] for r in naive_rows), default=None)
            e = err(c["pred"], c["meas"])
            vs = c["meas"] / b if b and c["meas"] else None
            sp = naive / c["meas"] if naive and c["meas"] else None
            w(f"| {mem} | {config_text(c)} | {ms(c['pred'])} | {ms(c['meas'])} | {pct(e)} | "
              f"{'–' if vs is None else f'{vs:.2f}×'} | {ms(naive)} | {'–' if sp is None else f'{sp:.2f}×'} |")
            targets.append((f"{exp} ({mem}): prediction within 5% of measured", e is not None and abs(e) <= 0.05,
                            pct(e)))
            if mem == "pinned" and exp in ("moving_average", "jacobi_sweep"):
                targets.append((f"{exp} (pinned): chosen plan within 10% of max(H2D, D2H, kernel)",
                                vs is not None and vs <= 1.10, "–" if vs is None else f"{vs:.3f}× bound"))
            if mem == "pageable":
                targets.append((f"{exp} (pageable): chosen plan ≥ 2× faster than naive on the malloc'd arrays",
                                sp is not None and sp >= 2.0, "–" if sp is None else f"{sp:.2f}×"))
            # tile sweep of the chosen scheme
            sweep = [r for r in pick(exp, mem, "tiles") if r["scheme"] == c["scheme"] and r["copy"] == c["copy"]
                     and r["host"] == c["host"] and r["meas"] and r["meas"] > 0]
            if sweep:
                best = min(sweep, key=lambda r: r["meas"])
                ratio = c["meas"] / best["meas"] if c["meas"] else None
                targets.append((f"{exp} ({mem}): chosen tile within 3% of the best measured tile",
                                ratio is not None and ratio <= 1.03,
                                f"chosen {tile(c)} {ms(c['meas'])} ms, best {tile(best)} {ms(best['meas'])} ms"))
        w("")
        for mem in ("pinned", "pageable"):
            c = chosen(exp, mem)
            sweep = pick(exp, mem, "tiles")
            if not sweep:
                continue
            schemes = sorted({r["scheme"] for r in sweep}, key=lambda s: (s != (c or {}).get("scheme"), s))
            w(f"Tile-size sweep, {mem} host arrays (predicted / measured ms; * = chosen):")
            w("")
            w("| tile | " + " | ".join(schemes) + " |")
            w("|---|" + "---:|" * len(schemes))
            by_tile = {}
            for r in sweep:
                by_tile.setdefault(tile(r), {})[r["scheme"]] = r
            order = sorted(by_tile, key=lambda t: [int(x) for x in t.split("x")][::-1])
            for t in order:
                cells = []
                for s in schemes:
                    r = by_tile[t].get(s)
                    if not r:
                        cells.append("")
                        continue
                    mark = "*" if r["chosen"] == "1" else ""
                    cells.append(f"{ms(r['pred'])} / {ms(r['meas'])}{mark}")
                w(f"| {t} | " + " | ".join(cells) + " |")
            w("")
        for mem in ("pinned", "pageable"):
            sch = pick(exp, mem, "schemes") + pick(exp, mem, "naive-strided") + pick(exp, mem, "host") + \
                pick(exp, mem, "naive-pageable") + pick(exp, mem, "naive-pageable-strided")
            seen, uniq = set(), []
            for r in sch:
                key = config_text(r)
                if key not in seen:
                    seen.add(key)
                    uniq.append(r)
            if not uniq:
                continue
            w(f"Schemes and host strategies at the chosen tile, {mem} host arrays:")
            w("")
            w("| plan | predicted ms | measured ms | error | measured phases alloc/h2d/kernel/d2h/staging ms |")
            w("|---|---:|---:|---:|---|")
            for r in sorted(uniq, key=lambda r: (r["meas"] if r["meas"] and r["meas"] > 0 else 1e9)):
                ph = "/".join(ms(num(r[k])) for k in ("m_alloc", "m_h2d", "m_kernel", "m_d2h", "m_staging"))
                w(f"| {config_text(r)}{' (chosen)' if r['chosen'] == '1' else ''} | {ms(r['pred'])} | "
                  f"{ms(r['meas'])} | {pct(err(r['pred'], r['meas']))} | {ph} |")
            w("")
        reps = sorted({int(r["repeat"]) for r in rows if r["experiment"] == exp and int(r["repeat"]) > 1})
        if reps:
            w("Kernel-repeat sweep (thesis §7.1.2), pinned host arrays:")
            w("")
            w("| repeats | kernel ms | bound ms | naive ms | chosen plan | predicted ms | measured ms | error | "
              "vs bound | speed-up |")
            w("|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
            for rep in [1] + reps:
                c = chosen(exp, "pinned", rep)
                if not c:
                    continue
                h2d, d2h, k = bound.get((exp, rep), (None, None, None))
                bb = max(h2d, d2h, k) if k is not None else None
                nv = [r["meas"] for r in pick(exp, "pinned", "repeat-naive" if rep > 1 else "naive", rep) +
                      pick(exp, "pinned", "repeat-naive-strided" if rep > 1 else "naive-strided", rep)
                      if r["meas"] and r["meas"] > 0]
                naive = min(nv) if nv else None
                e = err(c["pred"], c["meas"])
                speed = "–" if not naive or not c["meas"] else f"{naive / c['meas']:.2f}×"
                vsb = "–" if not bb or not c["meas"] else f"{c['meas'] / bb:.2f}×"
                w(f"| {rep} | {ms(k)} | {ms(bb)} | {ms(naive)} | {config_text(c)} | {ms(c['pred'])} | "
                  f"{ms(c['meas'])} | {pct(e)} | {vsb} | {speed} |")
            w("")

    if link:
        w("## The link and the library's own costs (`bench/gpu/link_bench.cu`)")
        w("")
        w(f"256 MiB pinned: H2D alone {ms(link.get('h2d_alone'))} ms, D2H alone {ms(link.get('d2h_alone'))} ms, "
          f"both at once {ms(link.get('both'))} ms.")
        w("")
        for title, key, head in (
                ("The scalable pipeline of moving average written with raw CUDA calls on buffers allocated "
                 "beforehand (host clock, ms): the fastest this issue order runs on the link, with no library "
                 "around it.", "floor", "| tile | streams | ms |"),
                ("Host staging copies of 256 MiB in 4 MiB tiles into (or out of) a 256 MiB pinned region "
                 "(GB/s; dma 1 = both copy directions busy meanwhile).", "pack",
                 "| direction | threads | stores | dma | GB/s |"),
                ("Getting and releasing a pinned staging block (host ms, fresh memory each time).", "block",
                 "| MiB | way | ms |"),
                ("The library's alloc phase (setup + teardown) of a small run (ms).", "setup",
                 "| host | streams | alloc ms | total ms |")):
            if not link.get(key):
                continue
            w(title)
            w("")
            w(head)
            w("|" + "---|" * (head.count("|") - 1))
            for row in link[key]:
                w("| " + " | ".join(row) + " |")
            w("")

    w("## Targets")
    w("")
    w("| target | met | value |")
    w("|---|---|---|")
    for name, ok, value in targets:
        w(f"| {name} | {'yes' if ok else '**no**'} | {value} |")
    w("")
    findings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "findings-h200.md")
    if os.path.exists(findings) and not summary:
        w(open(findings).read().rstrip())
        w("")
    if summary:
        for name, ok, value in targets:
            print(f"{'MET    ' if ok else 'NOT MET'} {name}: {value}")
        for exp in NAMES:
            for mem in ("pinned", "pageable"):
                c = chosen(exp, mem)
                if c:
                    print(f"{exp} {mem}: {config_text(c)}: predicted {ms(c['pred'])} measured {ms(c['meas'])}")
        print(f"verified {len(rows) - len(bad)}/{len(rows)}")
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
