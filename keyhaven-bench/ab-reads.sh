#!/usr/bin/env bash
# Interleaved A/B of two server jars on the read path (issue 24): whoami and list_wallet_accounts, run in the order
# A B B A on each store, each run a fresh server on an empty store, then the raw-crypto limit of a query (JMH
# RawCryptoBenchmark.stampVerify on 2 threads). Prints every run's closed-loop row and CPU row, tagged with its jar.
#
#   keyhaven-bench/ab-reads.sh A.jar B.jar [stores] [warm-up s] [measured s] [rounds]
#
# Defaults: stores sqlite,postgres; 30 s warm-up; 15 s measured; 1 round (A B B A). Run it from the repository root
# after `./mvnw -q -pl keyhaven-bench,keyhaven-server -am package -DskipTests`. Set SKIP_JMH=1 to skip the limit.
# Decide by the pairs of one run on a quiet machine: absolute rates drift by 10-30 % within minutes on a shared host.
# keyhaven-bench/ab.sh is the general comparison (any scenarios; A B B A over the whole set); this one runs each
# scenario's four runs back to back and keeps the driver's CPU per request, which a 54 kB answer makes large.
set -euo pipefail
A=${1:?jar A}
B=${2:?jar B}
STORES=${3:-sqlite,postgres}
WARMUP=${4:-30}
SECONDS_MEASURED=${5:-15}
ROUNDS=${6:-1}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
BENCH=keyhaven-bench/target/keyhaven-bench.jar
# The servers' auth proxy is not needed, and its fixed port would clash with any other server on the machine.
export KEYHAVEN_AUTH_PROXY_PORT=0

run() {
    local label=$1 jar=$2 store=$3 scenario=$4 concurrency=$5
    "$JAVA" -jar "$BENCH" --jar "$jar" --stores "$store" --scenarios "$scenario" --concurrency "$concurrency" \
        --warmup-seconds "$WARMUP" --seconds "$SECONDS_MEASURED" --half-load-seconds 0 2>/dev/null \
        | grep -E "^\| $scenario \| $store \|" | sed "s/^/| $label /"
}

echo "| jar | operation | store | … (closed-loop row, then the CPU row of the same run) |"
for round in $(seq 1 "$ROUNDS"); do
    for store in ${STORES//,/ }; do
        for scenario in whoami list_wallet_accounts; do
            for label in A B B A; do
                jar=$A
                [ "$label" = B ] && jar=$B
                run "$label" "$jar" "$store" "$scenario" 16
            done
        done
    done
done
if [ "${SKIP_JMH:-0}" != 1 ]; then
    echo
    echo "Raw crypto of one query (JMH RawCryptoBenchmark.stampVerify, 2 threads):"
    "$JAVA" -cp "$BENCH" org.openjdk.jmh.Main 'RawCryptoBenchmark.stampVerify' -t 2 -f 1 -wi 5 -w 2 -i 8 -r 2 \
        2>/dev/null | grep -E "^RawCryptoBenchmark"
fi
