#!/usr/bin/env bash
# Edit-to-verdict times, as a student meets them (the course's targets: a lesson's full grade, memcheck
# included, within 5 s on our H200; one step and --quick within 2 s). For each lesson: touch the
# kernel files in exercises/ (the one-file edit), then time
#   grader LESSON          the full grade: rebuild, hidden tests, timing, memcheck
#   grader LESSON.STEP     one step (the lesson's first), after another touch
#   grader LESSON --quick  after another touch: no memcheck, no cases of several GiB
#   rebuild                after another touch, the rebuild alone (cmake --build of the
#                          lesson's test target), the part of each figure above that is the
#                          compiler's
#   step / quick, no build the same one step and --quick with --no-build: the grader's own part,
#                          what is left once the compiler is done (nvcc alone takes 0.7-1.0 s on
#                          one file, docs/measured/H200.md, fifteenth session)
# and print a Markdown table (seconds, exit code in brackets). Run it in a checkout whose
# exercises/ hold solved kernels (e.g. `cp -r solutions/. exercises/` in a scratch copy) to time
# passing verdicts; with the stubs it times failing ones.
#   tools/verdict_times.sh BUILD_DIR [LESSON...]     (default: every ready lesson)
set -uo pipefail
build=${1:?usage: tools/verdict_times.sh BUILD_DIR [LESSON...]}
shift
grader=$build/grader
[ -x "$grader" ] || { echo "no grader at $grader: build it first" >&2; exit 2; }
if [ $# -gt 0 ]; then
  lessons=("$@")
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
timed() {  # timed LOG CMD...: prints "seconds [rc]"
  local log=$1; shift
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v rc="$rc" 'BEGIN { printf "%.1f [%d]", b - a, rc }'
}
logs=${OUT:-/tmp}/verdict-logs
mkdir -p "$logs"
# Every lesson built once first: the table times an edit, not the first build.
for l in "${lessons[@]}"; do "$grader" "$l" --quick >/dev/null 2>&1; done
echo "| lesson | full grade | one step | --quick | rebuild | one step, no build | --quick, no build |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for l in "${lessons[@]}"; do
  step=$(first_step "$l")
  touch exercises/"$l"/*.cu
  full=$(timed "$logs/$l.full.log" "$grader" "$l")
  touch exercises/"$l"/*.cu
  one=$(timed "$logs/$l.step.log" "$grader" "$l.$step")
  touch exercises/"$l"/*.cu
  quick=$(timed "$logs/$l.quick.log" "$grader" "$l" --quick)
  touch exercises/"$l"/*.cu
  rebuild=$(timed "$logs/$l.rebuild.log" cmake --build "$build" --target "grade_$l")
  one_nb=$(timed "$logs/$l.step-nobuild.log" "$grader" "$l.$step" --no-build)
  quick_nb=$(timed "$logs/$l.quick-nobuild.log" "$grader" "$l" --quick --no-build)
  echo "| $l | $full | $one ($step) | $quick | $rebuild | $one_nb | $quick_nb |"
done
