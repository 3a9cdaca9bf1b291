#!/usr/bin/env python3
"""A stored profile with the "multiGpu" object a run measured on this host.

usage: bench/multi/merge_profile.py STORED.json MULTI_GPU.json OUT.json

MULTI_GPU.json is what `recipe-profile --multi-gpu-only` wrote. When it is
missing or unreadable, OUT.json is the stored profile as it is, and the
reason goes to stderr."""
import json
import sys


def main():
    stored, measured, out = sys.argv[1:4]
    profile = json.load(open(stored))
    try:
        profile["multiGpu"] = json.load(open(measured))["multiGpu"]
    except (OSError, ValueError, KeyError) as e:
        print(f"merge_profile.py: the stored multiGpu figures stay ({e})", file=sys.stderr)
    with open(out, "w") as f:
        json.dump(profile, f, indent=1)


if __name__ == "__main__":
    main()
