#!/usr/bin/env bash
# A Flink 1.19 session cluster on this machine, made of Flink's published artifacts (Maven fetches them into
# flink-cluster/target/flink.classpath): one JobManager and N TaskManagers, each its own JVM, bound to loopback.
# .ci/run starts one with it for the integration tests (which start their own when run alone); on real machines,
# start the JobManager on one host and TaskManagers on the others with the same config (README "Running on Flink").
#
#   scripts/flink-cluster.sh start [--dir=D] [--taskmanagers=2] [--slots=2] [--port=8081] [--attempts=3]
#   scripts/flink-cluster.sh start-taskmanager [--dir=D]     add one TaskManager (for example after a crash)
#   scripts/flink-cluster.sh kill-taskmanager [--dir=D] [--index=N]   SIGKILL one TaskManager (fault tests; without
#                                                                      --index the first one alive)
#   scripts/flink-cluster.sh status|stop [--dir=D]
#
# D (default target/flink-cluster under the checkout) holds conf/config.yaml, log/ and one .pid file per process.
# Every JVM of the cluster runs with H2BEAM_FLINK_JAVA_OPTS, by default the launcher's "-XX:TieredStopAtLevel=1
# -XX:+UseSerialGC": Flink loads a job's classes afresh for every job, so the full JIT compiles h2beam and Beam again
# for each sweep (an 8 x 5 synthetic sweep at L = 0: the workers' 27.3 CPU-s, against 14.2 with these; BENCHMARKS.md,
# "The bench on a cluster"). H2BEAM_FLINK_JAVA_OPTS= (empty) gives the JVM's defaults.
# Submit jobs from a client whose classpath has the cluster's Flink classes and h2beam's cluster jar:
#   java -cp demo/target/h2beam-demo-*-cluster.jar:$(cat flink-cluster/target/flink.classpath) \
#     dev.h2beam.pipelines.Main sweep --runner=FlinkRunner --flinkMaster=127.0.0.1:8081 \
#     --filesToStage=demo/target/h2beam-demo-<version>-cluster.jar --parallelism=4 ...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmd="${1:-}"; shift || true
dir="$here/target/flink-cluster"; tms=2; slots=2; port=8081; attempts=3; index=
for a in "$@"; do
  case "$a" in
    --dir=*) dir="${a#--dir=}" ;;
    --taskmanagers=*) tms="${a#--taskmanagers=}" ;;
    --slots=*) slots="${a#--slots=}" ;;
    --port=*) port="${a#--port=}" ;;
    --attempts=*) attempts="${a#--attempts=}" ;;
    --index=*) index="${a#--index=}" ;;
    *) echo "flink-cluster: unknown option $a (see the header of $0)" >&2; exit 2 ;;
  esac
done
for n in "$tms" "$slots" "$port" "$attempts" ${index:+"$index"}; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "flink-cluster: '$n' is not a whole number" >&2; exit 2; }
done
cpfile="$here/flink-cluster/target/flink.classpath"
# shellcheck disable=SC2206 # an option list, split on purpose
jvmopts=(${H2BEAM_FLINK_JAVA_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC})
# glibc gives threads that allocate native memory arenas of their own (up to eight per core) and keeps what they
# freed there: a TaskManager's resident memory grew by 50-210 MB with each 2,000-task sweep, judge and report it ran,
# to 1.52 GB of its 1.5 GB process size after four such rounds; with two arenas it levels off near 1.1 GB
# (BENCHMARKS.md, "2,000 tasks on the cluster"). Flink's Docker image uses jemalloc for the same reason. A value the
# caller set is kept.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
flags=(--add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED)

classpath() {
  if [ ! -s "$cpfile" ]; then
    echo "flink-cluster: fetching Flink's artifacts (first use) ..." >&2
    (cd "$here" && mvn -B -q -ntp -pl flink-cluster package) >&2
  fi
  cat "$cpfile"
}

alive() {  # running, not a zombie (a killed process nobody has reaped yet still answers kill -0)
  [ -f "$1" ] || return 1
  local pid; pid="$(cat "$1")"
  kill -0 "$pid" 2>/dev/null || return 1
  [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != "Z" ]
}

rest_port() { sed -n 's/^rest.port: //p' "$dir/conf/config.yaml"; }

registered() {  # the TaskManagers the JobManager knows, by resource id (taskmanager-N), one a line, sorted
  curl -fsS "http://127.0.0.1:$(rest_port)/taskmanagers" 2>/dev/null | grep -o '"id":"[^"]*"' | cut -d'"' -f4 | sort
}

