#!/usr/bin/env bash
# Probe for issue 19 (verdicts in seconds): where each lesson's grade spends its time, with the
# solutions in exercises/. Run on a machine with a GPU, in a scratch checkout (it copies solutions/
# into exercises/ and restores exercises/ from git at the end), after `tools/gpu-suite.sh build`
# (the test preset's build-test/, Ninja).
#   tools/probes/grade_seconds.sh OUT_DIR
#
# Per lesson (its first step for "step"): touch the exercise file, then the full grade, one step
# and --quick, each with its rebuild (as tools/verdict_times.sh); touch again, the rebuild alone
# (Ninja, its log's last lines kept); then one step, --quick and the full grade with --no-build.
# Every line the grader prints is time-stamped (stamp.py); the hidden tests' own records of the
# full and --quick grades (grader-runs/, each test's milliseconds and timing properties) are kept
# under OUT_DIR/LESSON/. Prints a Markdown table of the seconds, exit codes in brackets;
# tools/probes/largest_tests.py OUT_DIR then lists each lesson's slowest tests.
set -uo pipefail
out=$1; mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
here=$(dirname "$0")
b=build-test; g=$b/grader
mapfile -t ls < <(python3 -c "import json
for l in json.load(open('lessons/course.json'))['lessons']: print(l['id'])")
for l in "${ls[@]}"; do cp -r "solutions/$l/." "exercises/$l/"; done
for l in "${ls[@]}"; do $g $l --quick >/dev/null 2>&1; done  # every lesson built once first
s() { python3 "$here/stamp.py" "$@"; }
t() { tail -1 "$1" | awk '{print $2 " [" $4 "]"}'; }
echo "| lesson | full | step | quick | ninja | step nb | quick nb | full nb |"
for l in "${ls[@]}"; do
  o=$out/$l; mkdir -p $o
  step=$(python3 -c "import json,sys
for x in json.load(open('lessons/course.json'))['lessons']:
    if x['id']==sys.argv[1]: print(x['steps'][0]['name'])" $l)
  f=$(ls exercises/$l/*.cu | head -1)
  touch $f; s $g $l > $o/full.txt; cp -r $b/grader-runs/grade_$l $o/runs-full
  touch $f; s $g $l.$step > $o/step.txt
  touch $f; s $g $l --quick > $o/quick.txt; cp -r $b/grader-runs/grade_$l $o/runs-quick
  touch $f; s ninja -C $b grade_$l > $o/ninja.txt; tail -4 $b/.ninja_log >> $o/ninja.txt
  s $g $l.$step --no-build > $o/step-nb.txt
  s $g $l --quick --no-build > $o/quick-nb.txt
  s $g $l --no-build > $o/full-nb.txt
  echo "| $l | $(t $o/full.txt) | $(t $o/step.txt) | $(t $o/quick.txt) | $(grep exit $o/ninja.txt | awk '{print $2}') | $(t $o/step-nb.txt) | $(t $o/quick-nb.txt) | $(t $o/full-nb.txt) |"
done
git checkout -- exercises
