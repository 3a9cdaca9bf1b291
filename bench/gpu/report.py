#!/usr/bin/env python3
"""Turns a GPU benchmark run (bench/gpu/run_gpu_bench.sh run OUTDIR) into the
results page: per experiment the model's prediction beside every measurement,
the raw-CUDA floor and the bound measured in the same run, the sweeps of
thesis §7, and the benchmark's targets, met or not.

    report.py OUTDIR             markdown on stdout (docs/results-<gpu>.md)
    report.py OUTDIR --summary   a short plain-text summary
    report.py OUTDIR --gpu-name  the GPU's short name (h100, h200, ...) for file names

OUTDIR holds what `run` wrote: date.txt, device.txt, profile.json,
bounds.tsv, floor.tsv, link.txt, configs.tsv, measured.tsv. Any of them may
be missing (an older run, a run cut short): the page says which, and what
it cannot show without it.
"""
import csv
import json
import os
import re
import sys

# The experiments in the order of the page: name -> (title, dimensions).
EXPERIMENTS = {
    "moving_average": ("Moving average, 64 Mi floats, radius 4", 1),
    "emboss": ("Emboss, 8000 × 8000 floats", 2),
    "jacobi_sweep": ("Jacobi sweep, 400³ floats", 3),
    "stencil9": ("3×3 stencil, 8192 × 8192 doubles (interior points)", 2),
    "zip3": ("Zip of three inputs, o = a + b·c, 64 Mi floats", 1),
}

# The targets of the benchmark (issue #12): |error| of the chosen plan's
# prediction, the chosen tile against the best tile of the sweep, the chosen
# pinned plan against the raw floor.
PINNED_ERROR = 0.05
PAGEABLE_ERROR = 0.10
TILE_DISTANCE = 0.03
FLOOR_RATIO = 1.05

# What `run` writes into OUTDIR, and what the page lacks without it.
FILES = {
    "date.txt": "no date of the run",
    "device.txt": "no device name or driver",
    "profile.json": "no description of the profile the predictions used",
    "bounds.tsv": "no bound max(kernel, H2D, D2H, both at once)",
    "floor.tsv": "no raw floor, so no ratio chosen/floor",
    "measured.tsv": "no predictions or measurements",
    "link.txt": "no tables of host staging, staging blocks or library setup",
}


def read_tsv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [{k.strip(): (v.strip() if isinstance(v, str) else v) for k, v in r.items() if k} for r in rows]


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def positive(v):
    return v is not None and v > 0


def dims(exp):
    return EXPERIMENTS.get(exp, ("", 3))[1]


def tile(r):
    return "x".join(r[k] for k in ("tx", "ty", "tz")[:dims(r["experiment"])])


def ms(v):
    return "–" if v is None or v < 0 else f"{v:.3f}"


def err(pred, meas):
    if pred is None or meas is None or pred < 0 or meas <= 0:
        return None
    return (pred - meas) / meas


def pct(e):
    return "–" if e is None else f"{100 * e:+.1f}%"


def times(x):
    return "–" if x is None else f"{x:.3f}×"


def config_text(r):
    return f"{r['scheme']} {tile(r)}, {r['copy']}, {r['streams']} streams, {r['host']}"


def gpu_slug(name):
    """'NVIDIA H100 80GB HBM3' -> 'h100': the first word with a digit in it."""
    for word in re.split(r"[\s,]+", name or ""):
        if word.upper() != "NVIDIA" and re.search(r"\d", word):
            return re.sub(r"[^a-z0-9]", "", word.lower()) or "gpu"
    return "gpu"


def read_link(path):
    """link_bench's output: its tables by section (and the duplex figures of older runs)."""
    link = {}
    section = None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# ") and ":" in line and not line.startswith(("# tile", "# direction", "# MiB", "# host")):
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


