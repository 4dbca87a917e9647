#!/usr/bin/env bash
# Issue 12's judge for two builds side by side, alternating round by round on one generated tree of NAMESPACES x
# TASKS finished namespaces (this kind of machine drifts by up to a third within minutes, so only runs close in time
# compare). Before each run every judged.json and metrics.json is removed; after it, one digest over all of them is
# printed, which must be the same for both builds (the judge writes the same files whatever the build's speed).
# Usage: scripts/bench-judge-ab.sh <checkout A> <checkout B> [rounds] [namespaces] [tasks]   (default 4 100 500)
#   e.g. git worktree add --detach /tmp/old <commit>; TMPDIR=/dev/shm scripts/bench-judge-ab.sh /tmp/old . 4
set -euo pipefail
. "$(dirname "$0")/ab-common.sh"
table_start "digest of every judged.json and metrics.json"
for r in $(seq 1 "$rounds"); do
  for side in A B; do
    dir="$(build_dir "$side")"
    find "$work/tree/runs" -maxdepth 2 \( -name judged.json -o -name metrics.json \) -delete
    timed "$work/t" "$dir/h2beam" judge --namespaces="$work/tree/runs/bench-oc-agg1-*" --grader=noop \
      || { echo "$side: the judge failed" >&2; exit 1; }
    digest=$(cd "$work/tree/runs" && cat bench-oc-agg1-*/judged.json bench-oc-agg1-*/metrics.json | md5sum | cut -c1-8)
    row "$r" "judge, build $side" "$work/t" "$digest"
  done
done
table_end
