#!/usr/bin/env python3
"""Compares two folders of grader reports (tools/variant_reports.sh) by verdicts and words.

    python3 tools/report_diff.py BEFORE_DIR AFTER_DIR [--trees BEFORE_TREE AFTER_TREE]

For every <lesson>/<run>.json in either folder: the exit codes (.rc) must be equal, and so must
the two JSON reports once what moves between runs of one kernel is left out: the timing figures
of the speed record (GB/s, fractions, pairs, close calls; the gate, bytes and FLOP count stay),
each test's duration, the GPU and the seed, and inside strings every figure with a unit of time
or rate ("3,929 GB/s", "99.2%", "1.8 ms", "10 interleaved pairs"). Case names, element counts,
first mismatches and test counts are compared as they are: both trees draw the same inputs.
Process ids and device addresses are left out too, and with --trees each report's own checkout
path (a log's path in a diagnosis) reads as "<tree>". Prints each difference with its JSON path,
then the variants whose verdict differs (the exit code, or a step's status): a wrong kernel with
a data race prints other wrong elements on every run, so the words may differ where the verdicts
cannot. Exits 0 when nothing differs, 1 otherwise, 2 on a usage error or when neither folder
holds a report. Text, JUnit and Gradescope output are not compared (they are written from the
same data).
"""
import json
import os
import re
import sys

RUN_KEYS = {"device", "seed", "ms"}  # the GPU, the inputs' seed, a test's duration
SPEED_KEPT = {"verdict", "gate", "bytes", "flops"}  # of the speed record: not timing figures
RUN_IDS = re.compile(r"(?<=process )[0-9]+|(?<=0x)[0-9a-f]{8,}")  # process ids, device addresses
FIGURE = re.compile(r"[0-9][0-9.,]*(?=\s*(GB/s|TFLOP/s|%|ms\b|µs|us\b|s\b|pts\b|points\b|MHz|C\b"
                    r"|x\b|interleaved pairs|pairs\b|runs\b))")


def blank(value, key="", tree=None):
    if isinstance(value, dict):
        return {k: blank(v, k, tree) for k, v in value.items()
                if k not in RUN_KEYS and (key != "speed" or k in SPEED_KEPT or isinstance(v, str))}
    if isinstance(value, list):
        return [blank(v, "", tree) for v in value]
    if isinstance(value, str):
        if tree:
            value = value.replace(tree, "<tree>")
        return FIGURE.sub("#", RUN_IDS.sub("#", value))
    return value


def verdict(rc, report):
    """The exit code and each step's status: what a student or a gradebook acts on."""
    if not isinstance(report, dict):
        return (rc, report)
    return (rc, [(lesson.get("lesson"), step.get("step"), step.get("status"))
                 for lesson in report.get("lessons", []) for step in lesson.get("steps", [])])


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


def load(path, tree=None):
    rc_path = path[:-5] + ".rc"
    rc = open(rc_path).read().strip() if os.path.exists(rc_path) else "?"
    try:
        return rc, blank(json.load(open(path)), tree=tree)
    except (OSError, json.JSONDecodeError) as e:
        return rc, f"unreadable report: {e.__class__.__name__}"


def main(argv):
    args = argv[1:]
    trees = (None, None)
    if len(args) == 5 and args[2] == "--trees":
        trees, args = (args[3], args[4]), args[:2]
    if len(args) != 2 or not all(os.path.isdir(d) for d in args):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    before, after = reports(args[0]), reports(args[1])
    if not before and not after:  # e.g. one folder too deep: nothing compared is no verdict
        print(f"no reports (<lesson>/<run>.json) in {args[0]} or {args[1]}", file=sys.stderr)
        return 2
    problems, verdicts = 0, []
    for key in sorted(set(before) | set(after)):
        if key not in before or key not in after:
            print(f"{key}: only in {'after' if key in after else 'before'}")
            problems += 1
            verdicts.append(key)
            continue
        (rc_a, a), (rc_b, b) = load(before[key], trees[0]), load(after[key], trees[1])
        diffs = ([f"exit code {rc_a} -> {rc_b}"] if rc_a != rc_b else []) + differences(a, b)
        for d in diffs:
            print(f"{key}: {d}")
        problems += bool(diffs)
        if verdict(rc_a, a) != verdict(rc_b, b):
            verdicts.append(key)
    print(f"{len(set(before) | set(after))} variants compared, {problems} differ, "
          f"{len(verdicts)} in a verdict{': ' + ', '.join(verdicts) if verdicts else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
