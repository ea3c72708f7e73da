#!/usr/bin/env bash
# A CPU profile of the server under one read scenario (issue 24): runs the load driver against JAR, and once the
# closed loop is past its warm-up attaches async-profiler (CPU samples every 1 ms, Java, native and kernel frames) to
# the server for the measured window; writes OUT.collapsed (one "frame;frame;… count" line per stack, the input of
# flame-graph tools) and OUT.bench (the driver's output).
#
#   keyhaven-bench/profile-reads.sh JAR sqlite|postgres whoami|list_wallet_accounts OUT [warm-up s] [measured s]
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

"$JDK/bin/java" -jar keyhaven-bench/target/keyhaven-bench.jar --jar "$JAR" --stores "$STORE" --scenarios "$SCENARIO" \
    --concurrency 16 --warmup-seconds "$WARMUP" --seconds "$MEASURED" --half-load-seconds 0 > "$OUT.bench" 2>&1 &
BENCH=$!
PID=""
until [ -n "$PID" ]; do
    sleep 1
    PID=$(pgrep -f -- "-jar $JAR serve" | head -1 || true)
done
# The closed loop starts after the scenario's set-up and the stamping of its requests.
until grep -q "closed loop" "$OUT.bench"; do sleep 0.5; done
sleep $((WARMUP + 1))
# jcmd takes the agent's options as one quoted argument (its own parser would split them at '=').
"$JDK/bin/jcmd" "$PID" JVMTI.agent_load "$LIB" '"start,event=cpu,interval=1ms,cstack=vm"' > /dev/null
sleep $((MEASURED - 3))
"$JDK/bin/jcmd" "$PID" JVMTI.agent_load "$LIB" "\"stop,file=$(realpath -m "$OUT").collapsed,collapsed\"" > /dev/null
wait $BENCH
grep -E "^\| $SCENARIO \| $STORE \| closed" "$OUT.bench" | tail -1