def read_device(path):
    """device.txt (nvidia-smi --format=csv): the first GPU's fields by column name."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        return {}
    head = [h.strip().split(" [")[0] for h in rows[0]]
    return {h: v.strip() for h, v in zip(head, rows[1])}


class Run:
    """What one OUTDIR holds, with what is missing noted."""

    def __init__(self, out):
        self.out = out
        self.missing = []

        def path(f):
            return os.path.join(out, f)

        def have(f):
            if os.path.exists(path(f)):
                return True
            self.missing.append(f)
            return False

        self.date = open(path("date.txt")).read().strip() if have("date.txt") else None
        self.device = read_device(path("device.txt")) if have("device.txt") else {}
        self.profile = json.load(open(path("profile.json"))) if have("profile.json") else {}
        self.rows = read_tsv(path("measured.tsv")) if have("measured.tsv") else []
        for r in self.rows:
            r["pred"] = num(r.get("predicted_ms"))
            r["meas"] = num(r.get("measured_ms"))
            r["groups_set"] = set(r.get("groups", "").split(","))
        self.bound = {}
        self.both_missing = False
        if have("bounds.tsv"):
            for b in read_tsv(path("bounds.tsv")):
                both = num(b.get("both_ms"))
                self.both_missing = self.both_missing or both is None
                self.bound[(b["experiment"], int(b["repeat"]))] = {
                    "h2d": num(b.get("h2d_ms")), "d2h": num(b.get("d2h_ms")), "kernel": num(b.get("kernel_ms")),
                    "both": both}
        self.floor = {}
        if have("floor.tsv"):
            for f in read_tsv(path("floor.tsv")):
                f["ms_v"] = num(f.get("ms"))
                self.floor.setdefault(f["experiment"], []).append(f)
        self.link = read_link(path("link.txt")) if have("link.txt") else {}
        # Seconds into the run at each step (optional: older runs lack it).
        self.steps = []
        if os.path.exists(path("steps.tsv")):
            for line in open(path("steps.tsv")):
                cells = line.rstrip("\n").split("\t")
                if len(cells) == 2 and num(cells[1]) is not None:
                    self.steps.append((cells[0], num(cells[1])))
        # The configurations planned, to tell those not measured (a run cut
        # short, or ONLY=).
        self.planned = read_tsv(path("configs.tsv")) if os.path.exists(path("configs.tsv")) else []

    def experiments(self):
        seen = {r["experiment"] for r in self.rows} | {k[0] for k in self.bound} | set(self.floor)
        return [e for e in EXPERIMENTS if e in seen] + sorted(seen - set(EXPERIMENTS))

    def device_name(self):
        return self.device.get("name") or self.profile.get("description", "").split(",")[0] or None

    def pick(self, exp, mem, group, repeat=1):
        return [r for r in self.rows if r["experiment"] == exp and r["memory"] == mem and group in r["groups_set"]
                and int(r["repeat"]) == repeat]

    def chosen(self, exp, mem, repeat=1):
        c = [r for r in self.rows if r["experiment"] == exp and r["memory"] == mem and r["chosen"] == "1"
             and int(r["repeat"]) == repeat]
        if not c:
            return None
        # A chosen plan listed in several lines (older runs) is measured
        # several times: the median of those medians.
        r = dict(c[0])
        m = sorted(x["meas"] for x in c if positive(x["meas"]))
        if m:
            r["meas"] = m[len(m) // 2]
        return r

    def bound_of(self, exp, repeat=1):
        b = self.bound.get((exp, repeat))
        if not b:
            return None, None
        parts = [b[k] for k in ("kernel", "h2d", "d2h", "both") if b[k] is not None]
        return (max(parts) if parts else None), b

    def best_floor(self, exp):
        ok = [f for f in self.floor.get(exp, []) if f.get("verified") == "yes" and positive(f["ms_v"])]
        return min(ok, key=lambda f: f["ms_v"]) if ok else None

    def best_tile(self, exp, mem, c):
        """The fastest point of the chosen plan's tile sweep (same scheme, copy,
        host). A scheme without tiles (mapped) has a sweep of one point: then
        the fastest point of every scheme's sweep, the plan's rivals."""
        sweep = [r for r in self.pick(exp, mem, "tiles") if positive(r["meas"])]
        own = [r for r in sweep if r["scheme"] == c["scheme"] and r["copy"] == c["copy"] and r["host"] == c["host"]]
        if len({tile(r) for r in own}) < 2:
            own = sweep
        return min(own, key=lambda r: r["meas"]) if own else None

    def naive(self, exp, mem, repeat=1):
        groups = ("naive-pageable", "naive-pageable-strided") if mem == "pageable" else \
            (("naive", "naive-strided") if repeat == 1 else ("repeat-naive", "repeat-naive-strided"))
        m = [r["meas"] for g in groups for r in self.pick(exp, mem, g, repeat) if positive(r["meas"])]
        return min(m) if m else None


# The targets' columns on the page: key -> heading.
TARGETS = {
    "pinned-error": f"pinned error (≤ {100 * PINNED_ERROR:.0f}%)",
    "pageable-error": f"pageable error (≤ {100 * PAGEABLE_ERROR:.0f}%)",
    "pinned-tile": f"pinned tile (≤ {100 * TILE_DISTANCE:.0f}%)",
    "pageable-tile": f"pageable tile (≤ {100 * TILE_DISTANCE:.0f}%)",
    "floor": f"pinned ÷ raw floor (≤ {FLOOR_RATIO:.2f}×)",
}


class Target:
    def __init__(self, key, name, ok, value, detail=""):
        self.key, self.name, self.ok, self.value, self.detail = key, name, ok, value, detail


def targets_of(run, exp):
    """The experiment's targets; ok is None when the run cannot tell."""
    out = []
    floor = run.best_floor(exp)
    for mem in ("pinned", "pageable"):
        c = run.chosen(exp, mem)
        if not c:
            continue
        e = err(c["pred"], c["meas"])
        limit = PINNED_ERROR if mem == "pinned" else PAGEABLE_ERROR
        label = "pinned" if mem == "pinned" else f"pageable ({c['host']})"
        out.append(Target(f"{mem}-error", f"{label} prediction within {100 * limit:.0f}%",
                          None if e is None else abs(e) <= limit, pct(e),
                          f"{ms(c['pred'])} ms predicted, {ms(c['meas'])} ms measured"))
        name = f"{mem} chosen tile within {100 * TILE_DISTANCE:.0f}% of the best measured"
        best = run.best_tile(exp, mem, c)
        if best and positive(c["meas"]):
            d = c["meas"] / best["meas"] - 1
            if best["scheme"] == c["scheme"] and tile(best) == tile(c):
                where = "the best"
            else:
                where = f"best {tile_of_sweep(best, c)}, {ms(best['meas'])} ms"
            out.append(Target(f"{mem}-tile", name, d <= TILE_DISTANCE, f"{100 * d:+.1f}%",
                              f"chosen {tile(c)}, {ms(c['meas'])} ms; {where}"))
        else:
            out.append(Target(f"{mem}-tile", name, None, "–", "no tile sweep measured"))
        if mem == "pinned":
            name = f"pinned plan within {FLOOR_RATIO:.2f}× the raw floor"
            if floor and positive(c["meas"]):
                ratio = c["meas"] / floor["ms_v"]
                out.append(Target("floor", name, ratio <= FLOOR_RATIO, times(ratio),
                                  f"{ms(c['meas'])} ms against {ms(floor['ms_v'])} ms"))
            else:
                out.append(Target("floor", name, None, "–",
                                  "no raw floor measured" if not floor else "no measurement"))
    return out


