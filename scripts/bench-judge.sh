#!/usr/bin/env bash
# Re-judges a generated runs tree of NAMESPACES x TASKS finished namespaces with a grader that does no work
# (--grader=noop), and compares with a plain single-threaded Java loop that reads the same files and writes the
# same judged.json. Usage: scripts/bench-judge.sh [namespaces] [tasks] [extra judge options...]  (default 100 500)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
ns="${1:-100}"; tasks="${2:-500}"; shift $(( $# > 2 ? 2 : $# )) || true
"$here/h2beam" --help >/dev/null
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
H2BEAM_MAIN=dev.h2beam.pipelines.judge.JudgeBenchmark "$here/h2beam" generate "$work" "$ns" "$tasks"
rows=$(( ns * tasks * 2 ))
/usr/bin/time -f "%e %M" -o "$work/t1" "$here/h2beam" judge --namespaces="$work/runs/bench-oc-agg1-*" --grader=noop "$@" \
  > "$work/judge.out"
find "$work/runs" -name judged.json -delete
/usr/bin/time -f "%e %M" -o "$work/t2" env H2BEAM_MAIN=dev.h2beam.pipelines.judge.JudgeBenchmark "$here/h2beam" loop "$work" > "$work/loop.out"
read -r jw jk < "$work/t1"; read -r lw lk < "$work/t2"
grep -c "judged.json: $(( tasks * 2 )) row(s), $(( tasks * 2 )) graded" "$work/judge.out" | xargs echo "namespaces judged fully:"
echo "| run | rows | wall s | rows/s | peak RSS MB |"
echo "|---|---|---|---|---|"
awk -v r="$rows" -v w="$jw" -v k="$jk" 'BEGIN { printf "| h2beam judge (Beam, DirectRunner) | %d | %.2f | %.0f | %d |\n", r, w, r / w, k / 1024 }'
awk -v r="$rows" -v w="$lw" -v k="$lk" 'BEGIN { printf "| plain Java loop, one thread | %d | %.2f | %.0f | %d |\n", r, w, r / w, k / 1024 }'
awk -v a="$jw" -v b="$lw" 'BEGIN { printf "ratio h2beam / loop wall time: %.2f\n", a / b }'