live() {  # the TaskManagers of $dir that run and were not killed, the same way
  local f
  for f in "$dir"/taskmanager-*.pid; do
    [ ! -e "$f.killed" ] && alive "$f" && basename "$f" .pid
  done | sort
}

wait_for() {  # until the REST endpoint answers and the TaskManagers it lists are exactly the live ones
  local i
  for i in $(seq 1 240); do
    # exactly these: after a crash the JobManager lists the dead one until its heartbeat times out, and a job
    # submitted meanwhile would count it among the workers that divide the job's limits
    [ -n "$(live)" ] && [ "$(registered)" = "$(live)" ] && return 0
    alive "$dir/jobmanager.pid" || { echo "flink-cluster: the JobManager died; see $dir/log/jobmanager.log" >&2; return 1; }
    for f in "$dir"/taskmanager-*.pid; do
      [ -e "$f" ] && ! alive "$f" && [ ! -e "$f.killed" ] && {
        echo "flink-cluster: $(basename "$f" .pid) died; see $dir/log/$(basename "$f" .pid).log" >&2; return 1; }
    done
    sleep 0.5
  done
  echo "flink-cluster: after 120 s the JobManager lists [$(registered | xargs)], not the live [$(live | xargs)];" \
    "see $dir/log/" >&2
  return 1
}

start_tm() {
  local n=1
  while [ -e "$dir/taskmanager-$n.pid" ]; do n=$((n + 1)); done
  # each TaskManager its own JVM, its own temporary folder, its own log; setsid: its own process group
  # the JVM options and the memory parts flink-dist's taskmanager.sh computes from the process size, computed the
  # same way (BashJavaUtils): one line of JVM options, one line of -D settings
  local params jvm dyn
  params="$(java -cp "$(classpath)" org.apache.flink.runtime.util.bash.BashJavaUtils GET_TM_RESOURCE_PARAMS \
    --configDir "$dir/conf" 2>>"$dir/log/bash-java-utils.log" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p')"
  jvm="$(sed -n 1p <<<"$params")"; dyn="$(sed -n 2p <<<"$params")"
  [ -n "$dyn" ] || { echo "flink-cluster: cannot compute TaskManager memory; see $dir/log/bash-java-utils.log" >&2; return 1; }
  # shellcheck disable=SC2086 # both lines are option lists, split on purpose
  # its JVM's own temporary files too (native libraries it unpacks, such as lz4's), which a TaskManager killed with
  # SIGKILL cannot delete: in the cluster's folder, gone with it, never left in /tmp
  mkdir -p "$dir/tmp/taskmanager-$n"
  setsid java $jvm ${jvmopts[@]+"${jvmopts[@]}"} "${flags[@]}" -Dlog.file="$dir/log/taskmanager-$n.log" \
    -Djava.io.tmpdir="$dir/tmp/taskmanager-$n" -cp "$(classpath)" \
    org.apache.flink.runtime.taskexecutor.TaskManagerRunner --configDir "$dir/conf" $dyn \
    -D "io.tmp.dirs=$dir/tmp/taskmanager-$n" -D "taskmanager.resource-id=taskmanager-$n" \
    >"$dir/log/taskmanager-$n.log" 2>&1 < /dev/null &
  echo $! > "$dir/taskmanager-$n.pid"
  echo "taskmanager-$n pid $(cat "$dir/taskmanager-$n.pid")"
}

case "$cmd" in
  start)
    if alive "$dir/jobmanager.pid"; then echo "flink-cluster: already running from $dir (stop it first)" >&2; exit 1; fi
    # TaskManagers that outlived their JobManager (killed): the folder below holds their pid files, and once it is
    # made anew they would run on unseen, registering with the new JobManager under the new ones' names
    for f in "$dir"/taskmanager-*.pid; do
      if [ -e "$f" ] && alive "$f"; then
        echo "flink-cluster: $(basename "$f" .pid) (pid $(cat "$f")) of $dir still runs without its JobManager; run" \
            "'$0 stop --dir=$dir' first" >&2
        exit 1
      fi
    done
    command -v curl >/dev/null || { echo "flink-cluster: curl is needed (apt-get install curl)" >&2; exit 1; }
    rm -rf "$dir"; mkdir -p "$dir/conf" "$dir/log" "$dir/tmp"
    cat > "$dir/conf/config.yaml" <<EOF