def tile_of_sweep(best, c):
    """A sweep's point as the page names it: its tile, and its scheme when it is not the chosen plan's."""
    return tile(best) if best["scheme"] == c["scheme"] else f"{best['scheme']} {tile(best)}"


def met_text(ok):
    return "–" if ok is None else ("yes" if ok else "**no**")


def page(run):
    lines = []
    w = lines.append
    name = run.device_name()
    name = f"{'an' if name.startswith(('NVIDIA', 'A', 'E', 'I', 'O', 'U')) else 'a'} {name}" if name else "an unknown GPU"
    driver = run.device.get("driver_version") or "unknown (device.txt missing)"
    gen, width = run.device.get("pcie.link.gen.max"), run.device.get("pcie.link.width.max")
    link = f", PCIe Gen{gen} x{width}" if gen and width else ""
    w(f"# Results on {name}")
    w("")
    w(f"Measured {run.date or 'on an unknown date (date.txt missing)'} on {name}{link}, driver {driver}.")
    if run.profile:
        threads = run.profile.get("stagingThreads")
        applied = bool(run.rows) and "threads" in run.rows[0]
        if threads and applied:
            note = f" Staged runs pack with its {threads} staging threads (`stagingThreads`), as the generated code asks."
        elif threads:
            note = (f" Its `stagingThreads` ({threads}) was not applied: this run's configurations have no threads column, "
                    "so its staged runs packed with the library's default (up to 8 threads by the core count) while the "
                    "model priced the profile's staging rates.")
        else:
            note = " The profile names no staging thread count: staged runs use the library's default."
        w(f"Profile (`recipe-profile`, measured at the start of the same run): {run.profile.get('description', '?')}." + note)
    w("")
    w("Reproduce: `bench/gpu/run_gpu_bench.sh prepare` (builds the model's side), then on the machine with the GPU "
      "`bench/gpu/run_gpu_bench.sh run OUTDIR` (profile, bounds, raw floor, plans, measurements, "
      "under ten minutes; it writes this page as `OUTDIR/results-<gpu>.md`), then "
      "`bench/gpu/run_gpu_bench.sh report OUTDIR` to write it into `docs/`.")
    w("")
    if len(run.steps) > 1:
        parts = [f"{step} {int(run.steps[i + 1][1] - t)} s" for i, (step, t) in enumerate(run.steps[:-1])]
        w(f"The run took {int(run.steps[-1][1])} s: " + ", ".join(parts) + ".")
        w("")
    if run.missing:
        w("**Missing from the run's directory:** " + "; ".join(f"`{f}` ({FILES[f]})" for f in run.missing) + ".")
        w("")
    if run.both_missing:
        w("**`bounds.tsv` has no `both_ms` column** (an older run): the bound leaves out both directions at once.")
        w("")
    done = {(r["experiment"], r["memory"], r["scheme"], tile(r), r["copy"], r["streams"], r["host"], r["repeat"])
            for r in run.rows}
    not_run = [r for r in run.planned if (r["experiment"], r["memory"], r["scheme"], tile(r), r["copy"], r["streams"],
                                          r["host"], r["repeat"]) not in done]
    if run.rows and not_run:
        exps = ", ".join(dict.fromkeys(r["experiment"] for r in not_run))
        w(f"**Not everything planned was measured** (a run cut short, or `ONLY=`): {len(not_run)} of "
          f"{len(run.planned)} configurations are missing ({exps}).")
        w("")
    w("Every time is the median of three runs (seven for the chosen plans) of the whole `recipe::run` call "
      "(host clock: allocation, registration, copies, kernels, frees), after one warm-up run (five more before "
      "each experiment's first configuration), back to back as a program repeats a call. The output is poisoned before "
      "the warm-up and before one more run, whose output is compared byte for byte with the sequential C loop. "
      "Predictions come from the advisor (`advisor/`) with the profile measured at the start of the same run; "
      "the kernels the profile has no table for (the 3×3 stencil and the zip) are priced with their kernel time "
      "measured in the same run (the bounds), as `recipe advise --kernel-ms` prices a nest. The plan marked "
      "*chosen* is the advisor's best for the problem, as `recipe` would emit it.")
    w("")
    w("The **bound** is max(kernel, H2D, D2H, both): every input copied in and the output copied out as whole "
      "arrays (pinned), both directions at once, and one kernel over the whole space, each timed alone with "
      "events. The **raw floor** is what the hardware allows a pipeline: the same tiles (slabs along the outermost "
      "dimension, inputs with their halo, as the library's tile geometry gives them) through a plain CUDA "
      "pipeline with no library (`bench/gpu/raw_floor.cuh`): device buffers allocated and copies worked out "
      "before the clock starts, tile k's copies in, kernel and copy out on stream k mod S, host clock; the best "
      "of a search over 4–128 tiles × 2, 3, 4 streams, median of five runs each. Its fill and drain and the "
      "link's duplex behaviour are in it; the library's allocation and setup are not. A chosen tile is set "
      "against the fastest tile of its scheme's sweep (a plan of a scheme without tiles, mapped, against the "
      "fastest point of every scheme's sweep).")
    w("")
    bad = [r for r in run.rows if r.get("verified") != "yes"]
    bad_floor = [f for fl in run.floor.values() for f in fl if f.get("verified") != "yes"]
    if run.rows:
        w(f"Output check: {len(run.rows) - len(bad)} of {len(run.rows)} configurations matched the C reference "
          "exactly" + ("." if not bad else "; mismatches or errors: " +
                       ", ".join(r["experiment"] + " " + r["memory"] + " " + config_text(r) for r in bad) + "."))
    if run.floor:
        n = sum(len(v) for v in run.floor.values())
        w(f"Raw floor: {n - len(bad_floor)} of {n} pipelines matched the C reference exactly" +
          ("." if not bad_floor else "; mismatches: " + ", ".join(
              f"{f['experiment']} {f['tiles']} tiles {f['streams']} streams" for f in bad_floor) + "."))
    w("")

    exps = run.experiments()
    all_targets = {exp: targets_of(run, exp) for exp in exps}
    w("## Targets")
    w("")
    w("| experiment | " + " | ".join(TARGETS.values()) + " |")
    w("|---|" + "---|" * len(TARGETS))
    met = total = 0
    for exp in exps:
        by_key = {t.key: t for t in all_targets[exp]}
        cells = []
        for key in TARGETS:
            t = by_key.get(key)
            if t is None or t.ok is None:
                cells.append("–" if t is None else f"– ({t.detail})")
                continue
            total += 1
            met += t.ok
            cells.append(f"{met_text(t.ok)}: {t.value}")
        w(f"| {exp} | " + " | ".join(cells) + " |")
    w("")
    w(f"{met} of {total} targets met.")
    w("")

    for exp in exps:
        page_experiment(run, exp, all_targets[exp], w)

    page_link(run, w)
    findings = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"findings-{gpu_slug(run.device_name())}.md")
    if os.path.exists(findings):
        w(open(findings).read().rstrip())
        w("")
    return "\n".join(lines)


