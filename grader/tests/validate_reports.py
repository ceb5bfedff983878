#!/usr/bin/env python3
"""Validates grader outputs against their schemas: *.xml against schemas/junit.xsd (and the
counts in each testsuite against its testcases); *.json holding the grader's own report
(--json, "format": "cuda-course-grader-report") against schemas/grader-report.schema.json (and
each speed's margin against its fraction and gate, and its re-measure fields against each other;
each step's skipped counts, and its memcheck verdict against its status);
any other *.json against the Gradescope schema (and the score against the tests' scores).
usage: validate_reports.py FILE..."""
import json
import pathlib
import sys
import xml.etree.ElementTree as ET

import os

try:
    import jsonschema
    import xmlschema
except ImportError as e:  # students need not install these; CI must (COURSE_REQUIRE_SCHEMA_TOOLS=1)
    print(f"skipped: {e.name} is not installed (python3 -m pip install jsonschema xmlschema)")
    sys.exit(1 if os.environ.get("COURSE_REQUIRE_SCHEMA_TOOLS") else 77)

HERE = pathlib.Path(__file__).resolve().parent


def check_junit(path, schema):
    schema.validate(str(path))
    root = ET.parse(path).getroot()
    for suite in root.iter("testsuite"):
        cases = suite.findall("testcase")
        counted = {k: len([c for c in cases if c.find(k) is not None]) for k in ("failure", "error", "skipped")}
        assert int(suite.get("tests")) == len(cases), f"{path}: tests={suite.get('tests')} but {len(cases)} testcases"
        for attr, key in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
            assert int(suite.get(attr)) == counted[key], f"{path}: {attr}={suite.get(attr)} but {counted[key]}"


def check_gradescope(path, schema):
    data = json.loads(path.read_text())
    jsonschema.validate(data, schema)
    assert abs(data.get("score", 0) - sum(t["score"] for t in data["tests"])) < 1e-9, f"{path}: score != sum"
    for t in data["tests"]:
        assert t["score"] <= t["max_score"], f"{path}: {t['name']} scores above its max_score"


def is_grader_report(path):
    data = json.loads(path.read_text())
    return isinstance(data, dict) and data.get("format") == "cuda-course-grader-report"


def check_grader_report(path, schema):
    data = json.loads(path.read_text())
    jsonschema.validate(data, schema)
    for lesson in data["lessons"]:
        for step in lesson["steps"]:
            name = f"{path}: {lesson['lesson']}.{step['step']}"
            assert step["tests_passed"] <= step["tests_total"], f"{name}: more tests passed than ran"
            skipped = step.get("tests_skipped", 0)
            assert step["tests_passed"] + skipped <= step["tests_total"], f"{name}: skipped and passed exceed tests"
            assert sum(s["tests"] for s in step.get("skipped", [])) == skipped, f"{name}: skipped reasons != tests_skipped"
            # memcheck runs after a pass; what it finds fails the step.
            if step.get("memcheck") in ("errors", "tests_failed"):
                assert step["status"] == "fail", f"{name}: memcheck {step['memcheck']} but not failed"
            if step.get("memcheck") == "clean":
                assert step["status"] == "pass", f"{name}: memcheck clean on a step that did not pass"
            if "memcheck" in step:
                assert "memcheck" in lesson, f"{name}: a step memcheck verdict without the lesson's stage"
            speed = step["speed"]
            if speed is None:
                continue
            assert (speed["gate"] is None) == (speed["margin"] is None), f"{name}: margin without gate"
            if speed["gate"] is not None:
                margin = speed["fraction_of_ceiling"] - speed["gate"]
                assert abs(speed["margin"] - margin) < 1e-9, f"{name}: margin != fraction - gate"
            # A re-measure needs a gate, and went on past the pairs it was first decided on.
            first = speed.get("pairs_at_first_decision")
            if speed.get("remeasured"):
                assert speed["gate"] is not None, f"{name}: re-measured without a gate"
                assert first is None or first < speed["pairs"], \
                    f"{name}: pairs_at_first_decision not below pairs"
            else:
                assert first is None, f"{name}: pairs_at_first_decision without remeasured"


def main(files):
    if not files:
        print(__doc__)
        return 2
    junit = xmlschema.XMLSchema(str(HERE / "schemas" / "junit.xsd"))
    gradescope = json.loads((HERE / "schemas" / "gradescope-results.schema.json").read_text())
    report = json.loads((HERE / "schemas" / "grader-report.schema.json").read_text())
    bad = 0
    for name in files:
        path = pathlib.Path(name)
        try:
            if path.suffix == ".xml":
                check_junit(path, junit)
            elif is_grader_report(path):
                check_grader_report(path, report)
            else:
                check_gradescope(path, gradescope)
            print(f"valid: {path}")
        except (AssertionError, jsonschema.ValidationError, xmlschema.XMLSchemaException, ValueError) as e:
            print(f"invalid: {path}: {str(e).splitlines()[0]}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
