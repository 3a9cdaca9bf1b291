#!/usr/bin/env python3
"""Copies named measurements, with their source lines, from a profile
recipe-profile wrote on a GPU machine into a stored platform profile
(advisor/platforms/*.json), so that a figure the stored profile lacks, or
one measured a new way, comes from one run of the profiler. Each copied
field's source line is the profiler's (it names the GPU and the date), with
NOTE after its first clause when NOTE is not empty. --drop removes fields the
copied ones supersede, and their source lines: the first copied field takes
the place of the first dropped one. The stored profile's other lines are
left as they are (one line per field, as the stored profiles are written).

usage: bench/device/profile_fields.py PROFILE FROM NOTE FIELD... [--drop FIELD...]
  e.g. ... advisor/platforms/h200.json OUT/gpu/profile.json \\
       "the profile of docs/results-e2e-h200.md's run" firstCall --drop firstRun"""
import json
import re
import sys


def one_line(key, value, indent):
    return f'{" " * indent}"{key}": {json.dumps(value, separators=(", ", ": "))},'


def put(lines, key, text, indent, replaces):
    """Puts TEXT as KEY's line at INDENT: where KEY was, else where the first
    of REPLACES was, else before the closing line of the block."""
    for k in [key] + replaces:
        at = [i for i, l in enumerate(lines) if l.startswith(f'{" " * indent}"{k}": ')]
        if at:
            lines[at[0]] = text
            return
    if indent == 2:  # before "source": the profile's fields come first
        at = [i for i, l in enumerate(lines) if l.startswith('  "source": ')]
    else:  # the last line of the source block
        start = [i for i, l in enumerate(lines) if l.startswith('  "source": ')][0]
        at = [i for i in range(start, len(lines)) if lines[i].startswith("  }")]
    # The line before now has one after it in the same block: it takes a comma.
    if not lines[at[0] - 1].rstrip().endswith((",", "{")):
        lines[at[0] - 1] = lines[at[0] - 1].rstrip() + ","
    lines.insert(at[0], text)


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    profile, source, note = argv[1], argv[2], argv[3]
    rest = argv[4:]
    fields, drop = (rest[:rest.index("--drop")], rest[rest.index("--drop") + 1:]) if "--drop" in rest else (rest, [])
    if not fields:
        sys.exit("profile_fields.py: name at least one field to copy")
    measured = json.load(open(source))
    lines = open(profile).read().split("\n")
    for n, f in enumerate(fields):
        if f not in measured:
            sys.exit(f"profile_fields.py: {source} has no {f}")
        why = measured.get("source", {}).get(f)
        if why is None:
            sys.exit(f"profile_fields.py: {source} says nothing of how {f} was measured (source.{f})")
        replaces = drop if n == 0 else []
        put(lines, f, one_line(f, measured[f], 2), 2, replaces)
        if note:
            head, sep, tail = why.partition("; ")
            why = f"{head} ({note}){sep}{tail}"
        put(lines, f, one_line(f, why, 4), 4, replaces)
    for f in drop:
        lines = [l for l in lines if not re.match(rf'^ {{2}}( {{2}})?"{f}": ', l)]
    text = "\n".join(lines)
    # A source block's last line takes no comma.
    text = re.sub(r',(\n  \})', r'\1', text)
    stored = json.loads(text)  # still a profile
    for f in fields:
        assert stored[f] == measured[f]
    open(profile, "w").write(text)


if __name__ == "__main__":
    main(sys.argv)