def page_experiment(run, exp, targets, w):
    w(f"## {EXPERIMENTS.get(exp, (exp,))[0]}")
    w("")
    if targets:
        w("| target | met | value |")
        w("|---|---|---|")
        for t in targets:
            w(f"| {t.name} | {met_text(t.ok)} | {t.value} ({t.detail}) |")
        w("")
    b, parts = run.bound_of(exp)
    floor = run.best_floor(exp)
    if parts:
        both = f", both at once {ms(parts['both'])} ms" if parts["both"] is not None else ""
        w(f"Whole arrays: H2D {ms(parts['h2d'])} ms, D2H {ms(parts['d2h'])} ms{both}; kernel {ms(parts['kernel'])} ms: "
          f"bound {ms(b)} ms.")
    if floor:
        vs = floor["ms_v"] / b if positive(b) else None
        w(f"Raw floor {ms(floor['ms_v'])} ms ({floor['tiles']} tiles of {floor['tile']}, {floor['streams']} streams)"
          + (f", {times(vs)} the bound." if vs else "."))
    elif exp in run.floor:
        w("Raw floor: no pipeline of the search matched the reference.")
    w("")
    rows = []
    for mem in ("pinned", "pageable"):
        c = run.chosen(exp, mem)
        if not c:
            continue
        e = err(c["pred"], c["meas"])
        best = run.best_tile(exp, mem, c)
        dist = c["meas"] / best["meas"] - 1 if best and positive(c["meas"]) else None
        naive = run.naive(exp, mem)
        fl = floor["ms_v"] if floor else None
        rows.append(f"| {mem} | {config_text(c)} | {ms(c['pred'])} | {ms(c['meas'])} | {pct(e)} | {ms(fl)} | "
                    f"{times(c['meas'] / fl if fl and positive(c['meas']) else None)} | "
                    f"{times(c['meas'] / b if positive(b) and positive(c['meas']) else None)} | "
                    f"{(tile_of_sweep(best, c) + ' ' + ms(best['meas'])) if best else '–'} | "
                    f"{'–' if dist is None else f'{100 * dist:+.1f}%'} | {ms(naive)} | "
                    f"{times(naive / c['meas'] if naive and positive(c['meas']) else None)} |")
    if rows:
        w("| host memory | plan | predicted ms | measured ms | error | raw floor ms | ÷ floor | ÷ bound | "
          "best tile measured (ms) | chosen tile vs best | naive ms | speed-up |")
        w("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
        for r in rows:
            w(r)
        w("")
    page_floor(run, exp, w)
    page_sweeps(run, exp, w)
    page_repeats(run, exp, w)


def page_floor(run, exp, w):
    points = run.floor.get(exp, [])
    if not points:
        return
    best = run.best_floor(exp)
    streams = sorted({int(f["streams"]) for f in points})
    w("Raw floor search (median ms of five runs; * = best; ✗ = output wrong):")
    w("")
    w("| tiles | tile | " + " | ".join(f"{s} streams" for s in streams) + " |")
    w("|---:|---:|" + "---:|" * len(streams))
    by_tile = {}
    for f in points:
        by_tile.setdefault((int(f["tiles"]), f["tile"]), {})[int(f["streams"])] = f
    for (tiles, t), row in sorted(by_tile.items()):
        cells = []
        for s in streams:
            f = row.get(s)
            if not f:
                cells.append("")
                continue
            mark = "*" if f is best else ("✗" if f.get("verified") != "yes" else "")
            cells.append(f"{ms(f['ms_v'])}{mark}")
        w(f"| {tiles} | {t} | " + " | ".join(cells) + " |")
    w("")


def page_sweeps(run, exp, w):
    for mem in ("pinned", "pageable"):
        c = run.chosen(exp, mem)
        sweep = run.pick(exp, mem, "tiles")
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
        for t in sorted(by_tile, key=lambda t: [int(x) for x in t.split("x")][::-1]):
            cells = []
            for s in schemes:
                r = by_tile[t].get(s)
                cells.append("" if not r else f"{ms(r['pred'])} / {ms(r['meas'])}{'*' if r['chosen'] == '1' else ''}")
            w(f"| {t} | " + " | ".join(cells) + " |")
        w("")
    for mem in ("pinned", "pageable"):
        seen, uniq = set(), []
        for g in ("schemes", "naive-strided", "host", "naive-pageable", "naive-pageable-strided"):
            for r in run.pick(exp, mem, g):
                if config_text(r) not in seen:
                    seen.add(config_text(r))
                    uniq.append(r)
        if not uniq:
            continue
        w(f"Schemes and host strategies at the chosen tile, {mem} host arrays:")
        w("")
        w("| plan | predicted ms | measured ms | error | measured phases alloc/h2d/kernel/d2h/staging ms |")
        w("|---|---:|---:|---:|---|")
        for r in sorted(uniq, key=lambda r: (r["meas"] if positive(r["meas"]) else 1e9)):
            ph = "/".join(ms(num(r.get(k))) for k in ("m_alloc", "m_h2d", "m_kernel", "m_d2h", "m_staging"))
            w(f"| {config_text(r)}{' (chosen)' if r['chosen'] == '1' else ''} | {ms(r['pred'])} | "
              f"{ms(r['meas'])} | {pct(err(r['pred'], r['meas']))} | {ph} |")
        w("")


def page_repeats(run, exp, w):
    reps = sorted({int(r["repeat"]) for r in run.rows if r["experiment"] == exp and int(r["repeat"]) > 1})
    if not reps:
        return
    w("Kernel-repeat sweep (thesis §7.1.2), pinned host arrays:")
    w("")
    w("| repeats | kernel ms | bound ms | naive ms | chosen plan | predicted ms | measured ms | error | "
      "÷ bound | speed-up |")
    w("|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for rep in [1] + reps:
        c = run.chosen(exp, "pinned", rep)
        if not c:
            continue
        bb, parts = run.bound_of(exp, rep)
        naive = run.naive(exp, "pinned", rep)
        speed = times(naive / c["meas"]) if naive and positive(c["meas"]) else "–"
        vsb = times(c["meas"] / bb) if positive(bb) and positive(c["meas"]) else "–"
        w(f"| {rep} | {ms(parts['kernel'] if parts else None)} | {ms(bb)} | {ms(naive)} | {config_text(c)} | "
          f"{ms(c['pred'])} | {ms(c['meas'])} | {pct(err(c['pred'], c['meas']))} | {vsb} | {speed} |")
    w("")


def page_link(run, w):
    link = run.link
    if not link:
        return
    w("## The link and the library's own costs (`bench/gpu/link_bench.cu`)")
    w("")
    if link.get("both"):
        w(f"256 MiB pinned: H2D alone {ms(link.get('h2d_alone'))} ms, D2H alone {ms(link.get('d2h_alone'))} ms, "
          f"both at once {ms(link.get('both'))} ms.")
        w("")
    for title, key, head in (
            ("The scalable pipeline of moving average with raw CUDA calls (an older run's floor; host clock, ms).",
             "floor", "| tile | streams | ms |"),
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


def summary(run):
    out = []
    for f in run.missing:
        out.append(f"MISSING {f}: {FILES[f]}")
    met = total = 0
    for exp in run.experiments():
        for t in targets_of(run, exp):
            total += t.ok is not None
            met += bool(t.ok)
            state = "UNKNOWN" if t.ok is None else ("MET    " if t.ok else "NOT MET")
            out.append(f"{state} {exp}: {t.name}: {t.value} ({t.detail})")
        for mem in ("pinned", "pageable"):
            c = run.chosen(exp, mem)
            if c:
                out.append(f"{exp} {mem}: {config_text(c)}: predicted {ms(c['pred'])} measured {ms(c['meas'])}")
        f = run.best_floor(exp)
        if f:
            out.append(f"{exp} raw floor: {ms(f['ms_v'])} ms ({f['tiles']} tiles, {f['streams']} streams)")
    bad = [r for r in run.rows if r.get("verified") != "yes"]
    out.append(f"verified {len(run.rows) - len(bad)}/{len(run.rows)}; targets met {met}/{total}")
    return "\n".join(out)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    run = Run(args[0])
    if "--gpu-name" in sys.argv:
        print(gpu_slug(run.device_name()))
        return 0
    for f in run.missing:
        print(f"report.py: {os.path.join(args[0], f)} is missing: {FILES[f]}", file=sys.stderr)
    print(summary(run) if "--summary" in sys.argv else page(run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
