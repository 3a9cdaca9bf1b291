#!/usr/bin/env python3
"""Writes a copy of a C file in which every loop nest that `recipe advise`
converted (plan.json: nests[] whose verdict is "converted", lines
conversion.replaces_lines = [first, last], 1-based, inclusive) is timed:

    { struct timespec recipe_t0_<first>, recipe_t1_<first>; clock_gettime(CLOCK_MONOTONIC, &recipe_t0_<first>);
    <lines first..last, unchanged>
    clock_gettime(CLOCK_MONOTONIC, &recipe_t1_<first>); fprintf(stderr, "recipe: c-time <first>-<last> %.6f\\n", ms); }

The block makes the timed region one statement, so a nest that is the body of
a brace-less loop or `if` stays one. Lines are only added, never changed (the
copy's line numbers differ from the original's; the c-time lines name the
original's). <time.h> and <stdio.h> are
included before line 1 (with _POSIX_C_SOURCE 199309L defined first unless a
feature-test macro is already defined, so that -std=c99 still declares
clock_gettime). Regions that overlap, or whose lines do not begin and end a
statement cleanly, stop it with an error naming the file and the lines.
The input file is never modified.

usage: bench/e2e/instrument.py PLAN_JSON C_FILE OUT_C
"""
import json
import os
import re
import sys

FEATURE_MACROS = ("_POSIX_C_SOURCE", "_GNU_SOURCE", "_XOPEN_SOURCE", "_DEFAULT_SOURCE", "_BSD_SOURCE", "_SVID_SOURCE")
FEATURE_DEFINE = re.compile(r"^\s*#\s*define\s+(" + "|".join(FEATURE_MACROS) + r")\b")
INCLUDE = re.compile(r"^\s*#\s*include\b")
# What the first line of a region may start with: a loop or a block.
STARTS_STATEMENT = re.compile(r"^\s*(for|while|do)\b|^\s*\{")


def fail(message):
    sys.exit("instrument.py: " + message)


def strip_comment(text):
    """The line without a trailing // comment or a /* ... */ that closes on it."""
    text = re.sub(r"/\*.*?\*/", " ", text)
    return text.split("//", 1)[0].rstrip()


def regions(plan_path, plan):
    if "nests" not in plan:
        fail(f"{plan_path}: no field 'nests'")
    out = []
    for nest in plan["nests"]:
        if nest.get("verdict") != "converted":
            continue
        lines = nest.get("conversion", {}).get("replaces_lines")
        if not (isinstance(lines, list) and len(lines) == 2 and all(isinstance(x, int) for x in lines)):
            fail(f"{plan_path}: converted nest {nest.get('id')} has no conversion.replaces_lines [first, last]")
        out.append((lines[0], lines[1]))
    return sorted(out)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    plan_path, c_path, out_path = sys.argv[1:]
    if os.path.abspath(c_path) == os.path.abspath(out_path):
        fail(f"{c_path}: OUT_C is the input file (the input is never modified)")
    with open(plan_path) as f:
        plan = json.load(f)
    with open(c_path) as f:
        src = f.read().split("\n")
    # A file that ends with a newline splits into a last empty string: lines are src[0 .. n-1].
    trailing_newline = src and src[-1] == ""
    if trailing_newline:
        src.pop()
    n = len(src)
    spans = regions(plan_path, plan)

    for (a, b) in zip(spans, spans[1:]):
        if b[0] <= a[1]:
            fail(f"{c_path}: regions {a[0]}-{a[1]} and {b[0]}-{b[1]} overlap")
    for (first, last) in spans:
        where = f"{c_path}:{first}-{last}"
        if not (1 <= first <= last <= n):
            fail(f"{where}: the region is outside the file's {n} lines")
        if not STARTS_STATEMENT.match(src[first - 1]):
            fail(f"{where}: line {first} does not begin a statement cleanly (it should start with a loop "
                 f"or a block): {src[first - 1].strip()!r}")
        if first > 1 and src[first - 2].rstrip().endswith("\\"):
            fail(f"{where}: line {first - 1} continues onto line {first} (backslash)")
        end = strip_comment(src[last - 1])
        if not (end.endswith(";") or end.endswith("}")) or end.rstrip().endswith("\\"):
            fail(f"{where}: line {last} does not end a statement cleanly: {src[last - 1].strip()!r}")

    # Feature-test macros the file defines before its first #include must
    # precede our <time.h> as well, or they would come after the C library's
    # features.h was read (and do nothing).
    hoisted = []
    for line in src:
        if INCLUDE.match(line):
            break
        if FEATURE_DEFINE.match(line):
            hoisted.append(line.strip())

    out = []
    for line in hoisted:
        macro = FEATURE_DEFINE.match(line).group(1)
        out += [f"#ifndef {macro}", line, "#endif"]
    out += [
        "#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE) && !defined(_XOPEN_SOURCE) && !defined(_DEFAULT_SOURCE)",
        "#define _POSIX_C_SOURCE 199309L",
        "#endif",
        "#include <time.h>",
        "#include <stdio.h>",
    ]
    starts = {first: last for (first, last) in spans}
    ends = {last: first for (first, last) in spans}
    for i, line in enumerate(src, start=1):
        if i in starts:
            t0, t1 = f"recipe_t0_{i}", f"recipe_t1_{i}"
            out.append(f"{{ struct timespec {t0}, {t1}; clock_gettime(CLOCK_MONOTONIC, &{t0});")
        out.append(line)
        if i in ends:
            first = ends[i]
            t0, t1 = f"recipe_t0_{first}", f"recipe_t1_{first}"
            out.append(f"clock_gettime(CLOCK_MONOTONIC, &{t1}); "
                       f"fprintf(stderr, \"recipe: c-time {first}-{i} %.6f\\n\", "
                       f"({t1}.tv_sec - {t0}.tv_sec) * 1e3 + ({t1}.tv_nsec - {t0}.tv_nsec) / 1e6); }}")
    with open(out_path, "w") as f:
        f.write("\n".join(out) + ("\n" if trailing_newline else ""))


if __name__ == "__main__":
    main()
