#!/usr/bin/env python3
"""Compares two folders of grader reports (tools/variant_reports.sh) by verdicts and words.

    python3 tools/report_diff.py BEFORE_DIR AFTER_DIR

For every <lesson>/<run>.json in either folder: the exit codes (.rc) must be equal, and so must
the two JSON reports once what moves between runs of one kernel is left out: the timing figures
of the speed record (GB/s, fractions, pairs, close calls; the gate, bytes and FLOP count stay),
each test's duration, the GPU and the seed, and inside strings every figure with a unit of time
or rate ("3,929 GB/s", "99.2%", "1.8 ms", "10 interleaved pairs"). Case names, element counts,
first mismatches and test counts are compared as they are: both trees draw the same inputs.
Prints each difference with its JSON path; exits 0 when there is none, 1 otherwise, 2 on a usage
error. Text, JUnit and Gradescope output are not compared (they are written from the same data).
"""
import json
import os
import re
import sys

RUN_KEYS = {"device", "seed", "ms"}  # the GPU, the inputs' seed, a test's duration
SPEED_KEPT = {"verdict", "gate", "bytes", "flops"}  # of the speed record: not timing figures
FIGURE = re.compile(r"[0-9][0-9.,]*(?=\s*(GB/s|TFLOP/s|%|ms\b|µs|us\b|s\b|pts\b|points\b|MHz|C\b"
                    r"|x\b|interleaved pairs|pairs\b|runs\b))")


def blank(value, key=""):
    if isinstance(value, dict):
        return {k: blank(v, k) for k, v in value.items()
                if k not in RUN_KEYS and (key != "speed" or k in SPEED_KEPT or isinstance(v, str))}
    if isinstance(value, list):
        return [blank(v) for v in value]
    if isinstance(value, str):
        return FIGURE.sub("#", value)
    return value


def differences(a, b, path="$"):
    if type(a) is not type(b):
        return [f"{path}: {json.dumps(a)[:200]} -> {json.dumps(b)[:200]}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {'only after' if k in b else 'only before'}")
            else:
                out += differences(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items -> {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {json.dumps(a)[:200]} -> {json.dumps(b)[:200]}"]


def reports(root):
    found = {}
    for lesson in sorted(os.listdir(root)):
        if os.path.isdir(os.path.join(root, lesson)):
            for f in sorted(os.listdir(os.path.join(root, lesson))):
                if f.endswith(".json"):
                    found[f"{lesson}/{f[:-5]}"] = os.path.join(root, lesson, f)
    return found


def load(path):
    rc_path = path[:-5] + ".rc"
    rc = open(rc_path).read().strip() if os.path.exists(rc_path) else "?"
    try:
        return rc, blank(json.load(open(path)))
    except (OSError, json.JSONDecodeError) as e:
        return rc, f"unreadable report: {e.__class__.__name__}"


def main(argv):
    if len(argv) != 3 or not all(os.path.isdir(d) for d in argv[1:]):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    before, after = reports(argv[1]), reports(argv[2])
    problems = 0
    for key in sorted(set(before) | set(after)):
        if key not in before or key not in after:
            print(f"{key}: only in {'after' if key in after else 'before'}")
            problems += 1
            continue
        (rc_a, a), (rc_b, b) = load(before[key]), load(after[key])
        diffs = ([f"exit code {rc_a} -> {rc_b}"] if rc_a != rc_b else []) + differences(a, b)
        for d in diffs:
            print(f"{key}: {d}")
        problems += bool(diffs)
    print(f"{len(set(before) | set(after))} variants compared, {problems} differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
