#!/usr/bin/env python3
"""Writes one reading of a host's CPU figures into a stored platform profile
(advisor/platforms/*.json): hostStreamGBs, hostStream, hostGflops,
hostGflopsVector2, hostGflopsVector4, hostFirstTouchGBs, hostMathCallNs,
hostConvertNs, hostChainedSum and hostLaneLoadNs (where the reading has them), and their
sources, all from one measurement.

FROM is either a profile recipe-profile wrote (its host figures), or a host
record of `recipe advise --measure-host` (bench/device/host_figures.sh): its
reading with the fastest arithmetic (hostGflops), whole. One reading, so the
figures are of one moment of the host: the scalar and vectorised rates keep
their ratio, a slow spell's reading is not mixed with a fast one's.

usage: bench/host/profile_host_figures.py PROFILE FROM "WHERE AND WHEN"
  e.g. ... advisor/platforms/h100.json OUT/cache/host-*.json \\
       "measured by recipe advise --measure-host on an NVIDIA H100 80GB HBM3 host, 2026-11-27"
The profile's other lines are left as they are."""
import json
import re
import sys

WHAT = {
    "hostStreamGBs": "one thread, a[i] = b[i] + s * c[i] over 3 x 256 MiB of doubles, bytes read + written",
    "hostStream": "one pass of the same loop over 3 MiB .. 768 MiB (the three arrays' bytes), repeated",
    "hostGflops": "one thread, a 2-D five-point stencil (4 adds, 1 multiply per point) on 180 x 180 doubles through "
                  "pointers that may overlap, its sizes compile-time constants, compiled like gcc -O2 (not vectorised), "
                  "the best of ~5 ms windows spread over the measurement",
    "hostGflopsVector2": "the same stencil through restrict pointers, compiled like gcc -O2 (vectorised two doubles wide), "
                         "in the same windows",
    "hostGflopsVector4": "the same stencil on 182 x 182 floats through restrict pointers, compiled like gcc -O2 "
                         "(vectorised four floats wide), in the same windows",
    "hostFirstTouchGBs": "one thread writing a[i] = i into 256 MiB freshly malloc'd (pages faulted in as written), best of 3",
    "hostMathCallNs": "one thread, sinf, cosf, expf, logf, sin and exp in turn over 4096 floats, compiled like gcc -O2 "
                      "(libm calls), the best of windows taken with the stencil's, per call",
    "hostConvertNs": "one thread, f[i] = (float)(i + k) + (float)(i ^ k) over 4096 floats with a 64-bit i, compiled like "
                     "gcc -O2 (scalar conversions), the best of windows taken with the stencil's, per conversion",
    "hostChainedSum": "one thread, s += x[i] over the stream's working sets of doubles (the three arrays in turn), "
                      "compiled like gcc -O2 (one chain of dependent adds), per pass",
    "hostLaneLoadNs": "one thread, the stencil on 182 x 182 floats with its contiguous neighbours clamped, compiled like "
                      "gcc -O2 (vectorised, those reads loaded lane by lane), its time a point beyond the unclamped "
                      "stencil's, over its two clamped reads, from the best of windows",
}


def figures(source):
    d = json.load(open(source))
    if "readings" in d:  # a host record: its reading with the fastest arithmetic
        r = max(d["readings"], key=lambda r: r["gflops"])
        return {"hostStreamGBs": round(r["stream_gbs"], 2),
                "hostStream": {"bytes": [int(b) for b in r["stream_bytes"]], "ns": [int(round(n)) for n in r["stream_ns"]]},
                "hostGflops": round(r["gflops"], 3), "hostGflopsVector2": round(r["gflops_vector2"], 3),
                "hostGflopsVector4": round(r["gflops_vector4"], 3), "hostFirstTouchGBs": round(r["first_touch_gbs"], 2),
                "hostMathCallNs": round(r["math_call_ns"], 2), "hostConvertNs": round(r["convert_ns"], 3),
                **({"hostChainedSum": {"bytes": [int(b) for b in r["stream_bytes"]],
                                       "ns": [int(round(n)) for n in r["chain_ns"]]}}
                   if len(r.get("chain_ns", [])) == len(r["stream_bytes"]) > 0 else {}),
                **({"hostLaneLoadNs": round(r["lane_load_ns"], 3)} if r.get("lane_load_ns", 0) > 0 else {})}, \
            f"the reading with the fastest arithmetic of {len(d['readings'])}"
    # Figures a profile of an earlier version does not have are left out.
    return {k: d[k] for k in WHAT if k in d}, "its host measurement"


def main():
    profile, source, where = sys.argv[1], sys.argv[2], sys.argv[3]
    values, which = figures(source)
    lines = open(profile).read().split("\n")
    for key, value in values.items():
        text = f'  "{key}": {json.dumps(value, separators=(", ", ": "))},'
        src = f'    "{key}": {json.dumps(where + " (" + which + "); " + WHAT[key])},'
        for new, pattern, after in ((text, rf'^  "{key}": ', r'^  "hostGflops(Vector\d)?": |^  "hostStream": '),
                                    (src, rf'^    "{key}": ', r'^    "hostGflops(Vector\d)?": |^    "hostStream": ')):
            at = [i for i, l in enumerate(lines) if re.match(pattern, l)]
            if at:
                lines[at[0]] = new
            else:  # a key the profile did not have: after the figure it extends
                anchor = [i for i, l in enumerate(lines) if re.match(after, l)]
                lines.insert(anchor[-1] + 1, new)
    text = "\n".join(lines)
    json.loads(text)  # still a profile
    open(profile, "w").write(text)


if __name__ == "__main__":
    main()
