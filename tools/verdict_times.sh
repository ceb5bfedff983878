#!/usr/bin/env bash
# Edit-to-verdict times, as a student meets them (the course's targets: a lesson's full grade, memcheck
# included, within 5 s on our H200; one step and --quick within 2 s). For each lesson: touch the
# kernel files in exercises/ (the one-file edit), then time
#   grader LESSON          the full grade: rebuild, hidden tests, timing, memcheck
#   grader LESSON.STEP     one step (the lesson's first), after another touch
#   grader LESSON --quick  after another touch: no memcheck, no large cases
#   rebuild                after another touch, the rebuild alone (cmake --build of the
#                          lesson's test target, with the build tree's own CMake, as the grader
#                          runs it), the part of each figure above that is the compiler's
#   step / quick / full,   the same one step, --quick and full grade with --no-build: the
#   no build               grader's own part, what is left once the compiler is done (nvcc alone
#                          takes 0.9-1.0 s on one file, docs/measured/H200.md, sixteenth session;
#                          a lesson built with device images compiles device code alone, 0.6-0.9 s
#                          in all: cmake/CourseDeviceImage.cmake, twenty-third session)
# and print a Markdown table (seconds, exit code in brackets). Run it in a checkout whose
# exercises/ hold solved kernels (e.g. `cp -r solutions/. exercises/` in a scratch copy) to time
# passing verdicts; with the stubs it times failing ones. With RECORDS=DIR, the hidden tests' own
# records of each lesson's full grade and --quick (BUILD_DIR/grader-runs/grade_LESSON: every test's
# milliseconds, pairs and figures) are kept in DIR/LESSON/runs-full and runs-quick;
# `tools/probes/largest_tests.py DIR` then lists each lesson's slowest tests. With REPEATS=N (default
# 1), each cell is the median of N runs (each after its own touch), followed by their range: on our
# H200 one run of the same cell varied by up to 0.6 s from one device call to the next
# (docs/measured/H200.md, twenty-sixth session), as much as some lessons' distance from a target.
#   tools/verdict_times.sh BUILD_DIR [LESSON...]     (default: every ready lesson)
set -uo pipefail
build=${1:?usage: tools/verdict_times.sh BUILD_DIR [LESSON...]}
shift
grader=$build/grader
[ -x "$grader" ] || { echo "no grader at $grader: build it first" >&2; exit 2; }
if [ $# -gt 0 ]; then
  lessons=("$@")
  # Whole ids only: the grader takes "07" too, but the files touched below are named by the id.
  for l in "${lessons[@]}"; do
    [ -d "exercises/$l" ] || { echo "$l: not a lesson id (e.g. 07_transpose)" >&2; exit 2; }
  done
else
  mapfile -t lessons < <(python3 -c "import json
for l in json.load(open('lessons/course.json'))['lessons']:
    if l['status'] == 'ready': print(l['id'])")
fi
first_step() {
  python3 -c "import json,sys
for l in json.load(open('lessons/course.json'))['lessons']:
    if l['id'] == sys.argv[1]: print(l['steps'][0]['name'])" "$1"
}
repeats=${REPEATS:-1}
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "REPEATS must be a whole number from 1 up" >&2; exit 2; }
# timed LOG EDIT CMD...: runs CMD $repeats times (after a touch of the lesson's kernel files each
# time when EDIT is 1) and prints "median [worst exit code]", then " (min-max)" when it ran more
# than once. The lesson is $l.
timed() {
  local log=$1 edit=$2; shift 2
  local t0 t1 rc worst=0 times=() i
  for ((i = 0; i < repeats; i++)); do
    [ "$edit" = 1 ] && touch exercises/"$l"/*.cu
    t0=$(date +%s.%N)
    "$@" >"$log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    [ "$rc" -gt "$worst" ] && worst=$rc
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v rc="$worst" '
    { t[NR] = $1 }
    END {
      m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
      printf "%.1f [%d]", m, rc
      if (NR > 1) printf " (%.1f-%.1f)", t[1], t[NR]
    }'
}
# The rebuild is timed with the CMake the grader runs (the build tree's own, CMAKE_COMMAND): on
# our H200's image the `cmake` on PATH is a Python wrapper that adds about 0.2 s to every call.
cmake_bin=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null)
[ -x "$cmake_bin" ] || cmake_bin=cmake
logs=${OUT:-/tmp}/verdict-logs
mkdir -p "$logs"
# Every lesson built once first: the table times an edit, not the first build.
for l in "${lessons[@]}"; do "$grader" "$l" --quick >/dev/null 2>&1; done
keep_records() {  # keep_records LESSON KIND: the last grade's records under $RECORDS/LESSON/runs-KIND
  [ -n "${RECORDS:-}" ] || return 0
  mkdir -p "$RECORDS/$1" && rm -rf "$RECORDS/$1/runs-$2" &&
    cp -r "$build/grader-runs/grade_$1" "$RECORDS/$1/runs-$2"
}
echo "| lesson | full grade | one step | --quick | rebuild | one step, no build | --quick, no build | full, no build |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for l in "${lessons[@]}"; do
  step=$(first_step "$l")
  full=$(timed "$logs/$l.full.log" 1 "$grader" "$l")
  keep_records "$l" full
  one=$(timed "$logs/$l.step.log" 1 "$grader" "$l.$step")
  quick=$(timed "$logs/$l.quick.log" 1 "$grader" "$l" --quick)
  keep_records "$l" quick
  rebuild=$(timed "$logs/$l.rebuild.log" 1 "$cmake_bin" --build "$build" --target "grade_$l")
  one_nb=$(timed "$logs/$l.step-nobuild.log" 0 "$grader" "$l.$step" --no-build)
  quick_nb=$(timed "$logs/$l.quick-nobuild.log" 0 "$grader" "$l" --quick --no-build)
  full_nb=$(timed "$logs/$l.full-nobuild.log" 0 "$grader" "$l" --no-build)
  echo "| $l | $full | $one ($step) | $quick | $rebuild | $one_nb | $quick_nb | $full_nb |"
done
