#!/usr/bin/env bash
# Grades every variant of every ready lesson with `grader --variant V --json`, one report per
# run, for comparing two versions of the grader (tools/report_diff.py): the solution and the stub
# as whole lessons, each wrong kernel as the step it was written for (under --sanitize-tools T
# when the catalogue grades it under compute-sanitizer T, as `grader dev check` does), and the
# solution once more under --quick and under --sanitize (the other kinds of run). The same seed
# for every run, so that two trees draw the same inputs; memcheck on where a grade runs it.
#   tools/variant_reports.sh BUILD_DIR OUT_DIR [LESSON...]   (default: every ready lesson)
# BUILD_DIR is a test configuration (cmake --preset test): it has the --variant targets, which
# are all built first in one parallel build. Writes OUT_DIR/<lesson>/<run>.json and .rc, where
# <run> is the variant's name, or solution.quick and solution.sanitize. A run whose .rc file is
# already there is not run again, so an interrupted call resumes where it stopped; each run's
# wall seconds are appended to OUT_DIR/seconds.tsv.
set -uo pipefail
build=${1:?usage: tools/variant_reports.sh BUILD_DIR OUT_DIR [LESSON...]}
out=${2:?usage: tools/variant_reports.sh BUILD_DIR OUT_DIR [LESSON...]}
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t rows < <(python3 - "$src/lessons/course.json" "$@" <<'PY'
import json, sys
wanted = sys.argv[2:]
for l in json.load(open(sys.argv[1]))["lessons"]:
    if l["status"] != "ready" or (wanted and l["id"] not in wanted):
        continue
    print(l["id"], "solution", l["id"], "solution", "-")
    print(l["id"], "solution", l["id"], "solution.quick", "--quick")
    print(l["id"], "solution", l["id"], "solution.sanitize", "--sanitize")
    print(l["id"], "stub", l["id"], "stub", "-")
    for w in l.get("wrong_kernels", []):
        tool = w.get("sanitize")
        print(l["id"], w["name"], f"{l['id']}.{w['step']}", w["name"],
              f"--sanitize-tools={tool}" if tool else "-")
PY
)
[ ${#rows[@]} -gt 0 ] || { echo "variant_reports.sh: no ready lesson matches" >&2; exit 2; }
targets=$(printf '%s\n' "${rows[@]}" | awk '{print "grade_" $1 "__" $2}' | sort -u)
cmake --build "$build" --parallel --target $targets >/dev/null || { echo "build failed" >&2; exit 1; }
export GRADER_STATE_DIR=$(mktemp -d)
for row in "${rows[@]}"; do
  read -r lesson variant selection run mode <<<"$row"
  [ -e "$out/$lesson/$run.rc" ] && continue
  mkdir -p "$out/$lesson"
  started=$(date +%s.%N)
  extra=()
  [ "$mode" = - ] || extra=("$mode")
  "$build/grader" --variant "$variant" "$selection" "${extra[@]}" --json --no-build \
    --seed 20261202 >"$out/$lesson/$run.json" 2>/dev/null
  rc=$?
  echo "$lesson	$run	$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" \
    >>"$out/seconds.tsv"
  echo $rc >"$out/$lesson/$run.rc"
done
echo "$(printf '%s\n' "${rows[@]}" | wc -l) reports in $out"
