#!/usr/bin/env python3
"""Writes a class of generated submissions and its roster, for `grader class grade`.

Each submission is a folder with exercises/ (or, for one student, a git repository and ref) made
from the course's own kernels: every lesson solved (solutions/), none (the stubs as committed), or
one lesson's file replaced by a deliberately wrong kernel (grader/lessons/<id>/wrong/), the others
stubs. expected.json maps each student to what each lesson holds ("solution", "stub" or the wrong
kernel's name), so a grade can be compared with grading that variant alone (`grader --variant`).

--faults adds the submissions that must affect only their own row: one that does not compile, one
that also edits a hidden test and adds a file outside exercises/ (both ignored and reported), one
whose compile blocks forever (it includes a FIFO nobody writes: a task killed by its time limit),
one whose folder does not exist, and one given as a git repository at a branch.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys


def lesson_ids(course, wanted):
    manifest = json.load(open(os.path.join(course, "lessons", "course.json")))
    ready = [l for l in manifest["lessons"] if l["status"] == "ready"]
    picked = [l for l in ready if any(l["id"] == w or l["id"].startswith(w.zfill(2) + "_") for w in wanted)]
    if len(picked) != len(wanted):
        sys.exit(f"class_roster.py: not every lesson of {wanted} is a ready lesson of the course")
    return picked


def stub_text(course, lesson, name):
    """The stub as committed (git HEAD), else as it is in the folder."""
    rel = f"exercises/{lesson}/{name}"
    shown = subprocess.run(["git", "-C", course, "show", f"HEAD:{rel}"], capture_output=True, text=True)
    return shown.stdout if shown.returncode == 0 else open(os.path.join(course, rel)).read()


def kernel_file(course, lesson):
    names = sorted(f for f in os.listdir(os.path.join(course, "exercises", lesson)) if f.endswith(".cu"))
    if len(names) != 1:
        sys.exit(f"class_roster.py: {lesson} has {len(names)} kernel files; expected one")
    return names[0]


def write_submission(root, course, holds):
    """holds: lesson -> "solution" | "stub" | wrong kernel name."""
    for lesson, what in holds.items():
        name = kernel_file(course, lesson)
        if what == "solution":
            text = open(os.path.join(course, "solutions", lesson, name)).read()
        elif what == "stub":
            text = stub_text(course, lesson, name)
        else:  # with the headers the wrong kernels share
            wrong = os.path.join(course, "grader", "lessons", lesson, "wrong")
            text = open(os.path.join(wrong, what + ".cu")).read()
            os.makedirs(os.path.join(root, "exercises", lesson), exist_ok=True)
            for header in os.listdir(wrong):
                if not header.endswith(".cu"):
                    shutil.copy(os.path.join(wrong, header), os.path.join(root, "exercises", lesson))
        os.makedirs(os.path.join(root, "exercises", lesson), exist_ok=True)
        with open(os.path.join(root, "exercises", lesson, name), "w") as f:
            f.write(text)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--course", required=True, help="the course checkout")
    p.add_argument("--out", required=True, help="folder for submissions/, roster.csv, expected.json")
    p.add_argument("--lessons", required=True, help="comma-separated lesson ids or numbers")
    p.add_argument("--count", type=int, default=20, help="generated submissions (besides --faults)")
    p.add_argument("--faults", action="store_true", help="add the submissions that must fail alone")
    a = p.parse_args()
    course = os.path.abspath(a.course)
    lessons = lesson_ids(course, a.lessons.split(","))
    ids = [l["id"] for l in lessons]
    out = os.path.abspath(a.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "submissions"))

    classes = [{l: "solution" for l in ids}, {l: "stub" for l in ids}]
    for lesson in lessons:  # one lesson solved, the others not
        classes.append({l: ("solution" if l == lesson["id"] else "stub") for l in ids})
    wrong = [(l["id"], w["name"]) for l in lessons for w in l.get("wrong_kernels", []) if not w.get("sanitize")]
    for lesson, name in wrong:  # the wrong kernel in its lesson, every other lesson solved
        classes.append({l: (name if l == lesson else "solution") for l in ids})
    rows, expected = [], {}
    for i in range(a.count):
        student = f"s{i:03d}"
        holds = classes[i % len(classes)]
        write_submission(os.path.join(out, "submissions", student), course, holds)
        rows.append([student, f"submissions/{student}", ""])
        expected[student] = holds

    if a.faults:
        first, name = ids[0], kernel_file(course, ids[0])
        solved = {l: "solution" for l in ids}
        write_submission(os.path.join(out, "submissions", "compile_error"), course, solved)
        with open(os.path.join(out, "submissions", "compile_error", "exercises", first, name), "a") as f:
            f.write("\nthis line is not C++;\n")
        rows.append(["compile_error", "submissions/compile_error", ""])
        expected["compile_error"] = dict(solved, **{first: "build_failed"})

        edits = os.path.join(out, "submissions", "edits_tests")
        write_submission(edits, course, {l: "stub" for l in ids})
        tests = os.path.join(edits, "grader", "lessons", first)
        os.makedirs(tests)
        for f in os.listdir(os.path.join(course, "grader", "lessons", first)):
            if f.endswith(".cu"):
                with open(os.path.join(tests, f), "w") as out_f:
                    out_f.write("// every test passes now\n")
        with open(os.path.join(edits, "notes.txt"), "w") as f:
            f.write("not part of the course\n")
        rows.append(["edits_tests", "submissions/edits_tests", ""])
        expected["edits_tests"] = {l: "stub" for l in ids}

        hangs = os.path.join(out, "submissions", "hangs")
        write_submission(hangs, course, solved)
        fifo = os.path.join(out, "never-written.fifo")
        os.mkfifo(fifo)
        with open(os.path.join(hangs, "exercises", first, name), "a") as f:
            f.write(f'\n#include "{fifo}"\n')
        rows.append(["hangs", "submissions/hangs", ""])
        expected["hangs"] = None

        rows.append(["no_folder", "submissions/does-not-exist", ""])
        expected["no_folder"] = None

        repo = os.path.join(out, "submissions", "from_git")
        write_submission(repo, course, {l: "stub" for l in ids})
        git = ["git", "-C", repo, "-c", "user.name=student", "-c", "user.email=s@example.org"]
        subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "stubs"], check=True)
        subprocess.run(git + ["checkout", "-q", "-b", "submitted"], check=True)
        write_submission(repo, course, solved)
        subprocess.run(git + ["commit", "-q", "-am", "solved"], check=True)
        subprocess.run(git + ["checkout", "-q", "main"], check=True)  # the working tree: stubs
        rows.append(["from_git", "submissions/from_git", "submitted"])
        expected["from_git"] = solved

    with open(os.path.join(out, "roster.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "submission", "ref"])
        w.writerows(rows)
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
    print(f"{len(rows)} submissions in {out}/roster.csv")


if __name__ == "__main__":
    main()
