#!/usr/bin/env bash
# The GPU tier (developers, on a machine with an NVIDIA GPU), in phases so that each fits one
# device call. Logs and JSON go to $OUT (default ./out); a short summary is printed last.
#   tools/gpu-suite.sh PHASE...     phases, in order given:
#     build      configure + build the test preset (all variants), sm_$CUDA_ARCH (default 90)
#     cpu        ctest without the GPU-labelled tests
#     check      grader dev check: every solution, stub and wrong kernel once
#     repeat     solutions 5x and near-threshold wrong kernels 3x: verdicts must not flip
#     recheck    every solution once (all steps, extensions too), figures summarized
#     catalogue  the wrong kernels only compute-sanitizer catches
#     profile    grader profile 07 and `ncu --set basic` on the whole bench (solutions)
#     sanitize   every solution under compute-sanitizer memcheck, racecheck, synccheck
#     lab        solutions preset: bench (all tables, --write-profile), grader profile 07,
#                ncu --set basic on the whole bench (timed), the untouched stubs as students see them
set -uo pipefail
out=${OUT:-$PWD/out}
mkdir -p "$out/logs"
arch=${CUDA_ARCH:-90}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
rc_all=0
note() { echo "== $*" | tee -a "$out/logs/suite.log"; }
step() {  # step NAME CMD...: runs CMD, logs to $out/logs/NAME.log, records its exit code
  local name=$1; shift
  local t0=$SECONDS
  "$@" >"$out/logs/$name.log" 2>&1
  local rc=$?
  note "$name rc=$rc ($((SECONDS - t0)) s)"
  return $rc
}
lessons=$(python3 -c "import json;print(' '.join(l['id'] for l in json.load(open('lessons/course.json'))['lessons'] if l['status']=='ready'))")

note "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader)"
for phase in "$@"; do
  case $phase in
  build)
    step configure-test cmake --preset test "${gen[@]}" -DCMAKE_CUDA_ARCHITECTURES="$arch" || exit 1
    step build-test cmake --build build-test -j"$(nproc)" || { grep -E "error|FAILED" "$out/logs/build-test.log" | head -30; exit 1; } ;;
  cpu)
    step ctest-cpu bash -c "cd build-test && ctest -LE gpu -j4 --output-on-failure" || rc_all=1
    tail -3 "$out/logs/ctest-cpu.log" ;;
  check)
    step dev-check ./build-test/grader dev check --no-build || rc_all=1
    grep -E "^(ok|DRIFT|skip)" "$out/logs/dev-check.log" ;;
  repeat)
    for l in $lessons; do
      step "repeat-$l-solution" ./build-test/grader dev check --no-build --lesson "$l" --only solution --repeat 5 || rc_all=1
      grep -E "^(ok|DRIFT)" "$out/logs/repeat-$l-solution.log"
    done
    for v in 07_transpose:unpadded_as_padded 07_transpose:naive_as_tiled 06_coalescing:channel_fastest 06_coalescing:row_in_threadidx_x; do
      l=${v%%:*}; w=${v##*:}
      grep -q "\"$w\"" lessons/course.json || continue
      step "repeat-$l-$w" ./build-test/grader dev check --no-build --lesson "$l" --only "$w" --repeat 3 || rc_all=1
      grep -E "^(ok|DRIFT)" "$out/logs/repeat-$l-$w.log"
    done
    for l in $lessons; do ./build-test/grader --variant solution "$l" --no-build --json --quiet >"$out/$l-solution.json"; done ;;
  recheck)  # what changed after the last full run: sanitizer entries, extensions, 06 gates
    for l in $lessons; do
      ./build-test/grader --variant solution "$l" --no-build --json --quiet >"$out/$l-solution.json"
      note "solution-$l rc=$?"
      python3 -c "import json,sys
for l in json.load(open(sys.argv[1]))['lessons']:
  for s in l['steps']:
    sp=s['speed'] or {}
    print(f\"  {s['step']:<15}{s['status']:<8}{sp.get('gbps',0):>7.0f} GB/s {100*sp.get('fraction_of_ceiling',0):6.1f}% of {sp.get('ceiling_gbps',0):.0f}  {s['reason']}\")" "$out/$l-solution.json"
    done
    ;;
  catalogue)  # the wrong kernels that only compute-sanitizer can catch
    # every manifest entry with a "sanitize" tool, so new ones are checked without editing this
    # (read from a process substitution, not a pipe, so rc_all survives the loop)
    while read -r l w; do
      step "check-$w" ./build-test/grader dev check --no-build --lesson "$l" --only "$w" || rc_all=1
      grep -E "^(ok|DRIFT|skip)" "$out/logs/check-$w.log"
    done < <(python3 -c "import json
for l in json.load(open('lessons/course.json'))['lessons']:
  for w in l.get('wrong_kernels', []):
    if w.get('sanitize'): print(l['id'], w['name'])") ;;
  profile)  # grader profile and the lab's own `ncu --set basic ./bench`, on the solutions
    step configure-solutions cmake --preset solutions "${gen[@]}" -DCMAKE_CUDA_ARCHITECTURES="$arch"
    step build-solutions cmake --build build-solutions --target grader bench -j"$(nproc)" || exit 1
    step profile-07 ./build-solutions/grader profile 07_transpose
    cat "$out/logs/profile-07.log"
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
    step ncu-basic-whole-bench timeout 200 "$ncu" --clock-control none --set basic ./build-solutions/bench
    grep -E "detected|--once" "$out/logs/ncu-basic-whole-bench.log"
    grep -c "==PROF== Profiling" "$out/logs/ncu-basic-whole-bench.log" | sed 's/^/kernel launches profiled: /' ;;
  sanitize)
    for l in $lessons; do
      step "sanitize-$l" ./build-test/grader --variant solution "$l" --no-build --sanitize --color never || rc_all=1
      grep -E "PASS|FAIL" "$out/logs/sanitize-$l.log"
    done ;;
  lab)
    step configure-solutions cmake --preset solutions "${gen[@]}" -DCMAKE_CUDA_ARCHITECTURES="$arch"
    step build-solutions cmake --build build-solutions --target grader bench -j"$(nproc)" || exit 1
    cp PROFILE.md "$out/logs/PROFILE.filled.md"
    step bench ./build-solutions/bench --write-profile "$out/logs/PROFILE.filled.md"
    cat "$out/logs/bench.log"
    step profile-07 ./build-solutions/grader profile 07_transpose --write-profile "$out/logs/PROFILE.filled.md"
    cat "$out/logs/profile-07.log"
    step profile-06 ./build-solutions/grader profile 06_coalescing
    cat "$out/logs/profile-06.log"
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
    step ncu-basic-whole-bench timeout 120 "$ncu" --clock-control none --set basic ./build-solutions/bench
    grep -cE "^  [a-z_:]+.*\(" "$out/logs/ncu-basic-whole-bench.log" | sed 's/^/kernels profiled: /'
    step configure-exercises cmake --preset exercises "${gen[@]}" -DCMAKE_CUDA_ARCHITECTURES="$arch"
    step build-exercises cmake --build build --target grader -j"$(nproc)"
    for l in $lessons; do
      step "stub-$l" ./build/grader "$l" --color never
      head -30 "$out/logs/stub-$l.log"
    done ;;
  *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
exit $rc_all
