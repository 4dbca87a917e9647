#!/usr/bin/env bash
# Re-judges a generated runs tree of NAMESPACES x TASKS finished namespaces with a grader that does no work
# (--grader=noop), and compares with a plain single-threaded Java loop that reads the same files and writes the
# same judged.json. Then reports over the judged tree and compares with plain loops that parse the same judged.json
# files (and, second, every file the report reads). Whole processes: wall, CPU (user + system) and peak RSS.
# Usage: scripts/bench-judge.sh [namespaces] [tasks] [extra judge options...]  (default 100 500)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
ns="${1:-100}"; tasks="${2:-500}"; shift $(( $# > 2 ? 2 : $# )) || true
"$here/h2beam" --help >/dev/null
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
H2BEAM_MAIN=dev.h2beam.pipelines.judge.JudgeBenchmark "$here/h2beam" generate "$work" "$ns" "$tasks"
# the first real run writes the launcher's class-data archive: do it outside the measurement
rm -f "$here"/demo/target/h2beam-*.jsa "$here"/demo/target/h2beam-*.jsa.classpath  # made anew by the demo's run
"$here/h2beam" demo --output="$work/warm" --k=1 >/dev/null 2>&1 || true
rows=$(( ns * tasks * 2 ))
timed() { local t="$1"; shift; /usr/bin/time -f "%e %U %S %M" -o "$t" "$@"; }
row() {  # name, rows, time file
  read -r w u s k < "$3"
  awk -v n="$1" -v r="$2" -v w="$w" -v c="$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" -v k="$k" \
    'BEGIN { printf "| %s | %d | %.2f | %.2f | %s | %d |\n", n, r, w, c, (r > 0 ? sprintf("%.0f", r / w) : "-"), k / 1024 }'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
timed "$work/t1" "$here/h2beam" judge --namespaces="$work/runs/bench-oc-agg1-*" --grader=noop "$@" > "$work/judge.out"
timed "$work/t3" "$here/h2beam" report --namespaces="$work/runs/bench-oc-agg1-*" --output="$work/report" \
  > "$work/report.out" 2>&1 || { tail -5 "$work/report.out" >&2; exit 1; }
timed "$work/t4" env H2BEAM_MAIN=dev.h2beam.pipelines.report.ReportBenchmark "$here/h2beam" loop "$work" judged \
  > "$work/rloop.out"
timed "$work/t5" env H2BEAM_MAIN=dev.h2beam.pipelines.report.ReportBenchmark "$here/h2beam" loop "$work" all \
  > "$work/rloop-all.out"
find "$work/runs" -name judged.json -delete
timed "$work/t2" env H2BEAM_MAIN=dev.h2beam.pipelines.judge.JudgeBenchmark "$here/h2beam" loop "$work" > "$work/loop.out"
grep -c "judged.json: $(( tasks * 2 )) row(s), $(( tasks * 2 )) graded" "$work/judge.out" | xargs echo "namespaces judged fully:"
echo
echo "| run | rows | wall s | CPU s | rows/s | peak RSS MB |"
echo "|---|---|---|---|---|---|"
row "h2beam judge (Beam, DirectRunner)" "$rows" "$work/t1"
row "plain Java loop, one thread: read summaries, grade, write judged.json" "$rows" "$work/t2"
row "h2beam report (Beam, DirectRunner)" "$rows" "$work/t3"
row "plain Java loop, one thread: parse every judged.json" "$rows" "$work/t4"
row "plain Java loop, one thread: parse judged.json, summary.json, config.json, metrics.json" "$rows" "$work/t5"
echo
awk -v a="$(cut -d' ' -f1 "$work/t1")" -v b="$(cut -d' ' -f1 "$work/t2")" \
  'BEGIN { printf "ratio judge / loop wall time: %.2f\n", a / b }'
awk -v a="$(cut -d' ' -f1 "$work/t3")" -v b="$(cut -d' ' -f1 "$work/t4")" -v c="$(cut -d' ' -f1 "$work/t5")" \
  'BEGIN { printf "ratio report / judged.json loop wall time: %.2f; report / all-files loop: %.2f\n", a / b, a / c }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
