#!/usr/bin/env bash
# The GPU tier in one call (developers, on a machine with an NVIDIA GPU): build the test and
# exercises configurations from this checkout, run ctest (CPU tests + every variant's GPU test),
# grade the solutions N times, grade the untouched stub, and repeat the near-threshold wrong
# kernels. Logs and JSON reports go to $OUT (default ./out); a short table is printed last.
#   tools/gpu-suite.sh [repeats]        e.g. OUT=/tmp/out tools/gpu-suite.sh 5
set -uo pipefail
repeats=${1:-5}
out=${OUT:-$PWD/out}
mkdir -p "$out/logs"
log() { echo "== $*" | tee -a "$out/logs/suite.log"; }
arch=${CUDA_ARCH:-90}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

log "$(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo none)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv 2>&1 | tee "$out/logs/nvidia-smi.txt"
{ nvcc --version | tail -1; cmake --version | head -1; } 2>&1 | tee -a "$out/logs/suite.log"

log "configure + build (test preset, sm_$arch)"
t0=$SECONDS
cmake --preset test "${gen[@]}" -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$out/logs/configure-test.log" 2>&1 \
  || { tail -30 "$out/logs/configure-test.log"; exit 1; }
cmake --build build-test -j"$(nproc)" >"$out/logs/build-test.log" 2>&1 \
  || { grep -E "error|FAILED" "$out/logs/build-test.log" | head -30; exit 1; }
log "built in $((SECONDS - t0)) s"

log "ctest (CPU tests and every variant's GPU test)"
t0=$SECONDS
(cd build-test && ctest --output-on-failure -j1 >"$out/logs/ctest.log" 2>&1)
ctest_rc=$?
tail -15 "$out/logs/ctest.log"
log "ctest rc=$ctest_rc in $((SECONDS - t0)) s"

log "solutions: grade 07_transpose $repeats times"
for i in $(seq 1 "$repeats"); do
  ./build-test/grader --variant solution 07_transpose --json --quiet >"$out/solution-$i.json" 2>>"$out/logs/solution.log"
  echo "run $i rc=$?" | tee -a "$out/logs/suite.log"
done
./build-test/grader --variant solution 07_transpose --no-build --color never >"$out/logs/solution-text.txt" 2>&1
cat "$out/logs/solution-text.txt"

log "near-threshold wrong kernels, $repeats runs each"
./build-test/grader dev check --no-build --lesson 07_transpose --only unpadded_as_padded --repeat "$repeats" 2>&1 | tee "$out/logs/unpadded.log"
./build-test/grader dev check --no-build --lesson 07_transpose --only naive_as_tiled --repeat "$repeats" 2>&1 | tee "$out/logs/naive-as-tiled.log"
for v in unpadded_as_padded naive_as_tiled; do
  ./build-test/grader --variant "$v" 07_transpose --no-build --json --quiet >"$out/$v.json" 2>/dev/null
done

log "exercises configuration: the untouched stub, as a student sees it"
cmake --preset exercises "${gen[@]}" -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$out/logs/configure-exercises.log" 2>&1
cmake --build build --target grader >"$out/logs/build-exercises.log" 2>&1
./build/grader 07_transpose --color never >"$out/logs/stub.txt" 2>&1
echo "stub rc=$?" | tee -a "$out/logs/suite.log"
head -40 "$out/logs/stub.txt"

log "summary"
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import json, glob, sys, os
out = sys.argv[1]
rows = []
for f in sorted(glob.glob(os.path.join(out, "solution-*.json"))):
    try: r = json.load(open(f))
    except Exception as e: print(f, "unreadable", e); continue
    for l in r["lessons"]:
        for s in l["steps"]:
            sp = s["speed"] or {}
            rows.append((os.path.basename(f), s["step"], s["status"], sp.get("gbps", 0), sp.get("ceiling_gbps", 0),
                         100 * sp.get("fraction_of_ceiling", 0), sp.get("memcpy_gbps", 0), sp.get("pairs", 0)))
print(f"{'run':<16}{'step':<14}{'verdict':<8}{'GB/s':>8}{'ceiling':>9}{'%ceil':>8}{'memcpy':>8}{'pairs':>6}")
for r in rows: print(f"{r[0]:<16}{r[1]:<14}{r[2]:<8}{r[3]:>8.0f}{r[4]:>9.0f}{r[5]:>8.1f}{r[6]:>8.0f}{r[7]:>6}")
PY
exit $ctest_rc
