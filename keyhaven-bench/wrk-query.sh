#!/usr/bin/env bash
# whoami's peak with wrk (a driver written in C, Debian's package `wrk`) instead of the Java load driver, which costs
# 33-39 µs of the same two cores per request (BENCHMARKS.md, "What stands between whoami and 60 %"). Starts JAR on an
# empty store, sends one stamped whoami on CONNECTIONS keep-alive connections from one wrk thread, and prints the rate
# and the CPU each process spent per request, from /proc. Then, on the same server, the same for `GET /health`: the
# HTTP exchange alone (no stamp, no store), the floor under every request of the API on these cores.
#
#   keyhaven-bench/wrk-query.sh JAR sqlite|postgres [connections 16] [warm-up s 30] [measured s 15]
#
# The bench jar (keyhaven-bench/target/keyhaven-bench.jar) stamps the request; JAVA_HOME must be a JDK 25.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$(realpath "${1:?jar}")"
store="${2:?sqlite or postgres}"
connections="${3:-16}"
warmup="${4:-30}"
seconds="${5:-15}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
bench="$root/keyhaven-bench/target/keyhaven-bench.jar"
command -v wrk > /dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
export KEYHAVEN_AUTH_PROXY_PORT=0

work="$(mktemp -d)"
database=""
extra=()
if [ "$store" = postgres ]; then
  database="keyhaven_wrk_$(date +%s)_$$"
  psql -q -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE $database"
  extra=(--db-url "jdbc:postgresql://127.0.0.1:5432/$database?user=postgres")
fi
"$java" -jar "$jar" serve --data-dir "$work/data" --port 0 --max-users-per-organization 100000000 "${extra[@]}" \
  > "$work/server.out" 2> /dev/null &
server=$!
cleanup() {
  kill "$server" 2> /dev/null || true
  wait "$server" 2> /dev/null || true
  [ -z "$database" ] || psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $database WITH (FORCE)"
  rm -rf "$work"
}
trap cleanup EXIT
until grep -q "serving on" "$work/server.out"; do
  kill -0 "$server" 2> /dev/null || { echo "the server did not start" >&2; exit 1; }
  sleep 0.2
done
url="$(grep -o 'serving on http://[^ ]*' "$work/server.out" | head -1 | cut -d' ' -f3)"
org="$(grep -o 'organization id: *[^ ]*' "$work/server.out" | head -1 | awk '{print $3}')"
"$java" -cp "$bench" dev.keyhaven.bench.WrkScript "$work/data" /public/v1/query/whoami \
  "{\"organizationId\":\"$org\"}" > "$work/whoami.lua"

# CPU ticks (1/100 s): the machine's busy ticks, one process's, every postgres process's.
machine_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
process_ticks() { awk '{sub(/.*\) /, ""); print $12+$13}' "/proc/$1/stat"; }
postgres_ticks() {
  local total=0 p
  for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2> /dev/null)" = postgres ] || continue
    total=$((total + $(awk '{sub(/.*\) /, ""); print $12+$13}' "$p/stat" 2> /dev/null || echo 0)))
  done
  echo "$total"
}

# measure LABEL PATH SCRIPT WARM: WARM seconds of wrk on PATH, then SECONDS measured, printed as the table's row for
# LABEL. SCRIPT is a wrk script (empty: a plain GET). wrk runs on with its defaults (GET /) when a script does not
# load: any message from it ends the run.
measure() {
  local label="$1" path="$2" script="$3" warm="$4"
  local args=(-t1 -c"$connections")
  [ -z "$script" ] || args+=(-s "$script")
  wrk "${args[@]}" -d"${warm}s" "$url$path" > /dev/null 2> "$work/wrk.err"
  [ ! -s "$work/wrk.err" ] || { cat "$work/wrk.err" >&2; exit 1; }
  local m0 s0 p0 t0 m1 s1 p1 t1
  m0=$(machine_ticks); s0=$(process_ticks "$server"); p0=$(postgres_ticks); t0=$(date +%s%N)
  TIMEFORMAT='%U %S'
  { time wrk "${args[@]}" -d"${seconds}s" "$url$path" > "$work/wrk.out" 2> "$work/wrk.err"; } 2> "$work/wrk.time"
  m1=$(machine_ticks); s1=$(process_ticks "$server"); p1=$(postgres_ticks); t1=$(date +%s%N)
  cat "$work/wrk.out" >&2
  local rate bad
  rate="$(awk '/^Requests\/sec/{print $2}' "$work/wrk.out")"
  bad="$(awk '/Non-2xx/{print $NF}' "$work/wrk.out")"
  awk -v rate="$rate" -v bad="${bad:-0}" -v m="$((m1 - m0))" -v s="$((s1 - s0))" -v p="$((p1 - p0))" \
      -v t="$(( (t1 - t0) / 1000000 ))" -v w="$(cat "$work/wrk.time")" -v store="$store" -v c="$connections" \
      -v label="$label" '
    BEGIN {
      split(w, wt, " "); secs = t / 1000; n = rate * secs
      printf "| %s | %s | %d | %.0f | %.2f | %.0f | %.0f | %.0f | %d |\n", label, store, c, rate, m / 100 / secs,
        s * 1e4 / n, p * 1e4 / n, (wt[1] + wt[2]) * 1e6 / n, bad
    }'
}

echo "| operation | store | connections | req/s | machine cores busy | server µs/req | postgres µs/req | wrk µs/req | non-2xx |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
measure "whoami (wrk)" /public/v1/query/whoami "$work/whoami.lua" "$warmup"
# The server is warm from whoami: a short warm-up for the new path is enough.
measure "GET /health (wrk)" /health "" 10
