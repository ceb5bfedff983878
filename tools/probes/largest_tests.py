#!/usr/bin/env python3
"""Each lesson's slowest hidden tests in the records `RECORDS=DIR tools/verdict_times.sh` kept.

    tools/probes/largest_tests.py OUT_DIR [N]

For the --quick and the full grade of every lesson under OUT_DIR: the number of test processes,
the tests' total seconds, and the N slowest tests (default 4), with the pairs a timed test took.
"""
import glob
import json
import os
import sys


def main():
    out = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    for lesson in sorted(os.listdir(out)):
        if not os.path.isdir(os.path.join(out, lesson)):
            continue
        for kind in ("quick", "full"):
            files = sorted(glob.glob(os.path.join(out, lesson, f"runs-{kind}", "grade", "run-*.jsonl")))
            rows = []
            for name in files:
                for line in open(name):
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError:
                        continue
                    if r.get("event") == "end":
                        rows.append((r["ms"], r["test"], r.get("properties", {}).get("pairs")))
            rows.sort(reverse=True)
            slowest = "; ".join(
                f"{t} {ms / 1000:.2f}" + (f" ({int(p)} pairs)" if p else "") for ms, t, p in rows[:top])
            print(f"{lesson} {kind}: {len(files)} process(es), tests {sum(r[0] for r in rows) / 1000:.2f} s: {slowest}")


if __name__ == "__main__":
    main()
