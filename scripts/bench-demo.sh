#!/usr/bin/env bash
# Measures the demo's wall time and peak memory (whole process) at k = 1, 2, 3, fresh and resumed.
# Usage: scripts/bench-demo.sh [repeats] [extra h2beam options...]   (default 3 repeats; prints a Markdown table)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repeats="${1:-3}"; shift || true
"$here/h2beam" --help >/dev/null   # build first, outside the measurement
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
echo "| k | run | wall s (min / median / max) | peak RSS MB (max) |"
echo "|---|---|---|---|"
for k in 1 2 3; do
  for phase in fresh resumed; do
    walls=(); rss=0
    for i in $(seq "$repeats"); do
      out="$work/k$k-$i"
      [ "$phase" = fresh ] && rm -rf "$out"
      /usr/bin/time -f "%e %M" -o "$work/t" "$here/h2beam" demo --output="$out" --k="$k" "$@" >/dev/null 2>"$work/err" \
        || { cat "$work/err" >&2; exit 1; }
      read -r wall kb < "$work/t"
      walls+=("$wall"); [ "$kb" -gt "$rss" ] && rss="$kb"
    done
    sorted=($(printf '%s\n' "${walls[@]}" | sort -n))
    n=${#sorted[@]}
    echo "| $k | $phase | ${sorted[0]} / ${sorted[$((n / 2))]} / ${sorted[$((n - 1))]} | $((rss / 1024)) |"
  done
done
