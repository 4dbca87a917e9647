#!/usr/bin/env bash
# Issue 12's report for two builds side by side, alternating round by round on one generated and judged tree of
# NAMESPACES x TASKS finished namespaces (this kind of machine drifts by up to a third within minutes, so only runs
# close in time compare), with the plain loops the target is set against in each round: one that parses every
# judged.json, one that parses every file the report reads. After each report, one digest over its report.txt,
# report.html and report-restricted.json is printed, which must be the same for both builds.
# Usage: scripts/bench-report-ab.sh <checkout A> <checkout B> [rounds] [namespaces] [tasks]   (default 4 100 500)
#   e.g. git worktree add --detach /tmp/old <commit>; TMPDIR=/dev/shm scripts/bench-report-ab.sh /tmp/old . 4
set -euo pipefail
. "$(dirname "$0")/ab-common.sh"
"$b/h2beam" judge --namespaces="$work/tree/runs/bench-oc-agg1-*" --grader=noop >/dev/null 2>&1
table_start "digest of report.txt, report.html, report-restricted.json"
for r in $(seq 1 "$rounds"); do
  for side in A B; do
    dir="$(build_dir "$side")"
    rm -rf "$work/report"
    timed "$work/t" "$dir/h2beam" report --namespaces="$work/tree/runs/bench-oc-agg1-*" --output="$work/report" \
      || { echo "$side: the report failed" >&2; exit 1; }
    digest=$(cat "$work/report/report.txt" "$work/report/report.html" "$work/report/report-restricted.json" \
      | md5sum | cut -c1-8)
    row "$r" "report, build $side" "$work/t" "$digest"
  done
  timed "$work/t" env H2BEAM_MAIN=dev.h2beam.pipelines.report.ReportBenchmark "$b/h2beam" loop "$work/tree" judged
  row "$r" "plain loop: parse every judged.json" "$work/t" "-"
  timed "$work/t" env H2BEAM_MAIN=dev.h2beam.pipelines.report.ReportBenchmark "$b/h2beam" loop "$work/tree" all
  row "$r" "plain loop: parse every file the report reads" "$work/t" "-"
done
table_end
