#!/usr/bin/env bash
# Runs issue 11's synthetic workloads (8 domains x 5 tasks, k = 3, both modes) with ./h2beam bench and prints, per
# workload, the exact command and the bench's measurement lines (bounds, wall, in flight, CPU, files, memory, load).
# Usage: scripts/bench-synthetic.sh [workload ...]
#   workloads: L500-limit2 L500-limit16 L50 L0 (default: all four, in that order)
#              L0-marginal: L0 at 8 x 5 and at 8 x 10 tasks; prints h2beam's CPU per run (fixed) and per added task
#   extra options for every run: BENCH_OPTS="--runner=FlinkRunner --flinkMaster=[local] --parallelism=16" ...
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/h2beam" --help >/dev/null   # build first, outside the measurement
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
workload=(--domains=8 --tasksPerDomain=5 --k=3 --modes=both)

options() {
  case "$1" in
    L500-limit2) echo "--executorLatencyMs=500 --sessionLatencyMs=500 --sessionLimit=2 --rolloutLimit=16" ;;
    L500-limit16) echo "--executorLatencyMs=500 --sessionLatencyMs=500 --sessionLimit=16 --rolloutLimit=16" ;;
    L50) echo "--executorLatencyMs=50 --sessionLatencyMs=50 --sessionLimit=16 --rolloutLimit=16" ;;
    L0|L0-marginal) echo "--executorLatencyMs=0 --sessionLatencyMs=0 --sessionLimit=16 --rolloutLimit=16" ;;
    *) echo "unknown workload $1; use L500-limit2 L500-limit16 L50 L0 L0-marginal" >&2; exit 2 ;;
  esac
}

# one bench run: its command, then its measurement lines; the sweep's h2beam CPU-s in $work/jvm
run() {
  local w="$1"; shift
  echo "./h2beam bench --output=<fresh folder> $*"
  /usr/bin/time -f "  process            %e s wall, %M KB max RSS (whole JVM: sweep, judge, report)" -o "$work/time" \
    "$here/h2beam" bench --output="$work/$w" "$@" >"$work/out" 2>"$work/err" \
    || { tail -30 "$work/err" >&2; tail -30 "$work/out" >&2; exit 1; }
  sed -n '/^bench:/,$p' "$work/out"
  cat "$work/time"
  sed -n 's/.*= h2beam (JVMs*) \([0-9.]*\) + .*/\1/p' "$work/out" >"$work/jvm"
  rm -rf "${work:?}/$w"
}

for name in "${@:-L500-limit2 L500-limit16 L50 L0}"; do
  for w in $name; do
    # shellcheck disable=SC2207
    opts=($(options "$w") ${BENCH_OPTS:-})
    echo "### $w"
    if [ "$w" != L0-marginal ]; then run "$w" "${workload[@]}" "${opts[@]}"; continue; fi
    # the same sweep at two sizes: what does not grow with the tasks (the JVM's compiler warming up, the pipeline's
    # construction) is the run's fixed cost; the difference over the 40 added tasks is the cost of a task at scale
    small=(--domains=8 --tasksPerDomain=5 --k=3 --modes=both)
    large=(--domains=8 --tasksPerDomain=10 --k=3 --modes=both)
    run "$w-40" "${small[@]}" "${opts[@]}"; a="$(cat "$work/jvm")"
    run "$w-80" "${large[@]}" "${opts[@]}"; b="$(cat "$work/jvm")"
    [ -n "$a" ] && [ -n "$b" ] || { echo "no h2beam CPU line in a run's output" >&2; exit 1; }
    awk -v a="$a" -v b="$b" 'BEGIN {
      m = (b - a) / 40; f = a - 40 * m
      printf "  marginal           %.3f h2beam CPU-s per task (80 tasks %.2f - 40 tasks %.2f, over 40)\n", m, b, a
      printf "  fixed              %.2f h2beam CPU-s per run (40 tasks %.2f - 40 x marginal)\n", f, a }'
  done
done
