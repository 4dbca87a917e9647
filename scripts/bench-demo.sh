#!/usr/bin/env bash
# Measures the demo's wall time, CPU time and peak memory (whole process), fresh and resumed.
# Usage: scripts/bench-demo.sh [repeats] [extra h2beam options...]   (default 3 repeats; prints a Markdown table)
#   BENCH_KS="2"          the k values to run (default "1 2 3")
#   BENCH_COMMAND=sweep   time only the sweep (h2beam sweep --bench=demo, both modes) instead of h2beam demo
#                         (sweep, judge and report)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repeats="${1:-3}"; shift || true
command="${BENCH_COMMAND:-demo}"
"$here/h2beam" --help >/dev/null   # build first, outside the measurement
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
# the first real run writes the launcher's class-data archive: do it outside the measurement too
rm -f "$here"/demo/target/h2beam-*.jsa "$here"/demo/target/h2beam-*.jsa.classpath  # made anew by the demo's run
"$here/h2beam" demo --output="$work/warm" --k=1 >/dev/null 2>&1 || true
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "command: $command; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| k | run | wall s (min / median / max) | CPU s (median) | peak RSS MB (max) |"
echo "|---|---|---|---|---|"
for k in ${BENCH_KS:-1 2 3}; do
  for phase in fresh resumed; do
    walls=(); cpus=(); rss=0
    for i in $(seq "$repeats"); do
      out="$work/k$k-$i"
      [ "$phase" = fresh ] && rm -rf "$out"
      if [ "$command" = sweep ]; then
        run=("$here/h2beam" sweep --bench=demo --benchRoot="$out" --k="$k" --modes=parallel,sequential "$@")
      else
        run=("$here/h2beam" demo --output="$out" --k="$k" "$@")
      fi
      /usr/bin/time -f "%e %U %S %M" -o "$work/t" "${run[@]}" >/dev/null 2>"$work/err" \
        || { cat "$work/err" >&2; exit 1; }
      read -r wall user sys kb < "$work/t"
      walls+=("$wall"); cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
      [ "$kb" -gt "$rss" ] && rss="$kb"
    done
    sorted=($(printf '%s\n' "${walls[@]}" | sort -n))
    n=${#sorted[@]}
    echo "| $k | $phase | ${sorted[0]} / $(median "${walls[@]}") / ${sorted[$((n - 1))]} | $(median "${cpus[@]}") | $((rss / 1024)) |"
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
