#!/usr/bin/env python3
"""Tally of tools/gpu-suite.sh's `repeat` phase, read from the `grader dev check --repeat N` logs.

    python3 tools/repeat_tally.py INDEX.tsv [--manifest lessons/course.json]

INDEX.tsv has one line per entry the phase ran, tab-separated:
    lesson  variant  runs-asked  base-seed  log-path
(the suite passes `--seed BASE` to dev check, which grades run i with seed BASE + i - 1).

What a log can say, per entry (grader/driver/devcheck.cpp):
  ok     L V: as expected in N runs (of ceiling: STEP a%..b% (median m%) ...)
                                                                   every run as expected
  DRIFT  L V: step S flipped between verdicts over N runs          every run as expected, but
                                                                   a step's status differed
  DRIFT  L V: <anything else>                                      one run was not as expected;
         dev check stops there and prints that run's report, whose "(seed K)" says which run
  skip   ...                                                       not run here
"As expected": a solution passes every step; a wrong kernel fails its step with its diagnosis.

Prints one line per entry: runs done/asked, runs as expected, runs not, flips, and the fraction
of the ceiling (min..max and median over the runs, with the step's gate from the manifest), or the
problem.
Exit code 0 when every entry ran all its runs as expected with no flip, 1 otherwise, 2 usage.
Python 3 standard library only.
"""

import argparse
import json
import re
import sys


def gates(manifest_path):
    """(lesson, step) -> gate fraction, or {} when the manifest cannot be read."""
    try:
        with open(manifest_path, encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, json.JSONDecodeError):
        return {}
    out = {}
    for lesson in m.get("lessons", []):
        for step in lesson.get("steps", []):
            gate = (step.get("gate") or {}).get("fraction_of_ceiling")
            if gate is not None:
                out[(lesson.get("id"), step.get("name"))] = gate
    return out


def tally_entry(lesson, variant, asked, base_seed, log_text):
    """{runs, expected, unexpected, flips, figures, problem, status}"""
    t = {"runs": 0, "expected": 0, "unexpected": 0, "flips": 0, "figures": "", "problem": "",
         "status": "no result"}
    who = re.escape(f"{lesson} {variant}:")
    for line in log_text.splitlines():
        m = re.match(rf"^ok\s+{who} as expected(?: in (\d+) runs)?(?: \(of ceiling: (.*)\))?\s*$", line)
        if m:
            n = int(m.group(1) or 1)
            t.update(runs=n, expected=n, figures=m.group(2) or "", status="ok")
            return t
        m = re.match(rf"^DRIFT\s+{who} (.*)$", line)
        if m:
            problem = m.group(1).strip()
            t.update(problem=problem, status="DRIFT")
            f = re.match(r"^step (\S+) flipped between verdicts over (\d+) runs", problem)
            if f:
                n = int(f.group(2))
                t.update(runs=n, expected=n, flips=1)
                return t
            # dev check printed the report of the run that was not as expected: its seed says
            # which run it was (the runs before it were as expected).
            seeds = [int(s) for s in re.findall(r"\(seed (\d+)\)", log_text)]
            if seeds and base_seed:
                run = seeds[-1] - base_seed + 1
                if 1 <= run <= asked:
                    t.update(runs=run, expected=run - 1, unexpected=1,
                             problem=f"run {run}: {problem}")
                    return t
            t.update(runs=None, unexpected=1)  # which run is unknown
            return t
        if re.match(r"^skip\s+", line):
            t.update(status="skip", problem=line.split(None, 1)[1].strip())
            return t
    t["problem"] = "no ok/DRIFT/skip line for it in the log (crashed? not built?)"
    return t


def with_gates(figures, lesson, gate_of):
    """'tiled 44.9%..45.6% (median 45.2%)' -> 'tiled 44.9%..45.6% (median 45.2%) (gate 35%)' for
    steps with a gate (the median is there from 2026-12-03 on; older logs have only the range)."""

    def add(m):
        gate = gate_of.get((lesson, m.group(1)))
        return m.group(0) + (f" (gate {100 * gate:.0f}%)" if gate is not None else "")

    return re.sub(r"(\w+) ([0-9.]+%(?:\.\.[0-9.]+%)?(?: \(median [0-9.]+%\))?)", add, figures)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("index")
    ap.add_argument("--manifest", default="lessons/course.json")
    a = ap.parse_args(argv[1:])
    try:
        with open(a.index, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except OSError as e:
        print(f"{a.index}: {e}", file=sys.stderr)
        return 2
    gate_of = gates(a.manifest)
    all_good = True
    width = max([len(f"{r[0]}:{r[1]}") for r in rows if len(r) >= 2] + [5])
    print(f"  {'entry':<{width}}  {'runs':>5}  {'as expected':>11}  {'not':>3}  {'flips':>5}  "
          "fraction of ceiling over the runs, or the problem")
    for r in rows:
        if len(r) != 5:
            print(f"  malformed index line: {r}")
            all_good = False
            continue
        lesson, variant, asked, seed, log = r[0], r[1], int(r[2]), int(r[3] or 0), r[4]
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        t = tally_entry(lesson, variant, asked, seed, text)
        runs = "?" if t["runs"] is None else str(t["runs"])
        detail = with_gates(t["figures"], lesson, gate_of)
        if t["problem"]:
            detail = (detail + "; " if detail else "") + f"{t['status']}: {t['problem']}"
        good = t["status"] == "ok" and t["runs"] == asked
        all_good &= good
        print(f"  {lesson + ':' + variant:<{width}}  {runs + '/' + str(asked):>5}  "
              f"{t['expected']:>11}  {t['unexpected']:>3}  {t['flips']:>5}  {detail}")
    print("  (as expected: a solution passes every step; a wrong kernel fails its step with its "
          "diagnosis)")
    return 0 if all_good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
