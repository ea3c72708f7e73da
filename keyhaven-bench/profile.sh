#!/usr/bin/env bash
# A profile of the server under one scenario (issue 24): runs the load driver against JAR, and once the closed loop is
# past its warm-up attaches async-profiler (samples every 1 ms, Java, native and kernel frames) to the server for the
# measured window; writes OUT.collapsed (one "frame;frame;… count" line per stack, the input of flame-graph tools) and
# OUT.bench (the driver's output).
#
#   [CLIENTS=16] [EVENT=cpu] [FROM_START=1] keyhaven-bench/profile.sh JAR sqlite|postgres SCENARIO OUT [warm-up s] [measured s]
#
# EVENT=wall samples every thread whether it runs or waits, each stack under its thread's name (for example
# "[keyhaven-group-commit tid=…]", the SQLite writer): where a serial thread spends its time, not only its CPU.
#
# FROM_START=1 loads the profiler as the server starts (-agentpath) instead of attaching to it after the warm-up, for
# a machine where attaching to a loaded JVM fails (jcmd: "Premature EOF"). The profile then covers the whole run:
# leave the JIT compilers' threads out when reading it ("CompileBroker" frames).
#
# async-profiler comes from Maven Central (tools.profiler:async-profiler:4.1, the native library inside the jar):
#   ./mvnw -q dependency:get -Dartifact=tools.profiler:async-profiler:4.1
set -euo pipefail
JAR=$(realpath "${1:?jar}")
STORE=${2:?store}
SCENARIO=${3:?scenario}
OUT=${4:?output prefix}
WARMUP=${5:-25}
MEASURED=${6:-20}
JDK=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
PROFILER_JAR=${PROFILER_JAR:-$HOME/.m2/repository/tools/profiler/async-profiler/4.1/async-profiler-4.1.jar}
LIB=$(mktemp -d)/libasyncProfiler.so
unzip -p "$PROFILER_JAR" linux-x64/libasyncProfiler.so > "$LIB"
export KEYHAVEN_AUTH_PROXY_PORT=0
EVENT=${EVENT:-cpu}
THREADS=""
[ "$EVENT" = wall ] && THREADS=",threads"
if [ -n "${FROM_START:-}" ]; then
    export KEYHAVEN_BENCH_SERVER_JAVA_OPTS="-agentpath:$LIB=start,event=$EVENT,interval=1ms,cstack=vm$THREADS,file=$(realpath -m "$OUT").collapsed,collapsed"
fi

"$JDK/bin/java" -jar keyhaven-bench/target/keyhaven-bench.jar --jar "$JAR" --stores "$STORE" --scenarios "$SCENARIO" \
    --concurrency "${CLIENTS:-16}" --warmup-seconds "$WARMUP" --seconds "$MEASURED" --half-load-seconds 0 > "$OUT.bench" 2>&1 &
BENCH=$!
if [ -n "${FROM_START:-}" ]; then
    wait $BENCH
    grep -E "^\| $SCENARIO \| $STORE \| closed" "$OUT.bench" | tail -1
    exit 0
fi
PID=""
until [ -n "$PID" ]; do
    sleep 1
    PID=$(pgrep -f -- "-jar $JAR serve" | head -1 || true)
done
# The closed loop starts after the scenario's set-up and the stamping of its requests.
until grep -q "closed loop" "$OUT.bench"; do sleep 0.5; done
sleep $((WARMUP + 1))
# jcmd takes the agent's options as one quoted argument (its own parser would split them at '=').
"$JDK/bin/jcmd" "$PID" JVMTI.agent_load "$LIB" "\"start,event=$EVENT,interval=1ms,cstack=vm$THREADS\"" > /dev/null
sleep $((MEASURED - 3))
"$JDK/bin/jcmd" "$PID" JVMTI.agent_load "$LIB" "\"stop,file=$(realpath -m "$OUT").collapsed,collapsed\"" > /dev/null
wait $BENCH
grep -E "^\| $SCENARIO \| $STORE \| closed" "$OUT.bench" | tail -1
