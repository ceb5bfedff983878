#!/usr/bin/env python3
"""Summary of tools/gpu-suite.sh's `closecall` phase: what the speed check did with a gate that
the measured fraction straddles.

    python3 tools/closecall_summary.py GATE REPORT.json...   [--lesson 07_transpose --step tiled]

Each REPORT.json is `grader --variant solution 07_transpose.tiled --json` run with
$COURSE_MANIFEST set to a manifest whose gate for the step is GATE. From the step's `speed`:
  - re-measured: the report's `remeasured` (course::first_straddle: after the first 30 pairs the
    ratios' interquartile range straddled the gate, q1 < gate <= q3, so the harness kept timing,
    up to 600 pairs or 5 s) and `pairs_at_first_decision`;
  - close call: `close_call`, which course::decide_gate sets when the final quartiles still
    straddle the gate (then the median decides);
  - the verdict, the fraction with its quartiles, the margin.
Checks, each a PROBLEM line: the report's gate is GATE (else $COURSE_MANIFEST did not reach the
hidden-test process), and `close_call` agrees with the quartiles.
Exit code 0 when every report was read and checked out, 1 otherwise. Standard library only.
"""

import argparse
import json
import sys


def summarize(gate, path, lesson, step_name):
    """(line, problems, (remeasured, close_call, verdict) or None)"""
    name = path.rsplit("/", 1)[-1]
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
        steps = [s for l in r["lessons"] if l["lesson"] == lesson for s in l["steps"]
                 if s["step"] == step_name]
        if not steps or not steps[0].get("speed"):
            why = [l.get("message") or l.get("status") for l in r["lessons"]]
            return f"  {name}: exit {r.get('exit_code')}, no speed figures for {lesson}.{step_name} " \
                   f"({'; '.join(str(w) for w in why)})", ["no speed figures"], None
        s, sp = steps[0], steps[0]["speed"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        return f"  {name}: cannot read it ({e})", ["unreadable report"], None
    remeasured = bool(sp.get("remeasured", False))
    straddles = sp["fraction_q1"] < gate <= sp["fraction_q3"]
    line = (
        f"  {name}: exit {r.get('exit_code')}, step {s['status']}, verdict {sp['verdict']}, "
        f"close_call {str(sp['close_call']).lower()}; {sp['pairs']} pairs "
        f"({'re-measured: straddled at ' + str(sp.get('pairs_at_first_decision')) + ' pairs' if remeasured else 'no re-measure'}); "
        f"{100 * sp['fraction_of_ceiling']:.1f}% of the ceiling [q1 {100 * sp['fraction_q1']:.1f}%, "
        f"q3 {100 * sp['fraction_q3']:.1f}%], gate {100 * (sp['gate'] or 0):.1f}%, margin "
        f"{100 * (sp['margin'] or 0):+.1f} pts"
        + (", the final quartiles straddle the gate" if straddles else "")
    )
    problems = []
    if sp["gate"] is None or abs(sp["gate"] - gate) > 1e-9:
        problems.append(f"the report's gate is {sp['gate']}, not {gate}: $COURSE_MANIFEST did not "
                        "reach the hidden-test process")
    if remeasured and not sp.get("pairs_at_first_decision"):
        problems.append("remeasured without pairs_at_first_decision")
    if bool(sp["close_call"]) != straddles:
        problems.append("close_call disagrees with the quartiles against the gate")
    return line, problems, (remeasured, bool(sp["close_call"]), sp["verdict"])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gate", type=float)
    ap.add_argument("reports", nargs="*")
    ap.add_argument("--lesson", default="07_transpose")
    ap.add_argument("--step", default="tiled")
    a = ap.parse_args(argv[1:])
    ok, runs = bool(a.reports), []
    for path in a.reports:
        line, problems, result = summarize(a.gate, path, a.lesson, a.step)
        print(line)
        for p in problems:
            print(f"    PROBLEM: {p}")
        ok &= not problems
        if result:
            runs.append(result)
    verdicts = ", ".join(f"{v} {sum(r[2] == v for r in runs)}" for v in ("pass", "fail", "impossible"))
    print(f"closecall: {len(a.reports)} report(s) at gate {100 * a.gate:.1f}%: re-measured in "
          f"{sum(r[0] for r in runs)}, close call in {sum(r[1] for r in runs)}; verdicts {verdicts}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
