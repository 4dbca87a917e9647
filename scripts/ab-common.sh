# Sourced by scripts/bench-judge-ab.sh and scripts/bench-report-ab.sh (not run on its own): reads their arguments
# <checkout A> <checkout B> [rounds] [namespaces] [tasks] into a, b, rounds, ns and tasks (default 4 100 500), makes
# the scratch folder $work (removed on exit), builds both checkouts and lets the same run (the demo's) write each
# build's class-data archive, outside the measurement; then generates the tree of ns x tasks finished namespaces in
# $work/tree with build B. Defines timed (a command's wall, CPU and peak RSS into a file, its output dropped), row
# (one table row from such a file), table_start (the load average and the table's head, its last column named by its
# argument), build_dir (checkout A's or B's folder for side A or B) and table_end (the load average and both checkouts).
[ $# -ge 2 ] || { awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
a="$(cd "$1" && pwd)"; b="$(cd "$2" && pwd)"; rounds="${3:-4}"; ns="${4:-100}"; tasks="${5:-500}"
for d in "$a" "$b"; do [ -x "$d/h2beam" ] || { echo "no h2beam launcher in $d" >&2; exit 2; }; done
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
for d in "$a" "$b"; do
  "$d/h2beam" --help >/dev/null
  rm -f "$d"/demo/target/h2beam-*.jsa "$d"/demo/target/h2beam-*.jsa.classpath
  "$d/h2beam" demo --output="$work/warm" --k=1 >/dev/null 2>&1 || true
  rm -rf "$work/warm"
done
H2BEAM_MAIN=dev.h2beam.pipelines.judge.JudgeBenchmark "$b/h2beam" generate "$work/tree" "$ns" "$tasks" >/dev/null
timed() { local t="$1"; shift; /usr/bin/time -f "%e %U %S %M" -o "$t" "$@" >/dev/null 2>&1; }
row() {  # round, what ran, time file, digest
  read -r w u s k < "$3"
  awk -v r="$1" -v n="$2" -v w="$w" -v c="$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" -v k="$k" -v d="$4" \
    'BEGIN { printf "| %d | %s | %.2f | %.2f | %d | %s |\n", r, n, w, c, k / 1024, d }'
}
table_start() {  # the last column's name
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| round | run | wall s | CPU s | peak RSS MB | $1 |"
  echo "|---|---|---|---|---|---|"
}
build_dir() { if [ "$1" = B ]; then echo "$b"; else echo "$a"; fi; }
table_end() {
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "A = $a"
  echo "B = $b"
}
