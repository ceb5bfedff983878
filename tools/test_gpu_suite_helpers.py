#!/usr/bin/env python3
"""CPU tests of tools/gpu-suite.sh's helpers: notebook_commands.py (the commands of
docs/colab.ipynb and the plan the `notebook` phase runs), repeat_tally.py (the `repeat` phase's
tally), closecall_summary.py (the `closecall` phase's summary), report_diff.py (two versions of
the grader's reports by verdicts and words), and the scripts' own syntax (bash -n; shellcheck
where installed).

    python3 tools/test_gpu_suite_helpers.py        (ctest: tools.gpu_suite_helpers)

Python 3 standard library only.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)

import closecall_summary as cs  # noqa: E402
import notebook_commands as nc  # noqa: E402
import repeat_tally as rt  # noqa: E402
import report_diff as rd  # noqa: E402


def notebook(*cells):
    """A minimal nbformat 4.5 notebook of code cells (strings) and ("md", text) cells."""
    out = []
    for i, c in enumerate(cells):
        if isinstance(c, tuple):
            out.append({"cell_type": "markdown", "id": f"m{i}", "metadata": {}, "source": c[1]})
        else:
            out.append({"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": c,
                        "outputs": [], "execution_count": None})
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": out}


class RealNotebook(unittest.TestCase):
    """docs/colab.ipynb as the `notebook` phase plans it: only the two allowed deviations."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(ROOT, "docs", "colab.ipynb"), encoding="utf-8") as f:
            cls.nb = json.load(f)
        cls.entries = nc.extract(cls.nb)
        cls.plan = nc.plan(cls.entries, "/W/cuda-course", "90")

    def test_it_has_commands_and_every_code_cell_is_seen(self):
        code_cells = {c["id"] for c in self.nb["cells"] if c["cell_type"] == "code"}
        self.assertTrue(code_cells)
        self.assertEqual(code_cells, {e["cell"] for e in self.entries})
        self.assertTrue(any(s["kind"] == "run" for s in self.plan))

    def test_only_the_allowed_deviations(self):
        for s in self.plan:
            if s["kind"] == "python":
                continue
            if s["deviation"]:
                for part in s["deviation"].split("; ("):
                    self.assertRegex(part.lstrip("("), r"^[ab]\) ", s)
            elif s["kind"] == "run":
                self.assertEqual(s["command"], s["original"], "a run command changed silently")

    def test_internet_commands_are_replaced_or_checked(self):
        copies = [s for s in self.plan if s["kind"] == "copy"]
        self.assertEqual(len(copies), 1, "one clone, replaced by the local copy")
        self.assertEqual(copies[0]["command"], "/W/cuda-course")
        for s in self.plan:
            if s["kind"] == "skip":
                self.assertRegex(s["original"], r"^(apt-get|apt|pip|pip3|python3? -m pip) ")
                if " install " in f" {s['original']} ":
                    self.assertIn("--check", s["check"])
            if s["kind"] == "run":
                self.assertIsNone(nc.needs_internet(s["command"]), s)
                self.assertNotIn("/content/cuda-course", s["command"])
        cds = [s for s in self.plan if s["kind"] == "cd"]
        self.assertTrue(cds and all(s["command"].startswith("/W/cuda-course") for s in cds))

    def test_the_t4_architecture_becomes_sm_90(self):
        t4 = [s for s in self.plan if "colab-t4" in s["original"]]
        self.assertTrue(t4, "the notebook configures with the colab-t4 preset")
        for s in t4:
            self.assertIn("--preset colab-t4 -DCMAKE_CUDA_ARCHITECTURES=90", s["command"])
            self.assertIn("(b)", s["deviation"])
            self.assertEqual(s["command"].replace(" -DCMAKE_CUDA_ARCHITECTURES=90", ""),
                             s["original"])

    def test_grading_the_stubs_expects_exit_1(self):
        graded = [s for s in self.plan if s["kind"] == "run" and s["expect"] == 1]
        self.assertTrue(graded)
        for s in graded:
            self.assertRegex(s["command"], r"\./build/grader [0-9]{2}_[a-z_]+(\.\w+)?$")
        for s in self.plan:
            if s["kind"] == "run" and s["expect"] == 0:
                self.assertFalse(nc.grades_a_lesson(s["command"]), s)

    def test_the_cli_prints_nul_records(self):
        r = subprocess.run([sys.executable, os.path.join(HERE, "notebook_commands.py"),
                            os.path.join(ROOT, "docs", "colab.ipynb"), "--plan", "--nul",
                            "--workdir", "/W/cuda-course", "--arch", "90"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        fields = r.stdout.split("\0")
        self.assertEqual(fields[-1], "")
        self.assertEqual((len(fields) - 1) % 6, 0)
        self.assertEqual((len(fields) - 1) // 6, len(self.plan))
        r = subprocess.run([sys.executable, os.path.join(HERE, "notebook_commands.py"),
                            os.path.join(ROOT, "docs", "colab.ipynb")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("!./build/grader 07_transpose", r.stdout)


class Extraction(unittest.TestCase):
    def test_forms_of_commands(self):
        nb = notebook(
            ("md", "!not a command"),
            "# comment\nX = 'v'\n!echo one \\\n  two\nfiles = !ls -1\n%cd /tmp\n%env A=1\n%pip install foo\n",
            "%%bash\nset -e\necho {X}\nfor i in 1 2; do echo $i; done\n",
            "%%capture\n!make\nprint('x')\n",
        )
        e = nc.extract(nb)
        self.assertEqual([(x["kind"], x["command"]) for x in e], [
            ("python", "X = 'v'"),
            ("shell", "echo one    two"),  # IPython: backslash dropped, joined by a space
            ("shell", "ls -1"),
            ("cd", "/tmp"),
            ("env", "A=1"),
            ("shell", "pip install foo"),
            ("shell", "set -e\necho {X}\nfor i in 1 2; do echo $i; done"),
            ("shell", "make"),
            ("python", "print('x')"),
        ])

    def test_unknown_cell_magic_is_an_error(self):
        with self.assertRaises(nc.NotebookError):
            nc.extract(notebook("%%writefile a.txt\nhello\n"))

    def test_ipython_expansion(self):
        values = {"REPO_URL": "https://example.org/c.git", "N": 3}
        self.assertEqual(nc.expand("git clone {REPO_URL} /d", values, "t"),
                         "git clone https://example.org/c.git /d")
        self.assertEqual(nc.expand("echo $N $HOME ${HOME} $$", values, "t"), "echo 3 $HOME ${HOME} $")
        with self.assertRaises(nc.NotebookError):
            nc.expand("echo {UNKNOWN}", values, "t")

    def test_literal_assignments(self):
        e = nc.extract(notebook("A = 'x'\nB = 2\nC = f()\n"))
        self.assertEqual(nc.literal_assignments(e), {"A": "x", "B": 2})


class Plan(unittest.TestCase):
    def test_needs_internet(self):
        self.assertEqual(nc.needs_internet("git clone https://h/o/repo.git"), ("clone", "repo"))
        self.assertEqual(nc.needs_internet("git clone -q https://h/o/r /content/x"), ("clone", "/content/x"))
        self.assertEqual(nc.needs_internet("apt-get -qq install -y a b > /dev/null"), ("apt", ["a", "b"]))
        self.assertEqual(nc.needs_internet("sudo apt-get update"), ("apt", []))
        self.assertEqual(nc.needs_internet('pip install -q "cmake>=3.25"'), ("pip", ["cmake>=3.25"]))
        self.assertEqual(nc.needs_internet("python3 -m pip install x"), ("pip", ["x"]))
        self.assertIsNone(nc.needs_internet("pip --version"))
        self.assertIsNone(nc.needs_internet("cmake --build build"))

    def test_grades_a_lesson(self):
        self.assertTrue(nc.grades_a_lesson("cmake --preset x && ./build/grader 07_transpose"))
        self.assertTrue(nc.grades_a_lesson("./build/grader 07_transpose.tiled --seed 3"))
        self.assertTrue(nc.grades_a_lesson("./build/grader --all"))
        for c in ("./build/grader", "./build/grader hint 07_transpose.tiled",
                  "./build/grader sim --stride 8", "./build/bench", "ncu ./build/bench"):
            self.assertFalse(nc.grades_a_lesson(c), c)

    def test_substitutions(self):
        e = nc.extract(notebook(
            "URL = 'https://h/o/c'\n!git clone {URL} /content/c\n%cd /content/c\n",
            "!cmake --preset colab-t4 && ./build/grader 07\n!cmake -DCMAKE_CUDA_ARCHITECTURES=75 -B b\n"
            "!ls /content/c/lessons\n!apt-get update && apt-get install -y ninja-build\n",
        ))
        p = nc.plan(e, "/W", "90")
        kinds = [s["kind"] for s in p]
        self.assertEqual(kinds, ["python", "copy", "cd", "run", "run", "run", "skip"])
        self.assertEqual(p[1]["command"], "/W")
        self.assertEqual(p[2]["command"], "/W")
        self.assertEqual(p[3]["command"], "cmake --preset colab-t4 -DCMAKE_CUDA_ARCHITECTURES=90 && ./build/grader 07")
        self.assertEqual(p[3]["expect"], 1)
        self.assertEqual(p[4]["command"], "cmake -DCMAKE_CUDA_ARCHITECTURES=90 -B b")
        self.assertEqual(p[5]["command"], "ls /W/lessons")
        self.assertIn("(a)", p[5]["deviation"])
        self.assertIn("--check apt ninja-build", p[6]["check"])

    def test_mixed_lines_are_errors(self):
        with self.assertRaises(nc.NotebookError):
            nc.plan(nc.extract(notebook("!apt-get install -y x && make\n")), "/W", "90")
        with self.assertRaises(nc.NotebookError):
            nc.plan(nc.extract(notebook("!wget https://x/y\n")), "/W", "90")
        with self.assertRaises(nc.NotebookError):  # a script cannot be run in part
            nc.plan(nc.extract(notebook("%%bash\npip install x\nmake\n")), "/W", "90")

    def test_version_requirements(self):
        self.assertTrue(nc._satisfies("cmake version 4.1.2", ">=", "3.25"))
        self.assertFalse(nc._satisfies("cmake version 3.22.1", ">=", "3.25"))
        self.assertTrue(nc._satisfies("3.25", ">=", "3.25.0"))
        ok, how = nc.check_pip("surely-not-a-command-or-package-xyz>=1")
        self.assertFalse(ok)


class Tally(unittest.TestCase):
    def test_ok(self):
        log = ("ok     manifest and file layout (15 lessons, 2 ready)\n"
               "ok     07_transpose solution: as expected in 5 runs (of ceiling: naive 14.9%..15.1% "
               "tiled 44.9%..45.6%)\ndev check: all as expected\n")
        t = rt.tally_entry("07_transpose", "solution", 5, 100, log)
        self.assertEqual((t["status"], t["runs"], t["expected"], t["unexpected"], t["flips"]),
                         ("ok", 5, 5, 0, 0))
        self.assertEqual(rt.with_gates(t["figures"], "07_transpose", {("07_transpose", "tiled"): 0.35}),
                         "naive 14.9%..15.1% tiled 44.9%..45.6% (gate 35%)")
        # with the median dev check prints since 2026-12-03: the gate goes after it
        log = ("ok     14_streams solution: as expected in 10 runs (of ceiling: overlap "
               "71.0%..83.1% (median 82.4%) pinned 99.9%..100.2% (median 100.0%))\n")
        t = rt.tally_entry("14_streams", "solution", 10, 100, log)
        self.assertEqual(t["figures"],
                         "overlap 71.0%..83.1% (median 82.4%) pinned 99.9%..100.2% (median 100.0%)")
        self.assertEqual(rt.with_gates(t["figures"], "14_streams", {("14_streams", "overlap"): 0.7}),
                         "overlap 71.0%..83.1% (median 82.4%) (gate 70%) "
                         "pinned 99.9%..100.2% (median 100.0%)")
        one = rt.tally_entry("l", "w", 1, 0, "ok     l w: as expected (of ceiling: s 50.0%)\n")
        self.assertEqual((one["runs"], one["figures"]), (1, "s 50.0%"))

    def test_flip(self):
        log = "DRIFT  07_transpose naive_as_tiled: step tiled flipped between verdicts over 3 runs\n"
        t = rt.tally_entry("07_transpose", "naive_as_tiled", 3, 100, log)
        self.assertEqual((t["status"], t["runs"], t["flips"]), ("DRIFT", 3, 1))

    def test_unexpected_run_is_located_by_its_seed(self):
        log = ("\n07_transpose · Transpose  [variant: naive_as_tiled]  (seed 101)\n"
               "  PASS  tiled           15/15 tests   1 GB/s\n"
               "DRIFT  07_transpose naive_as_tiled: passes step tiled: the grader missed it\n"
               "1 problem(s) found\n")
        t = rt.tally_entry("07_transpose", "naive_as_tiled", 3, 100, log)
        self.assertEqual((t["runs"], t["expected"], t["unexpected"]), (2, 1, 1))
        self.assertIn("run 2: passes step tiled", t["problem"])

    def test_skip_and_missing(self):
        self.assertEqual(rt.tally_entry("l", "v", 3, 1, "skip   GPU checks: no GPU\n")["status"], "skip")
        self.assertEqual(rt.tally_entry("l", "v", 3, 1, "")["status"], "no result")
        # another entry's line does not count
        self.assertEqual(rt.tally_entry("l", "v", 3, 1, "ok     l v2: as expected\n")["status"], "no result")

    def test_cli(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "a.log")
            with open(good, "w") as f:
                f.write("ok     l solution: as expected in 2 runs (of ceiling: s 1.0%..2.0%)\n")
            index = os.path.join(d, "index.tsv")
            with open(index, "w") as f:
                f.write(f"l\tsolution\t2\t5\t{good}\n")
            r = subprocess.run([sys.executable, os.path.join(HERE, "repeat_tally.py"), index,
                                "--manifest", os.path.join(d, "none.json")], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertRegex(r.stdout, r"l:solution\s+2/2\s+2\s+0\s+0\s+s 1.0%..2.0%")
            with open(index, "a") as f:
                f.write(f"l\tw\t3\t5\t{os.path.join(d, 'missing.log')}\n")
            r = subprocess.run([sys.executable, os.path.join(HERE, "repeat_tally.py"), index],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)


def report(gate, q1, median, q3, pairs, close_call, verdict="pass", status="pass",
           first_decision=None):
    """A `grader --json` report of 07_transpose.tiled, as grader/core/src/report.cpp writes it."""
    speed = {"shape": "8192x8192", "bytes": 5.4e8, "gbps": 1637.0, "ceiling_gbps": 3622.0,
             "ceiling_kernel": "copy_tiled", "fraction_of_ceiling": median, "fraction_q1": q1,
             "fraction_q3": q3, "gate": gate, "margin": None if gate is None else median - gate,
             "pairs": pairs, "verdict": verdict, "close_call": close_call, "memcpy_gbps": 4150.0,
             "peak_gbps": 4814.0, "remeasured": first_decision is not None,
             "pairs_at_first_decision": first_decision}
    return {"format": "cuda-course-grader-report", "format_version": 1, "exit_code": 0,
            "lessons": [{"lesson": "07_transpose", "status": status, "message": "", "steps": [
                {"step": "tiled", "status": status, "reason": "", "tests_passed": 15,
                 "tests_total": 15, "problems": [], "speed": speed}]}]}


class CloseCall(unittest.TestCase):
    def write(self, d, name, obj):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            json.dump(obj, f)
        return path

    def test_straddle_remeasured_and_decided_by_median(self):
        with tempfile.TemporaryDirectory() as d:
            p = self.write(d, "closecall-1.json", report(0.45, 0.449, 0.451, 0.455, 600, True,
                                                         first_decision=30))
            line, problems, result = cs.summarize(0.45, p, "07_transpose", "tiled")
            self.assertEqual(problems, [])
            self.assertEqual(result, (True, True, "pass"))
            self.assertIn("600 pairs (re-measured: straddled at 30 pairs)", line)
            self.assertIn("straddle", line)

    def test_clear_pass_and_wrong_gate(self):
        with tempfile.TemporaryDirectory() as d:
            p = self.write(d, "a.json", report(0.35, 0.449, 0.451, 0.455, 30, False))
            line, problems, result = cs.summarize(0.45, p, "07_transpose", "tiled")
            self.assertEqual(result, (False, False, "pass"))
            self.assertTrue(any("COURSE_MANIFEST" in x for x in problems))
            self.assertIn("no re-measure", line)
            p = self.write(d, "b.json", report(0.45, 0.449, 0.451, 0.455, 600, False))
            self.assertTrue(any("close_call" in x for x in cs.summarize(0.45, p, "07_transpose", "tiled")[1]))

    def test_cli(self):
        with tempfile.TemporaryDirectory() as d:
            good = self.write(d, "closecall-1.json", report(0.45, 0.44, 0.446, 0.452, 600, True, "fail",
                                                            "fail", first_decision=30))
            no_gpu = self.write(d, "closecall-2.json", {"exit_code": 3, "lessons": [
                {"lesson": "07_transpose", "status": "no_gpu", "message": "no usable CUDA GPU", "steps": []}]})
            run = lambda *files: subprocess.run(
                [sys.executable, os.path.join(HERE, "closecall_summary.py"), "0.45", *files],
                capture_output=True, text=True)
            r = run(good)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("re-measured in 1, close call in 1; verdicts pass 0, fail 1", r.stdout)
            r = run(good, no_gpu)
            self.assertEqual(r.returncode, 1)
            self.assertIn("no usable CUDA GPU", r.stdout)
            self.assertEqual(run().returncode, 1)


class ReportDiff(unittest.TestCase):
    def write(self, root, key, report, rc=0):
        lesson, variant = key.split("/")
        os.makedirs(os.path.join(root, lesson), exist_ok=True)
        with open(os.path.join(root, lesson, variant + ".json"), "w") as f:
            json.dump(report, f)
        with open(os.path.join(root, lesson, variant + ".rc"), "w") as f:
            f.write(f"{rc}\n")

    def run_diff(self, before, after, extra=()):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a"), os.path.join(d, "b")
            for root, reports in ((a, before), (b, after)):
                os.makedirs(root)
                for key, (report, rc) in reports.items():
                    self.write(root, key, report, rc)
            r = subprocess.run([sys.executable, os.path.join(HERE, "report_diff.py"), a, b,
                                *extra], capture_output=True, text=True)
            return r.returncode, r.stdout

    def step(self, status, reason, fraction=0.99, close_call=False):
        speed = {"verdict": "pass", "gate": 0.85, "gbps": 3929.4, "fraction_of_ceiling": fraction,
                 "close_call": close_call, "pairs_at_first_decision": None}
        return {"lessons": [{"status": status, "seed": 7,
                             "steps": [{"name": "s", "status": status, "reason": reason,
                                        "tests_passed": 3, "speed": speed}]}],
                "device": {"name": "NVIDIA H200"}}

    def test_figures_and_the_gpu_do_not_count(self):
        before = self.step("pass", "3,929 GB/s = 99.2%, median of 10 interleaved pairs")
        after = self.step("pass", "3,930 GB/s = 99.4%, median of 7 interleaved pairs", 0.97, True)
        after["device"]["name"] = "Tesla T4"
        rc, out = self.run_diff({"01/solution": (before, 0)}, {"01/solution": (after, 0)})
        self.assertEqual(rc, 0, out)

    def test_which_case_or_element_failed_counts(self):
        rc, out = self.run_diff(
            {"01/w": (self.step("fail", "n_1027: out: 3 of 13 elements wrong"), 1)},
            {"01/w": (self.step("fail", "n_1024: out: 3 of 13 elements wrong"), 1)})
        self.assertEqual(rc, 1, out)
        self.assertIn("n_1027", out)

    def test_a_status_a_diagnosis_an_exit_code_or_a_missing_variant_does(self):
        before = {"01/stub": (self.step("fail", "the timed results were wrong"), 1),
                  "01/w": (self.step("fail", "below the gate"), 1)}
        after = {"01/stub": (self.step("fail", "correct, but not fast enough"), 1),
                 "01/w": (self.step("fail", "below the gate"), 5),
                 "01/new": (self.step("pass", ""), 0)}
        rc, out = self.run_diff(before, after)
        self.assertEqual(rc, 1)
        self.assertIn("01/stub: $.lessons[0].steps[0].reason", out)
        self.assertIn("01/w: exit code 1 -> 5", out)
        self.assertIn("01/new: only in after", out)
        self.assertIn("3 variants compared, 3 differ, 2 in a verdict: 01/new, 01/w", out)

    def test_words_alone_are_not_a_verdict_and_tree_paths_read_alike(self):
        log = "memcheck found 3 errors (full output: {}/build/grader-runs/x.log), process {}"
        before = self.step("fail", log.format("/tmp/before", 6518))
        after = self.step("fail", log.format("/tmp/after", 6384))
        rc, out = self.run_diff({"01/w": (before, 1)}, {"01/w": (after, 1)},
                                ["--trees", "/tmp/before", "/tmp/after"])
        self.assertEqual(rc, 0, out)
        racy = self.step("fail", "out: 3 of 13 elements wrong; got 7")
        rc, out = self.run_diff({"01/w": (racy, 1)},
                                {"01/w": (self.step("fail", "out: 4 of 13 elements wrong; got 9"), 1)})
        self.assertEqual(rc, 1, out)
        self.assertIn("1 variants compared, 1 differ, 0 in a verdict", out)

    def test_nothing_to_compare_is_an_error(self):
        rc, out = self.run_diff({}, {})
        self.assertEqual(rc, 2, out)

    def test_blank(self):
        self.assertEqual(rd.blank({"seed": 7, "a": [1.5, "x 12,000 y 4.2 ms"], "ok": True}),
                         {"a": [1.5, "x 12,000 y # ms"], "ok": True})
        self.assertEqual(rd.blank({"speed": {"gbps": 1.0, "gate": 0.8, "verdict": "fail"}}),
                         {"speed": {"gate": 0.8, "verdict": "fail"}})


class Script(unittest.TestCase):
    SCRIPT = os.path.join(HERE, "gpu-suite.sh")

    @unittest.skipUnless(shutil.which("bash"), "bash is not installed")
    def test_bash_syntax(self):
        for script in (self.SCRIPT, os.path.join(HERE, "variant_reports.sh"),
                       os.path.join(HERE, "verdict_times.sh")):
            r = subprocess.run(["bash", "-n", script], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, script + ": " + r.stderr)

    @unittest.skipUnless(shutil.which("shellcheck"), "shellcheck is not installed")
    def test_shellcheck(self):
        r = subprocess.run(["shellcheck", self.SCRIPT], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