jobmanager.rpc.address: 127.0.0.1
jobmanager.bind-host: 127.0.0.1
jobmanager.rpc.port: $((port + 42))
jobmanager.memory.process.size: 768m
rest.address: 127.0.0.1
rest.bind-address: 127.0.0.1
rest.port: $port
taskmanager.host: 127.0.0.1
taskmanager.bind-host: 127.0.0.1
taskmanager.numberOfTaskSlots: $slots
taskmanager.memory.process.size: 1536m
# a batch job of a dozen operators asks for hundreds of buffers per slot: small segments, a fixed pool
taskmanager.memory.segment-size: 8kb
taskmanager.memory.network.min: 192m
taskmanager.memory.network.max: 192m
parallelism.default: $((tms * slots))
restart-strategy.type: fixed-delay
restart-strategy.fixed-delay.attempts: $attempts
restart-strategy.fixed-delay.delay: 2 s
heartbeat.interval: 2000
heartbeat.timeout: 8000
io.tmp.dirs: $dir/tmp
# a finished job's jar (57 MB, the cluster jar; 125 MB with Beam's staging of a whole classpath) leaves each
# TaskManager's blob cache within two of these intervals: Flink's default of an hour kept a copy per job meanwhile
blob.service.cleanup.interval: 60
EOF
    setsid java -Xmx512m ${jvmopts[@]+"${jvmopts[@]}"} "${flags[@]}" -Dlog.file="$dir/log/jobmanager.log" \
      -Djava.io.tmpdir="$dir/tmp" -cp "$(classpath)" \
      org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint --configDir "$dir/conf" \
      >"$dir/log/jobmanager.log" 2>&1 < /dev/null &
    echo $! > "$dir/jobmanager.pid"
    echo "jobmanager pid $(cat "$dir/jobmanager.pid"), REST on 127.0.0.1:$port"
    for _ in $(seq 1 "$tms"); do start_tm; done
    wait_for
    echo "flink-cluster: up with $tms TaskManager(s) x $slots slot(s): --flinkMaster=127.0.0.1:$port"
    ;;
  start-taskmanager)
    alive "$dir/jobmanager.pid" || { echo "flink-cluster: no JobManager runs from $dir" >&2; exit 1; }
    start_tm
    wait_for
    ;;
  kill-taskmanager)
    if [ -z "$index" ]; then
      for f in "$dir"/taskmanager-*.pid; do
        [ ! -e "$f.killed" ] && alive "$f" && { index="${f##*/taskmanager-}"; index="${index%.pid}"; break; }
      done
      [ -n "$index" ] || { echo "flink-cluster: no TaskManager is running from $dir" >&2; exit 1; }
    fi
    f="$dir/taskmanager-$index.pid"
    alive "$f" || { echo "flink-cluster: taskmanager-$index is not running" >&2; exit 1; }
    kill -9 "$(cat "$f")"; touch "$f.killed"; echo "taskmanager-$index killed (SIGKILL)"
    ;;
  status)
    for f in "$dir"/*.pid; do
      [ -e "$f" ] || continue
      if alive "$f"; then s=running; else s=stopped; fi
      echo "$(basename "$f" .pid) pid $(cat "$f") $s"
    done
    if [ -e "$dir/jobmanager.pid" ] && alive "$dir/jobmanager.pid"; then
      echo "registered TaskManagers: $(registered | xargs)"
    else
      # after stop (or before start) there is no JobManager to ask: say the cluster is down, not an empty list
      echo "cluster down: no JobManager is running from $dir (scripts/flink-cluster.sh start starts one)"
    fi
    ;;
  stop)
    for f in "$dir"/taskmanager-*.pid "$dir/jobmanager.pid"; do
      [ -e "$f" ] || continue
      if alive "$f"; then kill -TERM -- "-$(cat "$f")" 2>/dev/null || kill -TERM "$(cat "$f")" 2>/dev/null || true; fi
    done
    for _ in $(seq 1 40); do
      left=0
      for f in "$dir"/*.pid; do [ -e "$f" ] && alive "$f" && left=1; done
      [ "$left" = 0 ] && break; sleep 0.25
    done
    for f in "$dir"/*.pid; do [ -e "$f" ] && alive "$f" && kill -9 -- "-$(cat "$f")" 2>/dev/null; rm -f "$f" "$f.killed"; done
    echo "flink-cluster: stopped"
    ;;
  *) echo "usage: $0 start|start-taskmanager|kill-taskmanager|status|stop [options] (see the header)" >&2; exit 2 ;;
esac
