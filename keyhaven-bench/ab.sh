#!/usr/bin/env bash
# Interleaved A/B comparison of two server jars with the load driver: for each round, A B B A, each run a fresh server
# on an empty store, so that a drift of the host during the comparison hits both jars alike. Prints every run and, per
# scenario and store, the mean of each jar and B/A.
#
#   keyhaven-bench/ab.sh A.jar B.jar [options]
#   keyhaven-bench/ab.sh --commit-a REV [--commit-b REV] [options]   (builds the jars of those commits first)
#
# Options (defaults in brackets):
#   --scenarios S:C,...   scenario:clients [sign_raw_payload:64,whoami:16,list_wallet_accounts:16]
#   --stores LIST         [sqlite,postgres]
#   --rounds N            A B B A rounds [1]
#   --warmup-seconds N    [60]; the server's JIT is still busy 20-30 s into a signing run (BENCHMARKS.md)
#   --seconds N           measured [10]
#   --out DIR             where the runs' output goes [keyhaven-bench/target/ab-<time>]
#   --commit-b REV        with --commit-a: B built from REV instead of taken from the working tree's jar
#
# The bench jar is keyhaven-bench/target/keyhaven-bench.jar (build it with
# `./mvnw -q -pl keyhaven-bench,keyhaven-server -am package -DskipTests`); JAVA_HOME must be a JDK 25.
# KEYHAVEN_BENCH_SERVER_JAVA_OPTS passes JVM options to both servers.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# No auth proxy: its fixed port would clash with any other server on the machine.
export KEYHAVEN_AUTH_PROXY_PORT=0
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
bench="$root/keyhaven-bench/target/keyhaven-bench.jar"
scenarios="sign_raw_payload:64,whoami:16,list_wallet_accounts:16"
stores="sqlite,postgres"
rounds=1
warmup=60
seconds=10
out=""
commit_a=""
commit_b=""
jars=()

while [ $# -gt 0 ]; do
  case "$1" in
    --scenarios) scenarios="$2"; shift 2 ;;
    --stores) stores="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --warmup-seconds) warmup="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --commit-a) commit_a="$2"; shift 2 ;;
    --commit-b) commit_b="$2"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) jars+=("$1"); shift ;;
  esac
done

out="${out:-$root/keyhaven-bench/target/ab-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"

# Builds the server jar of commit $1 in a temporary worktree and copies it to $2.
build_jar() {
  local rev="$1" dest="$2" tree
  tree="$(mktemp -d)"
  git -C "$root" worktree add --detach "$tree" "$rev" >/dev/null
  (cd "$tree" && ./mvnw -B -q -pl keyhaven-server -am package -DskipTests -Dspotless.check.skip=true) \
    >"$out/build-$rev.log" 2>&1
  cp "$tree/keyhaven-server/target/keyhaven.jar" "$dest"
  git -C "$root" worktree remove --force "$tree"
}

if [ -n "$commit_a" ]; then
  build_jar "$commit_a" "$out/A.jar"
  if [ -n "$commit_b" ]; then
    build_jar "$commit_b" "$out/B.jar"
  else
    cp "$root/keyhaven-server/target/keyhaven.jar" "$out/B.jar"
  fi
  jars=("$out/A.jar" "$out/B.jar")
fi
if [ "${#jars[@]}" -ne 2 ]; then
  echo "give two jars (A and B), or --commit-a REV" >&2
  exit 2
fi
for jar in "${jars[@]}" "$bench"; do
  [ -f "$jar" ] || { echo "missing $jar" >&2; exit 2; }
done
echo "A = ${jars[0]}" | tee "$out/runs.md"
echo "B = ${jars[1]}" | tee -a "$out/runs.md"
echo "scenarios $scenarios, stores $stores, $rounds round(s) of A B B A, ${warmup}s warm-up, ${seconds}s measured" \
  | tee -a "$out/runs.md"
echo | tee -a "$out/runs.md"
echo "| jar | round | operation | store | clients | req/s | machine cores busy | server µs/req | postgres µs/req | other processes, cores |" \
  | tee -a "$out/runs.md"
echo "|---|---:|---|---|---:|---:|---:|---:|---:|---:|" | tee -a "$out/runs.md"

run=0
for round in $(seq 1 "$rounds"); do
  for label in A B B A; do
    jar="${jars[0]}"
    [ "$label" = B ] && jar="${jars[1]}"
    for store in ${stores//,/ }; do
      for spec in ${scenarios//,/ }; do
        scenario="${spec%%:*}"
        clients="${spec##*:}"
        run=$((run + 1))
        log="$out/run-$run-$label-$store-$scenario"
        "$java" -jar "$bench" --jar "$jar" --stores "$store" --scenarios "$scenario" --concurrency "$clients" \
          --warmup-seconds "$warmup" --seconds "$seconds" --half-load-seconds 0 >"$log.out" 2>"$log.err" \
          || echo "run $run failed: $log.err" >&2
        # The CPU table's row: operation, store, load, req/s, cores busy, server, postgres, kernel, driver, other.
        row="$(grep -F "| $scenario | $store | closed" "$log.out" | head -1 || true)"
        [ -n "$row" ] || row="| $scenario | $store | failed | - | - | - | - | - | - | - |"
        IFS='|' read -r _ op st _ rate busy server pg _ _ other _ <<<"$row"
        printf '| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$round" $op $st "$clients" \
          $rate $busy $server $pg $other | tee -a "$out/runs.md"
      done
    done
  done
done

echo | tee -a "$out/runs.md"
echo "| operation | store | A req/s (mean) | B req/s (mean) | B/A |" | tee -a "$out/runs.md"
echo "|---|---|---:|---:|---:|" | tee -a "$out/runs.md"
awk -F'|' '$2 ~ /^ [AB] $/ && $7 ~ /[0-9]/ {
    gsub(/ /, "", $2); gsub(/ /, "", $4); gsub(/ /, "", $5); rate = $7; gsub(/[ ,]/, "", rate)
    key = $4 " | " $5; sum[key, $2] += rate; n[key, $2]++; keys[key] = 1
  }
  END {
    for (k in keys) {
      a = sum[k, "A"] / n[k, "A"]; b = sum[k, "B"] / n[k, "B"]
      printf "| %s | %.0f | %.0f | %.2f |\n", k, a, b, b / a
    }
  }' "$out/runs.md" | sort | tee -a "$out/runs.md"
echo
echo "All runs: $out/runs.md (each run's driver output beside it). Runs with 'other processes' above about 0.1 cores"
echo "shared the machine with other work and are noisy."
