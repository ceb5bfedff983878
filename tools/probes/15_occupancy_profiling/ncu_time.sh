#!/usr/bin/env bash
# Probe for issue 19 (a full grade within 5 s): where lesson 15's profile step spends its time, and
# what fewer Nsight Compute metrics or other options would save. Needs a GPU whose counters ncu
# may read, and a build with the lesson's solution variant (the test preset's build-test/, or a
# COURSE_DEV_TARGETS=ON tree).
#   tools/probes/15_occupancy_profiling/ncu_time.sh BUILD_DIR [RUNS]      (RUNS default 3)
#
# Each variant runs RUNS times; printed: the median wall time (s), the replay passes ncu reported
# per kernel, and for the variants that collect them, the judged metrics of both kernels, so that a
# cheaper variant can be compared with what the profile step reads now. Variants:
#   program        the profiled cases alone, no ncu (the process, the CUDA context, the two cases)
#   ncu_nothing    ncu with a kernel filter that matches nothing (ncu's start and the program)
#   now            what the profile step runs (course::profile::ncu_csv_args, harness/src/ncu.cpp):
#                  every metric of course::profile::metric_names(), CSV to --log-file
#   judged_only    only the metrics judge_counters() reads (grader/lessons/15_occupancy_profiling/
#                  tests.cu): registers, achieved and theoretical occupancy, load sectors and
#                  requests, shared-memory bank conflicts and shared load instructions
#   cache_none     `now` with --cache-control none (no cache flush before each replay pass)
#   small_case     `now` with block_size's 1,000,003-element case instead of 16,777,217 (the
#                  occupancy limits were calibrated on the larger one: compare the figures)
#   after_go       what the profile step waits for after its "go": `now`'s ncu started as the step
#                  starts it (--gpu-held-by-caller --wait-for-go FILE, the file locked by the probe),
#                  told go 3 s later (ncu's own start is over by then, as it is by the time the
#                  grade reaches the step); printed: seconds from go to ncu's "Connected to process"
#                  line (negative: before go, as the program now creates its context before it
#                  waits), to the first test's start (GoogleTest's "[ RUN" line), and to ncu's exit
# Logs go to $OUT (default /tmp/ncu_time); nothing in the repository is changed.
set -uo pipefail
build=${1:?usage: tools/probes/15_occupancy_profiling/ncu_time.sh BUILD_DIR [RUNS]}
runs=${2:-3}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${OUT:-/tmp/ncu_time}
mkdir -p "$out"
bin=$build/bin/grade_15_occupancy_profiling__solution
[ -x "$bin" ] || { echo "no $bin: build the test preset (or COURSE_DEV_TARGETS=ON) first" >&2; exit 2; }
ncu=$(command -v ncu || true)
[ -z "$ncu" ] && [ -x /usr/local/cuda/bin/ncu ] && ncu=/usr/local/cuda/bin/ncu
[ -n "$ncu" ] || { echo "ncu not found on PATH nor in /usr/local/cuda/bin" >&2; exit 2; }

# The metric list is read from the grader's source, so the probe asks what the step asks.
all_metrics=$(sed -n '/metric_names() {/,/};/p' "$root/grader/core/src/profile.cpp" |
  grep -o '"[a-z_0-9.]*"' | tr -d '"' | paste -sd, -)
[ -n "$all_metrics" ] || { echo "cannot read the metric list from grader/core/src/profile.cpp" >&2; exit 2; }
judged=launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
judged+=,sm__maximum_warps_per_active_cycle_pct
judged+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
judged+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
judged+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum
cases="registers/Correct.n_1000003:block_size/Correct.n_16777217"
small="registers/Correct.n_1000003:block_size/Correct.n_1000003"
kernels="regex:mix_channels|segment_scan"

