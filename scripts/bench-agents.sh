#!/usr/bin/env bash
# Measures the real agent CLIs (OpenCode, Codex) against the scripted loopback model of the tests at zero model
# latency, and prints markdown tables with the load average each ran under (other work on the machine shows there).
# Needs the pinned CLIs in the tools folder ($H2BEAM_TOOLS_DIR, else ~/.h2beam/tools); AgentTools names the npm
# command when they are missing.
#
#   scripts/bench-agents.sh [runs N] [opencode,codex]
#       one run at a time: a file write, and a no-op (the CLI's start-up): wall, CPU, peak memory; default N = 5
#   scripts/bench-agents.sh knee [N] [opencode,codex] [1,2,3,4,6,8]
#       N file-write runs at each concurrency: rollouts/s, CPU per rollout, peak memory of all runs; default N = 12
#   scripts/bench-agents.sh startup [opencode,codex] [k] [modes] [repeats]
#       the share of a sweep's wall time spent in CLI start-up: the worked example (one task) swept as it is and with
#       each CLI run preceded by a no-op run; default k = 1, modes parallel, 1 repeat
#
# The old form "scripts/bench-agents.sh [runs per CLI] [agents]" still works (a number first means runs).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:-runs}"
case "$mode" in
  runs|knee|startup) shift || true ;;
  *) mode=runs ;;
esac
cd "$here"
# package (not install): the reactor resolves the adapters test-jar that holds the scripted model server
mvn -B -q -ntp -Dshade.phase=none -DskipTests -pl pipelines -am package dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-agents.cp >/dev/null
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cd pipelines
cp="target/test-classes:target/classes:$(cat target/bench-agents.cp)"
java_cmd=(java -Dsun.net.httpserver.nodelay=true -cp "$cp")
echo "$(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
export BENCH_KEY=bench-secret
case "$mode" in
  runs) "${java_cmd[@]}" dev.h2beam.adapters.agents.CliBench "$work" runs "${1:-5}" "${2:-opencode,codex}" ;;
  knee) "${java_cmd[@]}" dev.h2beam.adapters.agents.CliBench "$work" knee "${1:-12}" "${2:-opencode,codex}" \
    "${3:-1,2,3,4,6,8}" ;;
  startup) "${java_cmd[@]}" dev.h2beam.pipelines.folder.AgentSweepBench "$work" "${1:-opencode,codex}" "${2:-1}" \
    "${3:-parallel}" "${4:-1}" ;;
esac 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
