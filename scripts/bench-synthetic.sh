#!/usr/bin/env bash
# Runs issue 11's synthetic workloads (8 domains x 5 tasks, k = 3, both modes) with ./h2beam bench and prints, per
# workload, the exact command and the bench's measurement lines (bounds, wall, in flight, CPU, files, memory, load).
# Usage: scripts/bench-synthetic.sh [workload ...]
#   workloads: L500-limit2 L500-limit16 L50 L0 (default: all four, in that order)
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
    L0) echo "--executorLatencyMs=0 --sessionLatencyMs=0 --sessionLimit=16 --rolloutLimit=16" ;;
    *) echo "unknown workload $1; use L500-limit2 L500-limit16 L50 L0" >&2; exit 2 ;;
  esac
}

for name in "${@:-L500-limit2 L500-limit16 L50 L0}"; do
  for w in $name; do
    # shellcheck disable=SC2207
    opts=($(options "$w") ${BENCH_OPTS:-})
    echo "### $w"
    echo "./h2beam bench --output=<fresh folder> ${workload[*]} ${opts[*]}"
    /usr/bin/time -f "  process            %e s wall, %M KB max RSS (whole JVM: sweep, judge, report)" -o "$work/time" \
      "$here/h2beam" bench --output="$work/$w" "${workload[@]}" "${opts[@]}" >"$work/out" 2>"$work/err" \
      || { tail -30 "$work/err" >&2; tail -30 "$work/out" >&2; exit 1; }
    sed -n '/^bench:/,$p' "$work/out"
    cat "$work/time"
    rm -rf "${work:?}/$w"
  done
done
