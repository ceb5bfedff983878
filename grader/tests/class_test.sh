#!/usr/bin/env bash
# `grader class` end to end: a generated roster (tools/class_roster.py: solutions, stubs, wrong
# kernels, a compile error, a submission that edits a hidden test, one whose compile hangs, a
# missing folder, a git repository at a branch) graded on lessons 01 and 02, first by the local
# engine, then by a real one-node Slurm (grader/tests/slurm_cluster.sh) reusing its work trees.
# Every roster row must be present in both gradebooks, rows must agree between the engines, the
# hanging task must be killed by its time limit and say so, and no submission file may change.
# Without a GPU every graded row says so; with one, solved lessons pass and stubs fail.
#
#   class_test.sh GRADER SOURCE_DIR WORK_DIR
# Exit code 77 (ctest: skipped) without Slurm, munge or root, with the reason.
set -euo pipefail
grader=$1
source_dir=$2
work=$3
here=$(dirname "$(realpath "$0")")

"$here/slurm_cluster.sh" stop "$work/slurm" 2>/dev/null || true
rm -rf "$work/class" "$work/local" "$work/slurm-class"
mkdir -p "$work"
trap '"$here/slurm_cluster.sh" stop "$work/slurm"' EXIT
set +e
cluster=$("$here/slurm_cluster.sh" start "$work/slurm")
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  echo "$cluster"
  exit "$rc"
fi
eval "$cluster"

python3 "$source_dir/tools/class_roster.py" --course "$source_dir" --out "$work/class" \
  --lessons 01,02 --count 14 --faults
grep -v '^hangs,' "$work/class/roster.csv" >"$work/class/roster-local.csv"
submissions_before=$(cd "$work/class/submissions" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
export GRADER_CLASS_SECRET="ci-secret-$(date +%s)-0123456789"
lessons=--lessons=01_hello_threads,02_vector_add

echo "== local engine (builds the work trees)"
set +e
"$grader" class grade "$work/class/roster-local.csv" -o "$work/local" $lessons --work "$work/trees"
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "expected exit code 1 (a row is not graded: no_folder), got $rc"; exit 1; }

echo "== Slurm engine: a job array on the same work trees, one minute per task"
set +e
"$grader" class grade "$work/class/roster.csv" -o "$work/slurm-class" $lessons --work "$work/trees" \
  --engine slurm --time 1 --max-running 2 --cpus-per-task 1 --wait
rc=$?
set -e
cat "$work/slurm-class/slurm/grade.sbatch"
[ "$rc" -eq 1 ] || { echo "expected exit code 1 (rows not graded: hangs, no_folder), got $rc"; exit 1; }

echo "== collect again: the same gradebook"
cp "$work/slurm-class/gradebook.json" "$work/gradebook-first.json"
"$grader" class collect "$work/slurm-class" --quiet >/dev/null || true
cmp "$work/gradebook-first.json" "$work/slurm-class/gradebook.json"

submissions_after=$(cd "$work/class/submissions" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
[ "$submissions_before" = "$submissions_after" ] || { echo "a submission's files changed"; exit 1; }

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
expected = json.load(open(f"{work}/class/expected.json"))
local = {r["student"]: r for r in json.load(open(f"{work}/local/gradebook.json"))["rows"]}
slurm = {r["student"]: r for r in json.load(open(f"{work}/slurm-class/gradebook.json"))["rows"]}
problems = []
def check(ok, what):
    if not ok:
        problems.append(what)
check(set(slurm) == set(expected), f"Slurm gradebook rows {sorted(slurm)} != roster {sorted(expected)}")
check(set(local) == set(expected) - {"hangs"}, "local gradebook rows differ from its roster")
for student, row in local.items():
    check(row == slurm.get(student), f"{student}: the local and Slurm rows differ")
check(slurm["hangs"]["status"] == "not_graded" and "time limit" in slurm["hangs"]["why"],
      f"hangs: {slurm['hangs']['why']}")
check(slurm["no_folder"]["status"] == "not_graded", "no_folder is graded")
check(any("tests.cu (differs from the course)" in f for f in slurm["edits_tests"]["submission"]["ignored"]),
      "edits_tests: the edited hidden test is not reported")
gpu = not any(c["status"] == "no_gpu" for r in slurm.values() for c in r["steps"].values())
for student, holds in expected.items():
    row = slurm[student]
    if holds is None:
        continue
    for column, cell in row["steps"].items():
        lesson = column.split(".")[0]
        if holds[lesson] == "build_failed":
            check(cell["status"] == "build_failed", f"{student} {column}: {cell['status']}, expected build_failed")
        elif not gpu:
            check(cell["status"] == "no_gpu", f"{student} {column}: {cell['status']} without a GPU")
        elif holds[lesson] == "solution" and not cell["optional"]:
            check(cell["status"] == "pass", f"{student} {column}: the solution did not pass")
        elif holds[lesson] == "stub":
            check(cell["status"] != "pass", f"{student} {column}: the stub passed")
    if not gpu:
        check(row["status"] == "incomplete" and "no usable CUDA GPU" in row["why"],
              f"{student}: {row['status']}: {row['why']}")
for p in problems:
    print("FAIL:", p)
print(f"{len(slurm)} rows checked ({'graded on a GPU' if gpu else 'no GPU here: every graded row says so'})")
sys.exit(1 if problems else 0)
PY
cat "$work/slurm-class/summary.md"
