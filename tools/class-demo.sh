#!/usr/bin/env bash
# On a GPU machine: grades a generated class with `grader class grade` (local engine, every GPU),
# then grades each (lesson, kernel) of it alone with `grader --variant` and compares every row's
# step verdicts with those; prints a table, students per hour per GPU and a 300-student estimate.
#
#   tools/class-demo.sh [STUDENTS] [LESSONS] [extra `grader class grade` options]
#   e.g. tools/class-demo.sh 40 01_hello_threads,02_vector_add --cuda-architectures 90
# Both gradings run with --quick (no memcheck: the comparison is of the tests and gates, and it
# keeps one GPU call short).
# Uses build-test/ (the test configuration: it has the --variant targets), configured if absent.
# Submissions come from solutions/, the committed stubs and grader/lessons/*/wrong/
# (tools/class_roster.py). Everything it writes is under ${DEMO_DIR:-/tmp/class-demo}.
set -euo pipefail
students=${1:-40}
lessons=${2:-01_hello_threads,07_transpose}
shift $(( $# > 2 ? 2 : $# ))
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build-test
demo=${DEMO_DIR:-/tmp/class-demo}
rm -rf "$demo"
mkdir -p "$demo"

[ -f "$build/CMakeCache.txt" ] || (cd "$src" && cmake --preset test >/dev/null)
cmake --build "$build" --target grader grader-instructor >/dev/null
# DEMO_FAULTS=1 adds class_roster.py's fault submissions (a compile error, a compile that never
# ends, a missing folder, edited tests, a git ref): each must affect only its own row. Give
# `--student-timeout 300` then, or the never-ending compile waits out the default hour.
python3 "$src/tools/class_roster.py" --course "$src" --out "$demo/class" --lessons "$lessons" \
  --count "$students" $([ "${DEMO_FAULTS:-0}" = 1 ] && echo --faults)
export GRADER_CLASS_SECRET=${GRADER_CLASS_SECRET:-"demo-secret-$(date +%s%N)"}
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)

start=$(date +%s.%N)
set +e
"$build/grader" class grade "$demo/class/roster.csv" -o "$demo/out" --lessons "$lessons" --quick "$@" \
  > "$demo/class-grade.log" 2>&1
rc=$?
set -e
end=$(date +%s.%N)
tail -n 40 "$demo/class-grade.log"
echo "grader class grade: exit code $rc, $(python3 -c "print(round($end - $start))") s wall"

# Each (lesson, kernel) alone, once: the variant targets built together first (all the cores).
python3 - "$demo" "$lessons" > "$demo/variants.txt" <<'PY'
import json, sys
demo, lessons = sys.argv[1], sys.argv[2].split(",")
pairs = sorted({(l, v) for holds in json.load(open(f"{demo}/class/expected.json")).values() if holds
                for l, v in holds.items() if v != "build_failed"})
for l, v in pairs:
    print(l, v)
PY
targets=$(awk '{print "grade_" $1 "__" $2}' "$demo/variants.txt")
cmake --build "$build" --target $targets >/dev/null
while read -r lesson variant; do
  "$build/grader" --variant "$variant" "$lesson" --json --no-build --quick \
    > "$demo/alone-$lesson-$variant.json" 2>/dev/null || true
done < "$demo/variants.txt"

python3 - "$demo" "$start" "$end" "$gpus" <<'PY'
import json, sys
demo, start, end, gpus = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), max(1, int(sys.argv[4]))
expected = json.load(open(f"{demo}/class/expected.json"))
rows = {r["student"]: r for r in json.load(open(f"{demo}/out/gradebook.json"))["rows"]}
mismatches, compared = [], 0
print(f"{'student':10} {'score':>7}  lessons (what the submission holds: verdicts class / alone)")
for student, holds in expected.items():
    row = rows[student]
    line = []
    if holds is None:  # a fault that leaves nothing to grade: its row must say why, alone
        compared += 1
        if row["status"] != "not_graded":
            mismatches.append(f"{student}: expected a not-graded row, got {row['status']}")
        print(f"{student:10} {row['status']:>7}  {row['why'][:80]}")
        continue
    for lesson, variant in holds.items():
        if variant == "build_failed":  # this lesson must fail to compile, the others grade
            compared += 1
            cells = [c["status"] for k, c in row["steps"].items() if k.startswith(lesson + ".")]
            if any(c != "build_failed" for c in cells):
                mismatches.append(f"{student} {lesson}: expected build_failed cells, got {cells}")
            line.append(f"{lesson[:2]} {'does not compile':22} {'b' * len(cells)}")
            continue
        alone = json.load(open(f"{demo}/alone-{lesson}-{variant}.json"))["lessons"][0]
        alone_steps = {s["step"]: s["status"] for s in alone.get("steps", [])}
        mine = "".join("P" if c["status"] == "pass" else "." for k, c in row["steps"].items() if k.startswith(lesson + "."))
        theirs = "".join("P" if alone_steps.get(k.split(".", 1)[1]) == "pass" else "." for k in row["steps"] if k.startswith(lesson + "."))
        compared += 1
        if mine != theirs:
            mismatches.append(f"{student} {lesson} ({variant}): class {mine}, alone {theirs}")
        line.append(f"{lesson[:2]} {variant[:22]:22} {mine}/{theirs}")
    print(f"{student:10} {row['score']:>3}/{row['max_score']:<3}  " + "  ".join(line))
hours = (end - start) / 3600
rate = len(rows) / hours / gpus
print(f"\n{compared} (student, lesson) verdicts compared with grading alone: {len(mismatches)} differ")
for m in mismatches:
    print("  DIFFERS", m, "(a speed step near its gate can flip between runs: grade it again alone)")
print(f"{len(rows)} students in {end - start:.0f} s on {gpus} GPU(s), work trees built from scratch included: "
      f"{rate:.0f} students per hour per GPU; 300 students: about {300 / rate / gpus * 60:.0f} minutes on {gpus} GPU(s)")
PY