# variant NAME CASES NCU_ARGS...: RUNS timed runs; the last run's log is $out/NAME.log.
variant() {
  local name=$1 filter=$2
  shift 2
  local times=() i t0 t1 rc
  for ((i = 0; i < runs; i++)); do
    rm -f "$out/$name.csv"
    t0=$(date +%s.%N)
    if [ $# -eq 0 ]; then
      "$bin" --seed 1 --gtest_filter="$filter" >"$out/$name.log" 2>&1
    else
      "$ncu" "$@" "$bin" --seed 1 --gtest_filter="$filter" >"$out/$name.log" 2>&1
    fi
    rc=$?
    t1=$(date +%s.%N)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')")
    [ "$rc" = 0 ] || echo "  $name: exit code $rc (see $out/$name.log)"
  done
  local median passes
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  passes=$(cat "$out/$name.log" "$out/$name.csv" 2>/dev/null | grep -o '[0-9]* passes' | sort -u | paste -sd' ' -)
  printf '%-12s %6s s  (runs: %s)  %s\n' "$name" "$median" "${times[*]}" "${passes:+replay: $passes}"
}

# judged_values NAME: the judged metrics of both kernels in NAME's CSV (the last run), a line each.
judged_values() {
  [ -s "$out/$1.csv" ] || return 0
  python3 - "$out/$1.csv" "$judged" "$1" <<'PY'
import csv, sys
path, wanted, name = sys.argv[1], set(sys.argv[2].split(",")), sys.argv[3]
rows = [l for l in open(path, errors="replace") if l.startswith('"')]  # not ncu's ==PROF== lines
for r in csv.DictReader(rows):
    if r.get("Metric Name") in wanted and r.get("Kernel Name", "").startswith(("mix_channels", "segment_scan")):
        print(f'    {name:12} {r["ID"]:>3} {r["Kernel Name"].split("(")[0]:13} {r["Metric Name"]:58} '
              f'{r["Metric Value"]} {r.get("Metric Unit", "")}')
PY
}

"$bin" --seed 1 --gtest_filter="$cases" >"$out/first.log" 2>&1
case $? in
0) ;;
3) echo "no usable CUDA GPU here (the test binary exited with 3): nothing to probe" >&2; exit 3 ;;
*) echo "the profiled cases fail without ncu: see $out/first.log" >&2; exit 1 ;;
esac
echo "ncu: $("$ncu" --version | tail -1); GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
echo "variant      median          runs / replay passes per kernel"
variant program "$cases"
variant ncu_nothing "$cases" --kernel-name 'regex:^no_kernel_has_this_name$'
common=(--clock-control none --kernel-name "$kernels" --csv --page details)
variant now "$cases" "${common[@]}" --metrics "$all_metrics" --log-file "$out/now.csv"
variant judged_only "$cases" "${common[@]}" --metrics "$judged" --log-file "$out/judged_only.csv"
variant cache_none "$cases" "${common[@]}" --cache-control none --metrics "$all_metrics" --log-file "$out/cache_none.csv"
variant small_case "$small" "${common[@]}" --metrics "$all_metrics" --log-file "$out/small_case.csv"

# after_go: the go file's protocol is harness::StartedNcu's and harness::wait_for_go's (harness/src/
# ncu.cpp): the starter holds an exclusive flock, writes "go\n" at offset 0 and unlocks.
python3 - "$out" "$runs" "$ncu" "$bin" "$cases" "$kernels" "$all_metrics" <<'PY'
import fcntl, os, statistics, subprocess, sys, threading, time
out, runs, ncu, binary, cases, kernels, metrics = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
go = os.path.join(out, "go")
intervals = {"connected": [], "first test": [], "exit": []}
for run in range(runs):
    fd = os.open(go, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    cmd = [ncu, "--clock-control", "none", "--kernel-name", kernels, "--csv", "--page", "details",
           "--metrics", metrics, binary, "--seed", "1", "--gpu-held-by-caller",
           f"--gtest_filter={cases}", "--wait-for-go", go]
    lines = []
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fd not inherited
    def read():
        for line in p.stdout:
            lines.append((time.monotonic(), line))
    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(3)
    t_go = time.monotonic()
    os.pwrite(fd, b"go\n", 0)
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    rc = p.wait()
    t_exit = time.monotonic()
    reader.join()
    with open(os.path.join(out, "after_go.log"), "w") as log:
        log.writelines(f"+{t - t_go:6.2f} {l}" for t, l in lines)
    if rc != 0:
        print(f"  after_go: exit code {rc} (see {out}/after_go.log)")
    first = lambda word: next((t - t_go for t, l in lines if l.startswith("==PROF==") and word in l), float("nan"))
    intervals["connected"].append(first("Connected"))
    run_lines = (t - t_go for t, l in lines if l.startswith("[ RUN"))
    intervals["first test"].append(next(run_lines, float("nan")))
    intervals["exit"].append(t_exit - t_go)
print("after_go     seconds after go, median (runs): " + "; ".join(
    f"{k} {statistics.median(v):.2f} ({' '.join(f'{x:.2f}' for x in v)})" for k, v in intervals.items()))
PY
echo "judged metrics (variant, launch ID, kernel, metric, value and unit as ncu's CSV has them):"
for v in now judged_only cache_none small_case; do judged_values "$v"; done
