#!/usr/bin/env bash
# Issue 12's small runs for two builds side by side, alternating round by round, since this kind of machine drifts
# by up to a third within minutes: a fresh demo sweep (k = 2, both modes), two resumes of it, `h2beam demo` (k = 2)
# and `h2beam sweep --help`. Whole processes: wall, CPU (user + system) and peak RSS; medians per build.
# Usage: scripts/bench-small-ab.sh <checkout A> <checkout B> [rounds]   (default 4 rounds)
#   e.g. git worktree add --detach /tmp/old <commit>; scripts/bench-small-ab.sh /tmp/old . 4
#   H2BEAM_JAVA_OPTS applies to both builds; BENCH_OPTS_A / BENCH_OPTS_B add JVM options to one of them only (the same
#   build twice with and without a flag: scripts/bench-small-ab.sh . . 4 with BENCH_OPTS_B=-XX:+UseTransparentHugePages)
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,8p "$0" >&2; exit 2; }
a="$(cd "$1" && pwd)"; b="$(cd "$2" && pwd)"; rounds="${3:-4}"
for d in "$a" "$b"; do [ -x "$d/h2beam" ] || { echo "no h2beam launcher in $d" >&2; exit 2; }; done
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
times="$work/times"; : > "$times"
# build both, and let each write its class-data archive, outside the measurement. The launcher writes the archive at
# the end of the first real run after a build, with the classes that run loaded: an archive a judge run wrote made
# the sweep's resume about 0.05 s slower than one the demo wrote (BENCHMARKS.md), and a build whose archive another
# command wrote is not compared like with like. So both archives are made anew here by the same run, the demo's.
for side in A B; do
  dir="$a"; [ "$side" = B ] && dir="$b"
  "$dir/h2beam" --help >/dev/null
  rm -f "$dir"/demo/target/h2beam-*.jsa "$dir"/demo/target/h2beam-*.jsa.classpath
  "$dir/h2beam" demo --output="$work/warm-$side" --k=1 >/dev/null 2>&1 || true
done
timed() {  # side, run name, command...
  local side="$1" name="$2"; shift 2
  local extra="BENCH_OPTS_$side"
  H2BEAM_JAVA_OPTS="${H2BEAM_JAVA_OPTS:-} ${!extra:-}" /usr/bin/time -f "$side $name %e %U %S %M" -a -o "$times" \
    "$@" >/dev/null 2>&1 || { echo "$side $name failed: $*" >&2; exit 1; }
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq 1 "$rounds"); do
  for side in A B; do
    dir="$a"; [ "$side" = B ] && dir="$b"
    rm -rf "$work/sweep-$side" "$work/demo-$side"
    timed "$side" "sweep-fresh" "$dir/h2beam" sweep --bench=demo --benchRoot="$work/sweep-$side" --k=2 \
      --modes=parallel,sequential
    for _ in 1 2; do
      timed "$side" "sweep-resume" "$dir/h2beam" sweep --bench=demo --benchRoot="$work/sweep-$side" --k=2 \
        --modes=parallel,sequential
    done
    timed "$side" "demo" "$dir/h2beam" demo --output="$work/demo-$side" --k=2
    timed "$side" "sweep-help" "$dir/h2beam" sweep --help
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "A = $a${BENCH_OPTS_A:+ ($BENCH_OPTS_A)}"
echo "B = $b${BENCH_OPTS_B:+ ($BENCH_OPTS_B)}"
echo
echo "| run | build | wall s, in order | median wall s | median CPU s | peak RSS MB |"
echo "|---|---|---|---|---|---|"
for name in sweep-fresh sweep-resume demo sweep-help; do
  for side in A B; do
    awk -v s="$side" -v n="$name" '$1 == s && $2 == n { w[++k] = $3; c[k] = $4 + $5; if ($6 > m) m = $6 }
      function median(arr, cnt,   i, j, t, x) {
        for (i = 1; i <= cnt; i++) x[i] = arr[i]
        for (i = 1; i <= cnt; i++) for (j = i + 1; j <= cnt; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
        return cnt % 2 ? x[(cnt + 1) / 2] : (x[cnt / 2] + x[cnt / 2 + 1]) / 2
      }
      END {
        list = ""; for (i = 1; i <= k; i++) list = list (i > 1 ? ", " : "") w[i]
        printf "| %s | %s | %s | %.2f | %.2f | %d |\n", n, s, list, median(w, k), median(c, k), m / 1024
      }' "$times"
  done
done
